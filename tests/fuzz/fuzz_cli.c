/* libFuzzer harness: the blockcrypt tool's argument parsing (hex keys, options, lengths) of every subcommand,
 * run in-process on the tool's own objects; the contract is the foundation issue's exit statuses 0, 1 and 2. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_ARGS 16

static const char *const commands[] = { "encrypt", "decrypt", "mac", "hash", "list", "selftest", "speed",
					"benchmark" };

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* The commands' results go nowhere; their messages on stderr are silenced by the
	 * runners' -close_fd_mask=2 (tests/fuzz/check.sh, make fuzz), which keeps libFuzzer's own. */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	return 0;
}

/* cli_parse_size must agree with strtoull on plain decimal strings and refuse everything else. */
static void check_size(const char *s)
{
	size_t v = 0, max = (size_t)64 << 20;
	int digits = *s && strspn(s, "0123456789") == strlen(s);
	unsigned long long want = digits ? strtoull(s, NULL, 10) : 0;
	int ok = digits && want <= max;   /* an overflow gives ULLONG_MAX, above max */

	if ((cli_parse_size(s, max, &v) == 0) != ok || (ok && v != want))
		abort();
}

/* selftest, speed and benchmark spend seconds per run (the million-step SM4 vector, timed
 * measurements): selftest runs only when its arguments are refused, and for speed and
 * benchmark every argument goes through the shared parsers behind their options. */
static int run(size_t cmd, int argc, char **argv)
{
	if (cmd <= 1)
		return cmd_crypt(argc, argv, cmd == 1);
	if (cmd <= 3)
		return cmd_mac(argc, argv, cmd == 2);
	if (cmd == 4)
		return cmd_list(argc, argv);
	if (cmd == 5)
		return argc != 1 ? cmd_selftest(argc, argv) : 0;
	for (int i = 1; i < argc; i++) {
		double sec;

		check_size(argv[i]);
		if (cli_parse_seconds(argv[i], &sec) == 0 && !(sec > 0 && sec <= 3600))
			abort();
	}
	return 0;
}

/* Input: a command byte, then arguments separated by NUL bytes; a double NUL ends them and the rest is stdin. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy, *argv[MAX_ARGS + 2];
	const char *end;
	size_t alen, cmd;
	int argc = 1, r;
	FILE *in;

	if (size == 0)
		return 0;
	cmd = data[0] % (sizeof(commands) / sizeof(commands[0]));
	data++;
	size--;
	end = memmem(data, size, "\0\0", 2);
	alen = end ? (size_t)(end - (const char *)data) : size;
	copy = malloc(alen + 1);
	memcpy(copy, data, alen);
	copy[alen] = 0;
	argv[0] = (char *)commands[cmd];
	for (char *s = copy; s < copy + alen + 1 && argc < MAX_ARGS + 1; s += strlen(s) + 1)
		argv[argc++] = s;
	if (alen == 0)
		argc = 1;
	argv[argc] = NULL;
	in = end && size > alen + 2 ? fmemopen((void *)(end + 2), size - alen - 2, "r") : fopen("/dev/null", "r");
	if (!in)
		abort();
	FILE *saved = stdin;
	stdin = in;
	optind = 0;   /* glibc: a full reset of getopt_long between commands */
	r = run(cmd, argc, argv);
	stdin = saved;
	fclose(in);
	free(copy);
	if (r < 0 || r > 2)
		abort();   /* exit statuses are 0, 1 (authentication) and 2 (usage) only */
	return 0;
}
