/* blockcrypt tool: `encrypt` and `decrypt` for skciphers and AEADs, streamed in bounded memory where the mode allows.
 * Semantics are the library's (Linux crypto API); AEAD output is ciphertext || tag (SP 800-38D); xts data units as IEEE 1619 and dm-crypt plain64. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blockcrypt.h"
#include "cli.h"

/* What streams: ecb, cbc and ctr chunk by chunk (cbc and ctr carry their IV from one chunk to the
 * next: the library writes the chaining value back); xts and essiv unit by unit with --data-unit-size;
 * AEAD encryption through the incremental calls. Anything else (cts, AEAD decryption, a single xts or
 * essiv unit) is one message held in memory. */
#define CHUNK_DEFAULT ((size_t)1 << 20)
#define CHUNK_MAX ((size_t)1 << 30)
#define BUFFER_LIMIT_DEFAULT ((size_t)1 << 30)
#define XTS_UNIT_MAX ((size_t)16 << 20)   /* IEEE 1619: at most 2^20 blocks in one data unit */

/* KEYSTREAM: chacha20 and xchacha, whose IV stays as it was: each chunk
 * (whole 64-byte blocks) starts at the block counter after the last one's. */
enum shape { WHOLE, CHAINED, UNITS, KEYSTREAM };

struct crypt_args {
	const char *cmd, *name, *in_path, *out_path;
	struct cli_key key_opt;
	uint8_t *key, *iv, *aad;
	size_t keylen, ivlen, aadlen, taglen, unit, limit;
	int have_iv, have_aad, have_taglen, have_unit, large_units, decrypt;
	unsigned flags;
	int in;
	struct cli_out out;
};

/* The mode is the name's first word, in algorithm and driver names alike: "xts(aes)", "xts-aes-aesni". */
static int mode_is(const char *name, const char *mode)
{
	size_t n = strcspn(name, "(-");

	return n == strlen(mode) && !strncmp(name, mode, n);
}

static int try_skcipher_key(void *tfm, const uint8_t *key, size_t len)
{
	return bc_skcipher_setkey(tfm, key, len);
}

static int try_aead_key(void *tfm, const uint8_t *key, size_t len)
{
	return bc_aead_setkey(tfm, key, len);
}

/* Chunk size: BLOCKCRYPT_CHUNK_SIZE, a test knob, else 1 MiB. */
static int chunk_size(size_t *chunk)
{
	const char *env = getenv("BLOCKCRYPT_CHUNK_SIZE");

	*chunk = CHUNK_DEFAULT;
	if (env && (cli_parse_bytes(env, CHUNK_MAX, chunk) < 0 || *chunk == 0 || *chunk % 16))
		return cli_fail("BLOCKCRYPT_CHUNK_SIZE must be a multiple of 16 bytes, at most 1G");
	return 0;
}

/* Opens the input and the output once everything else has been checked, so a usage error creates no file. */
static int open_io(struct crypt_args *a)
{
	int r = cli_open_in(a->in_path, &a->in);

	return r ? r : cli_out_open(&a->out, a->out_path);
}

static int read_fail(const struct crypt_args *a)
{
	return cli_fail("cannot read %s: %s", cli_in_name(a->in_path), strerror(errno));
}

/* Says what length the mode takes if it does not take len bytes (0 if it does). steals: xts, cts,
 * hctr2 and adiantum take any length from one block; the others (ecb, cbc, essiv) whole blocks; ctr and xctr (block
 * size 1) anything. */
static int length_fail(const struct crypt_args *a, const char *what, size_t len, size_t bs, int steals)
{
	if (steals && len < bs)
		return cli_fail("%s: %s is %zu bytes; it must be at least %zu bytes", a->name, what, len, bs);
	if (!steals && len % bs)
		return cli_fail("%s: length must be a multiple of %zu (%s is %zu bytes)", a->name, bs, what, len);
	return 0;
}

/* The same for a stream of len bytes in all: whole-block modes need all of it in blocks; in data
 * units, only the last unit can be short. */
static int stream_length_fail(const struct crypt_args *a, enum shape shape, uint64_t len, size_t bs, int steals)
{
	size_t last;

	if (shape == CHAINED || shape == KEYSTREAM)   /* blocksize 1 for the stream ciphers */
		return len % bs ? cli_fail("%s: length must be a multiple of %zu (the input is %llu bytes)", a->name, bs,
		                           (unsigned long long)len) : 0;
	last = (size_t)(len % a->unit);
	return len == 0 ? 0 : length_fail(a, "the last data unit", last ? last : a->unit, bs, steals);
}

