/* blockcrypt tool: `mac` and `hash`, the digest of a file or of standard input streamed through update().
 * Algorithms per the library (cmac SP 800-38B, xcbc RFC 3566, ghash SP 800-38D, sha1/sha2 FIPS 180-4, sm3 GB/T 32905,
 * md5 RFC 1321). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blockcrypt.h"
#include "cli.h"

#define CHUNK ((size_t)1 << 20)

static int try_shash_key(void *tfm, const uint8_t *key, size_t len)
{
	return bc_shash_setkey(tfm, key, len);
}

static int digest_fd(bc_shash *tfm, const char *name, int in, const char *in_path, int hex, const char *out_path)
{
	uint8_t out[64];
	uint8_t *buf = malloc(CHUNK);
	size_t got = CHUNK, ds = bc_shash_digestsize(tfm);
	struct cli_out o;
	int r;

	if (!buf)
		return cli_fail("out of memory");
	/* A hash asked for as a MAC, or the reverse, fails here: init refuses a keyed tfm with no key. */
	r = bc_shash_init(tfm);
	while (r == 0 && got == CHUNK) {
		if (cli_read_full(in, buf, CHUNK, &got) < 0)
			r = cli_fail("cannot read %s: %s", cli_in_name(in_path), strerror(errno));
		else
			r = bc_shash_update(tfm, buf, got);
	}
	if (r == -ENOKEY)
		r = cli_fail("%s is keyed: use blockcrypt mac %s --key HEX", name, name);
	else if (r < 0)
		r = cli_fail("%s: %s", name, strerror(-r));
	else if (r == 0 && (ds > sizeof(out) || bc_shash_final(tfm, out) < 0))
		r = cli_fail("%s: cannot finish the digest", name);
	if (r == 0 && !(r = cli_out_open(&o, out_path))) {
		static const char digits[] = "0123456789abcdef";
		char line[2 * sizeof(out) + 1];

		for (size_t i = 0; i < ds; i++) {
			line[2 * i] = digits[out[i] >> 4];
			line[2 * i + 1] = digits[out[i] & 15];
		}
		line[2 * ds] = '\n';
		r = cli_out_close(&o, hex ? cli_out_write(&o, (const uint8_t *)line, 2 * ds + 1) : cli_out_write(&o, out, ds));
	}
	explicit_bzero(buf, CHUNK);
	free(buf);
	return r;
}

int cmd_mac(int argc, char **argv, int keyed)
{
	static const struct option opts[] = {
		CLI_KEY_OPTIONS,
		{ "hex", no_argument, NULL, 'x' },
		{ "in", required_argument, NULL, CLI_OPT_IN },
		{ "out", required_argument, NULL, CLI_OPT_OUT },
		{ NULL, 0, NULL, 0 }
	};
	const char *name, *in_path = NULL, *out_path = NULL;
	struct cli_key key_opt = { 0 };
	struct bc_driver_info info;
	uint8_t *key = NULL;
	size_t keylen = 0;
	bc_shash *tfm = NULL;
	int c, hex = 0, in = STDIN_FILENO, r;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (keyed && (c == CLI_OPT_KEY || c == CLI_OPT_KEY_FILE || c == CLI_OPT_KEY_FD)) {
			if ((r = cli_key_option(&key_opt, argv[0], c, optarg)))
				return r;
		} else if (c == 'x') {
			hex = 1;
		} else if ((c == CLI_OPT_IN && !in_path) || (c == CLI_OPT_OUT && !out_path)) {
			*(c == CLI_OPT_IN ? &in_path : &out_path) = optarg;
		} else {
			return cli_fail("%s: unknown, repeated or incomplete option '%s' (see blockcrypt help %s)",
			                argv[0], argv[optind - 1], argv[0]);
		}
	}
	/* NAME [FILE], as sha256sum takes a file; FILE and --in are the same thing. */
	if (optind == argc - 2 && !in_path)
		in_path = argv[argc - 1];
	else if (optind != argc - 1)
		return cli_fail(keyed ? "usage: blockcrypt mac NAME --key HEX|--key-file FILE|--key-fd N [--hex] [FILE]"
		                      : "usage: blockcrypt hash NAME [--hex] [FILE]");
	name = argv[optind];
	r = bc_shash_alloc(&tfm, name);
	if (r == -ENOENT)
		return cli_fail("unknown %s '%s' (see blockcrypt list)", keyed ? "MAC" : "hash", name);
	if (r < 0)
		return cli_fail("%s: %s", name, strerror(-r));
	if (keyed && cli_find_driver(bc_shash_driver(tfm), name, &info) == 0 && info.max_keysize == 0)
		r = cli_fail("%s is a hash and takes no key: use blockcrypt hash %s", name, name);
	else if (keyed)
		r = cli_key_load(&key_opt, "mac", !in_path || !strcmp(in_path, "-"), &key, &keylen);
	if (r == 0 && keyed && bc_shash_setkey(tfm, key, keylen) < 0)
		r = cli_key_fail(name, bc_shash_driver(tfm), key, keylen, try_shash_key, tfm);
	if (r == 0 && !(r = cli_open_in(in_path, &in)))
		r = digest_fd(tfm, name, in, in_path, hex, out_path);
	if (in != STDIN_FILENO)
		close(in);
	bc_shash_free(tfm);
	cli_free_secret(key, keylen);
	return r;
}
