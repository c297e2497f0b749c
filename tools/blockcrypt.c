/* blockcrypt tool: the command line (usage, each command's help, --version, dispatch to the subcommands).
 * Algorithm names and semantics are the Linux kernel crypto API's; see include/blockcrypt.h and blockcrypt(1). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
	"usage: blockcrypt COMMAND [ARGS]\n"
	"\n"
	"  list [NAME]                   drivers on this CPU, /proc/crypto style (NAME: only those)\n"
	"  selftest                      run every driver's known-answer tests (exit 1 if any fails)\n"
	"  encrypt NAME KEY [--iv HEX] [OPTIONS]\n"
	"  decrypt NAME KEY [--iv HEX] [OPTIONS]\n"
	"                                skcipher or AEAD, raw bytes from standard input (or --in FILE)\n"
	"                                to standard output (or --out FILE); KEY is --key HEX,\n"
	"                                --key-file FILE or --key-fd N\n"
	"  mac NAME KEY [--hex] [FILE]   MAC: cmac(aes), xcbc(sm4), cbcmac(aes), ghash, ...\n"
	"  hash NAME [--hex] [FILE]      digest: sha256, sha512, sha1, sm3, ...\n"
	"  speed [NAME...] [OPTIONS]     throughput in the Linux tcrypt format, plus cycles/byte\n"
	"  benchmark [--time S] [--iter-time MS]  the `cryptsetup benchmark` rows\n"
	"  luks ACTION IMAGE ...         LUKS1/LUKS2 disk images: format, encrypt, decrypt, read, dump,\n"
	"                                test-passphrase, add-key, change-key, remove-key, kill-slot, uuid,\n"
	"                                header-backup, header-restore, erase, convert, resize,\n"
	"                                serve (the plaintext over NBD)\n"
	"  plain encrypt|decrypt IN OUT  dm-crypt plain mode (no header); plain serve IMAGE: over NBD\n"
	"  run [--always] -- COMMAND ... COMMAND with AF_ALG sockets served by blockcrypt (libkcapi, kcapi-*)\n"
	"  fscrypt identifier|contents|name KEY [OPTIONS]\n"
	"                                fscrypt: a master key's identifier, a file's contents or a\n"
	"                                name decrypted (--encrypt: encrypted), in hex\n"
	"  help [COMMAND]                this text, or a command's options (also: COMMAND --help)\n"
	"  --version                     the version\n"
	"\n"
	"Exit status: 0 success, 1 authentication failed (nothing written), 2 bad usage or input.\n"
	"BLOCKCRYPT_DISABLE=name,... (or all) turns CPU features off, e.g. BLOCKCRYPT_DISABLE=vaes.\n"
	"See blockcrypt(1).\n";

static const char help_crypt[] =
	"usage: blockcrypt %s NAME KEY [--iv HEX] [OPTIONS]\n"
	"\n"
	"%ss raw bytes from standard input to standard output. NAME is a skcipher or AEAD\n"
	"algorithm (cbc(aes), xts(sm4), gcm(aes)) or a driver name (see blockcrypt list).\n"
	"\n"
	"  --key HEX              the key in hex (visible to ps: prefer --key-file or --key-fd)\n"
	"  --key-file FILE        the key as raw bytes, the whole file ('-': standard input, only with --in)\n"
	"  --key-fd N             the key as raw bytes, read from file descriptor N to its end\n"
	"  --iv HEX               the IV: required but for ecb (16 bytes; an AEAD takes any length, 12 best)\n"
	"  --in FILE              read FILE instead of standard input\n"
	"  --out FILE             write FILE, through a temporary file renamed on success: a failed\n"
	"                         run leaves no partial FILE\n"
	"  --aad HEX              AEAD: associated data\n"
	"  --tag-len N            AEAD: tag bytes (gcm: 4, 8, 12 to 16; default 16)\n"
	"  --allow-weak-keys      accept xts keys whose two halves are equal (legacy data)\n"
	"  --data-unit-size N     xts, essiv: encrypt each N-byte unit on its own, the IV of unit i\n"
	"                         being IV + i (128-bit little-endian, dm-crypt plain64), e.g. 512 or 4096\n"
	"  --allow-large-units    xts: allow a data unit over 2^20 blocks (16 MiB), as the kernel does\n"
	"  --buffer-limit SIZE    the most a mode that cannot stream holds in memory (default 1G;\n"
	"                         K, M, G suffixes)\n"
	"\n"
	"Streaming: ecb, cbc and ctr stream in 1 MiB chunks, the IV carried from chunk to chunk;\n"
	"xts and essiv stream with --data-unit-size (without it the input is one data unit; for xts\n"
	"at most 16 MiB unless --allow-large-units); AEAD encryption streams. cts and AEAD decryption\n"
	"cannot stream (cts is one message; no plaintext may leave before the tag is checked): their\n"
	"input is read whole, up to the buffer limit. An AEAD writes (and reads) ciphertext || tag.\n"
	"\n"
	"Exit status: 0 success; 1 authentication failed (\"authentication failed\" on standard\n"
	"error, nothing written); 2 bad usage or input.\n";

static const char help_mac[] =
	"usage: blockcrypt mac NAME KEY [--hex] [--in FILE | FILE] [--out FILE]\n"
	"\n"
	"The MAC of FILE or of standard input, streamed: cmac(aes), xcbc(sm4), cbcmac(aes), ghash, ...\n"
	"KEY is --key HEX, --key-file FILE (raw bytes) or --key-fd N (raw bytes from descriptor N);\n"
	"the key may come from standard input ('--key-file -', '--key-fd 0') only when the data does not.\n"
	"Raw bytes are written, or with --hex lowercase hex and a newline; --out FILE writes FILE\n"
	"(renamed into place on success).\n"
	"Exit status: 0 success, 2 bad usage or input.\n";

static const char help_hash[] =
	"usage: blockcrypt hash NAME [--hex] [--in FILE | FILE] [--out FILE]\n"
	"\n"
	"The digest of FILE or of standard input, streamed: sha1, sha224, sha256, sha384, sha512, sm3,\n"
	"md5 (legacy).\n"
	"Raw bytes are written, or with --hex lowercase hex and a newline; --out FILE writes FILE\n"
	"(renamed into place on success).\n"
	"Exit status: 0 success, 2 bad usage or input.\n";

static const char help_list[] =
	"usage: blockcrypt list [NAME]\n"
	"\n"
	"Every driver usable on this CPU after BLOCKCRYPT_DISABLE, in /proc/crypto style (name, driver,\n"
	"priority, selftest, type, blocksize, keysizes, ivsize, ...), blocks separated by a blank line.\n"
	"NAME shows only the drivers of that algorithm (xts(aes)) or that driver (xts-aes-aesni).\n"
	"Exit status: 0 success, 2 no such algorithm or driver.\n";

static const char help_selftest[] =
	"usage: blockcrypt selftest\n"
	"\n"
	"Runs every driver's known-answer tests, the long ones included, and prints\n"
	"\"passed  NAME  DRIVER\" or \"FAILED  NAME  DRIVER  (reason)\" for each; the CPU features in\n"
	"use go to standard error. Exit status: 0 all passed, 1 a test failed.\n";

static const char help_speed[] =
	"usage: blockcrypt speed [NAME...] [--sizes 16,64,...] [--time S] [--key-bits N] [--decrypt]\n"
	"                        [--csv|--json] [--threads N]\n"
	"\n"
	"Throughput of algorithms (every one when no NAME is given) or drivers, in the Linux tcrypt\n"
	"output format plus cycles/byte.\n"
	"  --sizes LIST     buffer sizes in bytes (default: tcrypt's 16 64 256 512 1024 1420 2048 4096 8192)\n"
	"  --time S         seconds per line (default 1)\n"
	"  --key-bits N     whole-key bits (xts(aes) 256 is AES-128-XTS); default every usual size\n"
	"  --decrypt        measure decryption (AEADs check real tags)\n"
	"  --csv, --json    name,driver,keybits,op,size,ops_per_s,bytes_per_s,cycles_per_byte\n"
	"  --threads N      N threads, each with its own buffer; the total is reported\n"
	"Exit status: 0 success, 2 bad usage.\n";

static const char help_benchmark[] =
	"usage: blockcrypt benchmark [--time S] [--iter-time MS]\n"
	"\n"
	"What `cryptsetup benchmark` prints: PBKDF2 iterations per second for a 256-bit key, the Argon2\n"
	"costs of an MS-millisecond unlock (default 2000), then the cipher table: 4096-byte sectors with\n"
	"a fresh IV each, whole-key bits (aes-xts 512b is AES-256-XTS), S seconds per figure (default 0.3).\n"
	"Exit status: 0 success, 2 bad usage.\n";

static const char help_help[] =
	"usage: blockcrypt help [COMMAND]\n"
	"\n"
	"The list of commands, or one command's usage and options (the same as COMMAND --help).\n";

struct command {
	const char *name;
	const char *help;
	int (*run)(int argc, char **argv);
};

static int run_encrypt(int argc, char **argv)
{
	return cmd_crypt(argc, argv, 0);
}

static int run_decrypt(int argc, char **argv)
{
	return cmd_crypt(argc, argv, 1);
}

static int run_mac(int argc, char **argv)
{
	return cmd_mac(argc, argv, 1);
}

static int run_hash(int argc, char **argv)
{
	return cmd_mac(argc, argv, 0);
}

static const struct command commands[] = {
	{ "list", help_list, cmd_list },
	{ "selftest", help_selftest, cmd_selftest },
	{ "encrypt", help_crypt, run_encrypt },
	{ "decrypt", help_crypt, run_decrypt },
	{ "mac", help_mac, run_mac },
	{ "hash", help_hash, run_hash },
	{ "speed", help_speed, cmd_speed },
	{ "benchmark", help_benchmark, cmd_benchmark },
	{ "luks", cli_luks_help, cmd_luks },
	{ "plain", cli_plain_help, cmd_plain },
	{ "run", cli_run_help, cmd_run },
	{ "fscrypt", cli_fscrypt_help, cmd_fscrypt },
	{ "help", help_help, NULL },
};

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int show_help(const struct command *c)
{
	if (c->help == help_crypt)
		printf(help_crypt, c->name, c->name[0] == 'e' ? "Encrypt" : "Decrypt");
	else
		fputs(c->help, stdout);
	return fflush(stdout) ? EXIT_USAGE : 0;
}

static int unknown(const char *name)
{
	return cli_fail("unknown command '%s' (see blockcrypt --help)", name);
}

int main(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		fputs(usage, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || (!strcmp(argv[1], "help") && argc == 2)) {
		fputs(usage, stdout);
		return fflush(stdout) ? EXIT_USAGE : 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("blockcrypt %s\n", BLOCKCRYPT_VERSION_STRING);
		return fflush(stdout) ? EXIT_USAGE : 0;
	}
	if (!strcmp(argv[1], "help")) {
		if (argc > 3)
			return cli_fail("usage: blockcrypt help [COMMAND]");
		c = find_command(strcmp(argv[2], "--help") && strcmp(argv[2], "-h") ? argv[2] : "help");
		return c ? show_help(c) : unknown(argv[2]);
	}
	c = find_command(argv[1]);
	if (!c)
		return unknown(argv[1]);
	/* COMMAND --help anywhere before a "--", as git and most tools take it (and -h, except where it is
	 * cryptsetup's --hash: luks and plain take cryptsetup's options) */
	for (int i = 2; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || (!strcmp(argv[i], "-h") && c->run != cmd_luks && c->run != cmd_plain))
			return show_help(c);
	return c->run(argc - 1, argv + 1);
}
