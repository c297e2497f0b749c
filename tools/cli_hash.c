/* blockcrypt tool: `mac` and `hash`, the digest of stdin streamed through update().
 * Algorithms per the library (cmac SP 800-38B, xcbc RFC 3566, ghash SP 800-38D, sha256 FIPS 180-4, sm3 GB/T 32905). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blockcrypt.h"
#include "cli.h"

#define CHUNK 65536

static int digest_stdin(bc_shash *tfm, const char *name, int hex)
{
	uint8_t out[64];
	uint8_t *buf = malloc(CHUNK);
	size_t got;
	int r;

	if (!buf)
		return cli_fail("out of memory");
	/* A hash asked for as a MAC, or the reverse, fails here: init refuses a keyed tfm with no key. */
	r = bc_shash_init(tfm);
	while (r == 0 && (got = fread(buf, 1, CHUNK, stdin)) > 0)
		r = bc_shash_update(tfm, buf, got);
	if (r == 0 && ferror(stdin))
		r = cli_fail("cannot read stdin");
	else if (r == -ENOKEY)
		r = cli_fail("%s is keyed: use blockcrypt mac %s --key HEX", name, name);
	else if (r < 0)
		r = cli_fail("%s: %s", name, strerror(-r));
	else if (bc_shash_digestsize(tfm) > sizeof(out) || bc_shash_final(tfm, out) < 0)
		r = cli_fail("%s: cannot finish the digest", name);
	else if (hex)
		cli_print_hex(out, bc_shash_digestsize(tfm));
	else if (cli_write_stdout(out, bc_shash_digestsize(tfm)) < 0)
		r = cli_fail("cannot write stdout");
	explicit_bzero(buf, CHUNK);
	free(buf);
	return r;
}

int cmd_mac(int argc, char **argv, int keyed)
{
	static const struct option opts[] = {
		{ "key", required_argument, NULL, 'k' },
		{ "hex", no_argument, NULL, 'x' },
		{ NULL, 0, NULL, 0 }
	};
	const char *keyhex = NULL, *name;
	uint8_t *key = NULL;
	size_t keylen = 0;
	bc_shash *tfm = NULL;
	int c, hex = 0, r;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'k' && keyed)
			keyhex = optarg;
		else if (c == 'x')
			hex = 1;
		else
			return cli_fail("%s: unknown or incomplete option '%s' (see blockcrypt --help)",
			                argv[0], argv[optind - 1]);
	}
	if (optind != argc - 1)
		return cli_fail(keyed ? "usage: blockcrypt mac NAME --key HEX [--hex]" : "usage: blockcrypt hash NAME [--hex]");
	name = argv[optind];
	if (keyed && !keyhex)
		return cli_fail("mac: --key is required");
	if (keyed && (!*keyhex || cli_hex_decode(keyhex, &key, &keylen) < 0))
		return cli_fail("mac: bad key: it must be a non-empty, even-length hex string");
	r = bc_shash_alloc(&tfm, name);
	if (r == -ENOENT)
		r = cli_fail("unknown %s '%s' (see blockcrypt list)", keyed ? "MAC" : "hash", name);
	else if (r < 0)
		r = cli_fail("%s: %s", name, strerror(-r));
	else if (keyed && bc_shash_setkey(tfm, key, keylen) < 0)
		r = cli_fail("%s: bad key (%zu bytes)", name, keylen);
	else
		r = digest_stdin(tfm, name, hex);
	if (tfm)
		bc_shash_free(tfm);
	if (key) {
		explicit_bzero(key, keylen);
		free(key);
	}
	return r;
}
