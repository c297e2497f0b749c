/* blockcrypt tool: `encrypt` and `decrypt` for skciphers and AEADs, stdin to stdout.
 * Semantics are the library's (Linux crypto API); AEAD output is ciphertext || tag as in SP 800-38D. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blockcrypt.h"
#include "cli.h"

struct crypt_args {
	const char *cmd, *name;
	uint8_t *key, *iv, *aad;
	size_t keylen, ivlen, aadlen, taglen;
	int have_iv, have_aad, have_taglen, decrypt;
	unsigned flags;
};

/* Frees what it was given; the key and any plaintext are wiped first. */
static void free_secret(uint8_t *p, size_t len)
{
	if (p) {
		explicit_bzero(p, len);
		free(p);
	}
}

static int run_skcipher(bc_skcipher *tfm, const struct crypt_args *a)
{
	size_t ivsize = bc_skcipher_ivsize(tfm), len;
	uint8_t *buf;
	int r;

	if (a->have_aad || a->have_taglen)
		return cli_fail("%s: --aad and --tag-len apply only to AEADs", a->name);
	if (ivsize == 0 && a->have_iv)
		return cli_fail("%s takes no IV", a->name);
	if (ivsize && !a->have_iv)
		return cli_fail("%s needs --iv (%zu bytes)", a->name, ivsize);
	if (ivsize && a->ivlen != ivsize)
		return cli_fail("%s: the IV must be %zu bytes, not %zu", a->name, ivsize, a->ivlen);
	bc_skcipher_set_flags(tfm, a->flags);
	if (bc_skcipher_setkey(tfm, a->key, a->keylen) < 0)
		return cli_fail("%s: bad key (%zu bytes)", a->name, a->keylen);
	if (cli_read_stdin(&buf, &len) < 0)
		return cli_fail("cannot read stdin");
	if (a->decrypt)
		r = bc_skcipher_decrypt(tfm, a->iv, buf, buf, len);
	else
		r = bc_skcipher_encrypt(tfm, a->iv, buf, buf, len);
	if (r < 0)
		r = cli_fail("%s: cannot %s %zu bytes (%s)", a->name, a->cmd, len,
		             r == -EINVAL ? "bad length" : strerror(-r));
	else if (cli_write_stdout(buf, len) < 0)
		r = cli_fail("cannot write stdout");
	free_secret(buf, len);
	return r;
}

static int run_aead(bc_aead *tfm, const struct crypt_args *a)
{
	size_t inlen, outlen = 0, taglen = a->have_taglen ? a->taglen : 16;
	uint8_t *in, *out = NULL;
	int r;

	if (!a->have_iv || a->ivlen == 0)
		return cli_fail("%s needs --iv (at least 1 byte)", a->name);
	if (bc_aead_setauthsize(tfm, taglen) < 0)
		return cli_fail("%s: bad tag length %zu", a->name, taglen);
	if (bc_aead_setkey(tfm, a->key, a->keylen) < 0)
		return cli_fail("%s: bad key (%zu bytes)", a->name, a->keylen);
	if (cli_read_stdin(&in, &inlen) < 0)
		return cli_fail("cannot read stdin");
	if (a->decrypt && inlen < taglen) {
		r = cli_fail("%s: input (%zu bytes) is shorter than the %zu-byte tag", a->name, inlen, taglen);
		goto out;
	}
	outlen = a->decrypt ? inlen - taglen : inlen + taglen;
	out = malloc(outlen + 1);
	if (!out) {
		r = cli_fail("out of memory");
		goto out;
	}
	if (a->decrypt)
		r = bc_aead_decrypt(tfm, a->iv, a->ivlen, a->aad, a->aadlen, in, out, outlen, in + outlen);
	else
		r = bc_aead_encrypt(tfm, a->iv, a->ivlen, a->aad, a->aadlen, in, out, inlen, out + inlen);
	if (r == -EBADMSG) {
		/* The contract: exit 1 and no output at all; the status alone says it. */
		r = EXIT_AUTH;
	} else if (r < 0) {
		r = cli_fail("%s: cannot %s (%s)", a->name, a->cmd, strerror(-r));
	} else if (cli_write_stdout(out, outlen) < 0) {
		r = cli_fail("cannot write stdout");
	}
out:
	free_secret(in, inlen);
	free_secret(out, outlen);
	return r;
}

/* Parses the options into a; returns 0, or the exit status of a usage error. */
static int parse_args(int argc, char **argv, struct crypt_args *a)
{
	static const struct option opts[] = {
		{ "key", required_argument, NULL, 'k' },
		{ "iv", required_argument, NULL, 'i' },
		{ "aad", required_argument, NULL, 'a' },
		{ "tag-len", required_argument, NULL, 't' },
		{ "allow-weak-keys", no_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 }
	};
	const char *key = NULL;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			key = optarg;
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
		default:
			return cli_fail("%s: unknown or incomplete option '%s' (see blockcrypt --help)",
			                a->cmd, argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cli_fail("usage: blockcrypt %s NAME --key HEX [--iv HEX] [--aad HEX] [--tag-len N] [--allow-weak-keys]",
		                a->cmd);
	a->name = argv[optind];
	if (!key)
		return cli_fail("%s: --key is required", a->cmd);
	if (!*key || cli_hex_decode(key, &a->key, &a->keylen) < 0)
		return cli_fail("%s: bad key: it must be a non-empty, even-length hex string", a->cmd);
	return 0;
}

int cmd_crypt(int argc, char **argv, int decrypt)
{
	struct crypt_args a = { .cmd = argv[0], .decrypt = decrypt };
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
	if (sk)
		bc_skcipher_free(sk);
	if (ae)
		bc_aead_free(ae);
out:
	free_secret(a.key, a.keylen);
	free(a.iv);
	free(a.aad);
	return r;
}