static int crypt_fail(const struct crypt_args *a, int err)
{
	return cli_fail("%s: cannot %s (%s)", a->name, a->cmd, strerror(-err));
}

static int skcipher_crypt(const bc_skcipher *tfm, int decrypt, uint8_t *iv, uint8_t *buf, size_t len)
{
	return decrypt ? bc_skcipher_decrypt(tfm, iv, buf, buf, len) : bc_skcipher_encrypt(tfm, iv, buf, buf, len);
}

/* Data units: each its own message, its IV the first unit's plus its index (128-bit little-endian, dm-crypt's plain64). */
static int crypt_units(const bc_skcipher *tfm, const struct crypt_args *a, uint8_t *tweak, uint8_t *buf, size_t len)
{
	uint8_t iv[16];

	for (size_t off = 0; off < len; off += a->unit) {
		size_t n = len - off < a->unit ? len - off : a->unit;
		int r;

		memcpy(iv, tweak, a->ivlen);
		r = skcipher_crypt(tfm, a->decrypt, iv, buf + off, n);
		if (r < 0)
			return r;
		for (size_t i = 0, carry = 1; i < a->ivlen && carry; i++)
			carry = ++tweak[i] == 0;
	}
	return 0;
}

/* The little-endian 32-bit block counter of chacha20's IV (its first word)
 * or xchacha's (after the 24-byte nonce), wrapping alone as the kernel's. */
