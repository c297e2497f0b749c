/* blockcrypt tool: the command line (usage and dispatch to the subcommands).
 * Algorithm names and semantics are the Linux kernel crypto API's; see include/blockcrypt.h. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
	"usage: blockcrypt COMMAND [ARGS]\n"
	"\n"
	"  list                          every driver usable on this CPU, /proc/crypto style\n"
	"  selftest                      run every driver's known-answer tests (exit 1 if any fails)\n"
	"  encrypt NAME --key HEX [--iv HEX] [--aad HEX] [--tag-len N] [--allow-weak-keys]\n"
	"  decrypt NAME --key HEX [--iv HEX] [--aad HEX] [--tag-len N] [--allow-weak-keys]\n"
	"                                stdin to stdout, raw bytes; NAME is a skcipher or AEAD\n"
	"                                algorithm (xts(aes)) or driver name; --iv is required but\n"
	"                                for ecb; an AEAD writes (and reads) ciphertext || tag\n"
	"  mac NAME --key HEX [--hex]    MAC of stdin: cmac(aes), xcbc(sm4), cbcmac(aes), ghash, ...\n"
	"  hash NAME [--hex]             digest of stdin: sha256, sm3\n"
	"  speed [NAME...] [--sizes 16,64,...] [--time S] [--key-bits N] [--decrypt]\n"
	"        [--csv|--json] [--threads N]\n"
	"                                throughput in the Linux tcrypt format, plus cycles/byte\n"
	"  benchmark [--time S]          the `cryptsetup benchmark` table (S: seconds per figure, 0.3)\n"
	"  luks ACTION IMAGE ...         LUKS1/LUKS2 images: format, encrypt, decrypt, read, dump, add-key...\n"
	"  plain encrypt|decrypt IN OUT  dm-crypt plain mode (`blockcrypt luks --help`, `plain --help`)\n"
	"\n"
	"Exit status: 0 success, 1 authentication failed (nothing written), 2 bad usage or input.\n"
	"BLOCKCRYPT_DISABLE=name,... (or all) turns CPU features off, e.g. BLOCKCRYPT_DISABLE=vaes.\n";

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		fputs(usage, stdout);
		return 0;
	}
	argc--;
	argv++;
	if (!strcmp(cmd, "list"))
		return cmd_list(argc, argv);
	if (!strcmp(cmd, "selftest"))
		return cmd_selftest(argc, argv);
	if (!strcmp(cmd, "encrypt") || !strcmp(cmd, "decrypt"))
		return cmd_crypt(argc, argv, cmd[0] == 'd');
	if (!strcmp(cmd, "mac") || !strcmp(cmd, "hash"))
		return cmd_mac(argc, argv, cmd[0] == 'm');
	if (!strcmp(cmd, "speed"))
		return cmd_speed(argc, argv);
	if (!strcmp(cmd, "benchmark"))
		return cmd_benchmark(argc, argv);
	if (!strcmp(cmd, "luks") || !strcmp(cmd, "plain"))
		return cmd[0] == 'l' ? cmd_luks(argc, argv) : cmd_plain(argc, argv);
	fputs(usage, stderr);
	return EXIT_USAGE;
}