static void keystream_advance(uint8_t *iv, size_t ivlen, size_t blocks)
{
	uint8_t *c = iv + (ivlen == 32 ? 24 : 0);
	uint32_t v = (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 | (uint32_t)c[3] << 24;

	v += (uint32_t)blocks;
	for (int i = 0; i < 4; i++)
		c[i] = (uint8_t)(v >> 8 * i);
}

/* Read a chunk, transform it in place, write it: memory stays one chunk whatever the input size. */
static int run_stream(const bc_skcipher *tfm, struct crypt_args *a, enum shape shape, int steals)
{
	size_t bs = bc_skcipher_blocksize(tfm), chunk, got;
	uint64_t total = 0;
	uint8_t *buf;
	int r = chunk_size(&chunk);

	if (r)
		return r;
	if (shape == UNITS)
		chunk = chunk > a->unit ? chunk / a->unit * a->unit : a->unit;
	if (shape == KEYSTREAM)
		chunk = chunk > 64 ? chunk / 64 * 64 : 64;
	if ((r = open_io(a)))
		return r;
	/* A file's length is known: refuse a bad one before writing anything. A pipe's is known at its end. */
	if (cli_input_size(a->in, &total) == 0 && (r = stream_length_fail(a, shape, total, bs, steals)))
		return r;
	total = 0;
	buf = malloc(chunk);
	if (!buf)
		return cli_fail("out of memory");
	cli_pipe_size(a->in, chunk);
	cli_pipe_size(a->out.fd, chunk);
	for (;;) {
		if (cli_read_full(a->in, buf, chunk, &got) < 0) {
			r = read_fail(a);
			break;
		}
		total += got;
		/* Only the last chunk can be short, so only it can have a length the mode refuses. */
		if (got < chunk && (r = stream_length_fail(a, shape, total, bs, steals)))
			break;
		if (got == 0)
			break;
		r = shape == UNITS ? crypt_units(tfm, a, a->iv, buf, got) : skcipher_crypt(tfm, a->decrypt, a->iv, buf, got);
		if (r < 0) {
			r = crypt_fail(a, r);
			break;
		}
		if (shape == KEYSTREAM)
			keystream_advance(a->iv, a->ivlen, got / 64);
		if ((r = cli_out_write(&a->out, buf, got)) || got < chunk)
			break;
	}
	cli_free_secret(buf, chunk);
	return r;
}

/* One message in memory: cts, and xts or essiv without --data-unit-size. */
static int run_whole(const bc_skcipher *tfm, struct crypt_args *a, int xts, int steals, int units)
{
	size_t len, bs = bc_skcipher_blocksize(tfm);
	size_t limit = xts && !a->large_units && a->limit > XTS_UNIT_MAX ? XTS_UNIT_MAX : a->limit;
	uint8_t *buf;
	int r = open_io(a);

	if (r)
		return r;
	r = cli_read_all(a->in, limit, 0, &buf, &len);
	if (r == -2 && limit != a->limit)
		return cli_fail("%s: the input is over 2^20 blocks (16 MiB), IEEE 1619's limit for one data unit: "
		                "give --data-unit-size (512 or 4096, as disk sectors), or --allow-large-units", a->name);
	if (r == -2)
		return cli_fail("%s cannot stream (it is one message, held in memory): the input is over the %zu-byte "
		                "buffer limit; raise it with --buffer-limit%s", a->name, limit,
		                units ? ", or stream with --data-unit-size" : "");
	if (r < 0)
		return read_fail(a);
	if (!(r = length_fail(a, "the input", len, bs, steals))) {
		r = skcipher_crypt(tfm, a->decrypt, a->iv, buf, len);
		r = r < 0 ? crypt_fail(a, r) : cli_out_write(&a->out, buf, len);
	}
	cli_free_secret(buf, len);
	return r;
}

static int run_skcipher(bc_skcipher *tfm, struct crypt_args *a)
{
	const char *drv = bc_skcipher_driver(tfm);
	size_t ivsize = bc_skcipher_ivsize(tfm), bs = bc_skcipher_blocksize(tfm);
	int xts = mode_is(drv, "xts"), steals = xts || mode_is(drv, "cts") || mode_is(drv, "hctr2_base") ||
	                                      mode_is(drv, "adiantum");
	int units = xts || mode_is(drv, "essiv");
	int chained = mode_is(drv, "ecb") || mode_is(drv, "cbc") || mode_is(drv, "ctr");
	int keystream = mode_is(drv, "chacha20") || mode_is(drv, "xchacha20") || mode_is(drv, "xchacha12");

	if (a->have_aad || a->have_taglen)
		return cli_fail("%s: --aad and --tag-len apply only to AEADs", a->name);
	if (ivsize == 0 && a->have_iv)
		return cli_fail("%s takes no IV", a->name);
	if (ivsize && !a->have_iv)
		return cli_fail("%s needs --iv (%zu bytes)", a->name, ivsize);
	if (ivsize && a->ivlen != ivsize)
		return cli_fail("%s: the IV must be %zu bytes, not %zu", a->name, ivsize, a->ivlen);
	if (a->have_unit && !units)
		return cli_fail("%s: --data-unit-size applies to xts and essiv (disk sector modes)%s", a->name,
		                chained || keystream ? "; this mode streams without it" : "");
	if (a->have_unit && (a->unit < bs || (!steals && a->unit % bs)))
		return cli_fail("%s: --data-unit-size must be %s %zu bytes", a->name,
		                steals ? "at least" : "a multiple of", bs);
	if (a->have_unit && xts && a->unit > XTS_UNIT_MAX && !a->large_units)
		return cli_fail("%s: --data-unit-size is over 2^20 blocks (16 MiB), IEEE 1619's limit for one data unit "
		                "(--allow-large-units asks for the kernel's unlimited units)", a->name);
	if (a->have_unit && a->unit > a->limit)
		return cli_fail("%s: --data-unit-size is over the %zu-byte buffer limit (--buffer-limit)", a->name, a->limit);
	bc_skcipher_set_flags(tfm, a->flags);
	if (bc_skcipher_setkey(tfm, a->key, a->keylen) < 0)
		return cli_key_fail(a->name, drv, a->key, a->keylen, try_skcipher_key, tfm);
	if (a->have_unit)
		return run_stream(tfm, a, UNITS, steals);
	if (chained || keystream)
		return run_stream(tfm, a, keystream ? KEYSTREAM : CHAINED, 0);
	return run_whole(tfm, a, xts, steals, units);
}

/* AEADs with no incremental form (rfc4106, authenc...) encrypt the whole input at once. */
static int seal_whole(const bc_aead *tfm, struct crypt_args *a, size_t taglen)
{
	uint8_t *buf;
	size_t len;
	int r = cli_read_all(a->in, a->limit, taglen, &buf, &len);
	if (r == -2)
		return cli_fail("%s encrypts a message whole: the input is over the %zu-byte buffer limit; raise it "
		                "with --buffer-limit", a->name, a->limit);
	if (r < 0)
		return read_fail(a);
	r = bc_aead_encrypt(tfm, a->iv, a->ivlen, a->aad, a->aadlen, buf, buf, len, buf + len);
	r = r < 0 ? crypt_fail(a, r) : cli_out_write(&a->out, buf, len + taglen);
	cli_free_secret(buf, len + taglen);
	return r;
}

/* AEAD encryption streams through the incremental calls: ciphertext as it comes, then the tag. */
static int seal_stream(const bc_aead *tfm, struct crypt_args *a, size_t taglen)
{
	bc_aead_req *req = NULL;
	size_t chunk, got;
	uint8_t *buf;
	int r = chunk_size(&chunk);

	if (r || (r = open_io(a)))
		return r;
	/* Room for the tag after the last chunk, which is shorter than a chunk. */
	buf = malloc(chunk + taglen);
	if (!buf || (r = bc_aead_req_alloc(&req, tfm)) < 0) {
		free(buf);
		if (buf && r == -EINVAL)
			return seal_whole(tfm, a, taglen);   /* no incremental form */
		return cli_fail("out of memory");
	}
	cli_pipe_size(a->in, chunk);
	cli_pipe_size(a->out.fd, chunk);
	r = bc_aead_start(req, 1, a->iv, a->ivlen);
	if (r == 0)
		r = bc_aead_update_ad(req, a->aad, a->aadlen);
	while (r == 0) {
		if (cli_read_full(a->in, buf, chunk, &got) < 0) {
			r = read_fail(a);
			break;
		}
		r = bc_aead_update(req, buf, buf, got);
		if (r == 0 && got < chunk) {
			r = bc_aead_final(req, buf + got);
			r = r < 0 ? r : cli_out_write(&a->out, buf, got + taglen);
			break;
		}
		r = r < 0 ? r : cli_out_write(&a->out, buf, got);
	}
	if (r < 0)
		r = crypt_fail(a, r);
	bc_aead_req_free(req);
	cli_free_secret(buf, chunk + taglen);
	return r;
}

/* ccm has no incremental form: its encryption takes the whole message, as decryption does. */
static int has_stream(const bc_aead *tfm)
{
	bc_aead_req *req = NULL;
	int r = bc_aead_req_alloc(&req, tfm);

	bc_aead_req_free(req);
	return r != -EINVAL;
}

static int run_aead(bc_aead *tfm, struct crypt_args *a)
{
	size_t len, n, taglen = a->have_taglen ? a->taglen : bc_aead_authsize(tfm);
	uint8_t *buf;
	int r;

	if (!a->have_iv || a->ivlen == 0)
		return cli_fail("%s needs --iv (at least 1 byte)", a->name);
	if (a->have_unit)
		return cli_fail("%s: --data-unit-size applies to xts and essiv (disk sector modes)", a->name);
	if (bc_aead_setauthsize(tfm, taglen) < 0)
		return cli_fail("%s: bad tag length %zu (gcm takes 4, 8 or 12 to 16; ccm 4 to 16, even; rfc4106 8, 12 or 16)",
		                a->name, taglen);
	if (bc_aead_setkey(tfm, a->key, a->keylen) < 0)
		return cli_key_fail(a->name, bc_aead_driver(tfm), a->key, a->keylen, try_aead_key, tfm);
	if (!a->decrypt && has_stream(tfm))
		return seal_stream(tfm, a, taglen);
	if ((r = open_io(a)))
		return r;
	/* Decryption holds the whole message: no plaintext leaves before the tag is checked. In place,
	 * the tag after the ciphertext in the same buffer. So does ccm's encryption, which cannot
	 * start before it knows the length; its tag goes into the spare bytes after the text. */
	r = cli_read_all(a->in, a->limit, a->decrypt ? 0 : taglen, &buf, &len);
	if (r == -2 && !a->decrypt)
		return cli_fail("%s cannot stream encryption (its first MAC block encodes the message length): "
		                "the input is over the %zu-byte buffer limit; raise it with --buffer-limit",
		                a->name, a->limit);
	if (r == -2)
		return cli_fail("%s cannot stream decryption (no plaintext may leave before the tag is checked): "
		                "the input is over the %zu-byte buffer limit; raise it with --buffer-limit",
		                a->name, a->limit);
	if (r < 0)
		return read_fail(a);
	if (!a->decrypt) {
		r = bc_aead_encrypt(tfm, a->iv, a->ivlen, a->aad, a->aadlen, buf, buf, len, buf + len);
		r = r < 0 ? crypt_fail(a, r) : cli_out_write(&a->out, buf, len + taglen);
	} else if (len < taglen) {
		r = cli_fail("%s: the input (%zu bytes) is shorter than the %zu-byte tag", a->name, len, taglen);
	} else {
		n = len - taglen;
		r = bc_aead_decrypt(tfm, a->iv, a->ivlen, a->aad, a->aadlen, buf, buf, n, buf + n);
		if (r == -EBADMSG) {
			/* The contract: exit 1, nothing on standard output. */
			fputs("blockcrypt: authentication failed\n", stderr);
			r = EXIT_AUTH;
		} else if (r < 0) {
			r = crypt_fail(a, r);
		} else {
			r = cli_out_write(&a->out, buf, n);
		}
	}
	cli_free_secret(buf, len + (a->decrypt ? 0 : taglen));
	return r;
}

/* Parses the options into a; returns 0, or the exit status of a usage error. */
static int parse_args(int argc, char **argv, struct crypt_args *a)
{
	static const struct option opts[] = {
		CLI_KEY_OPTIONS,
		{ "iv", required_argument, NULL, 'i' },
		{ "aad", required_argument, NULL, 'a' },
		{ "tag-len", required_argument, NULL, 't' },
		{ "allow-weak-keys", no_argument, NULL, 'w' },
		{ "in", required_argument, NULL, CLI_OPT_IN },
		{ "out", required_argument, NULL, CLI_OPT_OUT },
		{ "data-unit-size", required_argument, NULL, 'u' },
		{ "allow-large-units", no_argument, NULL, 'L' },
		{ "buffer-limit", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 }
	};
	int c, r;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case CLI_OPT_KEY:
		case CLI_OPT_KEY_FILE:
		case CLI_OPT_KEY_FD:
			if ((r = cli_key_option(&a->key_opt, a->cmd, c, optarg)))
				return r;
			break;
		case 'i':
			if (a->have_iv++ || cli_hex_decode(optarg, &a->iv, &a->ivlen) < 0)
				return cli_fail("%s: bad or repeated --iv", a->cmd);
			break;
		case 'a':
			if (a->have_aad++ || cli_hex_decode(optarg, &a->aad, &a->aadlen) < 0)
				return cli_fail("%s: bad or repeated --aad", a->cmd);
			break;
		case 't':
			a->have_taglen = 1;
			if (cli_parse_size(optarg, 1024, &a->taglen) < 0)
				return cli_fail("%s: bad --tag-len '%s'", a->cmd, optarg);
			break;
		case 'w':
			a->flags |= BC_ALLOW_WEAK_KEYS;
			break;
		case CLI_OPT_IN:
		case CLI_OPT_OUT:
			if (*(c == CLI_OPT_IN ? &a->in_path : &a->out_path))
				return cli_fail("%s: repeated --%s", a->cmd, c == CLI_OPT_IN ? "in" : "out");
			*(c == CLI_OPT_IN ? &a->in_path : &a->out_path) = optarg;
			break;
		case 'u':
			a->have_unit = 1;
			if (cli_parse_bytes(optarg, SIZE_MAX, &a->unit) < 0)
				return cli_fail("%s: bad --data-unit-size '%s' (bytes, e.g. 512 or 4096)", a->cmd, optarg);
			break;
		case 'L':
			a->large_units = 1;
			break;
		case 'b':
			if (cli_parse_bytes(optarg, SIZE_MAX / 2, &a->limit) < 0 || a->limit == 0)
				return cli_fail("%s: bad --buffer-limit '%s' (bytes, with K, M or G)", a->cmd, optarg);
			break;
		default:
			return cli_fail("%s: unknown or incomplete option '%s' (see blockcrypt help %s)",
			                a->cmd, argv[optind - 1], a->cmd);
		}
	}
	if (optind != argc - 1)
		return cli_fail("usage: blockcrypt %s NAME --key HEX|--key-file FILE|--key-fd N [--iv HEX] [OPTIONS] "
		                "(see blockcrypt help %s)", a->cmd, a->cmd);
	a->name = argv[optind];
	return cli_key_load(&a->key_opt, a->cmd, !a->in_path || !strcmp(a->in_path, "-"), &a->key, &a->keylen);
}

int cmd_crypt(int argc, char **argv, int decrypt)
{
	struct crypt_args a = {
		.cmd = argv[0], .decrypt = decrypt, .limit = BUFFER_LIMIT_DEFAULT, .in = STDIN_FILENO,
		.out = { .fd = STDOUT_FILENO },
	};
	bc_skcipher *sk = NULL;
	bc_aead *ae = NULL;
	int r = parse_args(argc, argv, &a);

	if (r)
		goto out;
	r = bc_skcipher_alloc(&sk, a.name);
	if (r == -ENOENT)
		r = bc_aead_alloc(&ae, a.name);
	if (r == -ENOENT)
		r = cli_fail("unknown skcipher or AEAD '%s' (see blockcrypt list)", a.name);
	else if (r < 0)
		r = cli_fail("%s: %s", a.name, strerror(-r));
	else
		r = sk ? run_skcipher(sk, &a) : run_aead(ae, &a);
	r = cli_out_close(&a.out, r);
	if (a.in != STDIN_FILENO)
		close(a.in);
	if (sk)
		bc_skcipher_free(sk);
	if (ae)
		bc_aead_free(ae);
out:
	cli_free_secret(a.key, a.keylen);
	free(a.iv);
	free(a.aad);
	return r;
}
