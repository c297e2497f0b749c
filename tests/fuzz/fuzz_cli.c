/* libFuzzer harness: the blockcrypt tool's argument parsing (hex keys, options, lengths) of every subcommand,
 * run in-process on the tool's own objects; its contract is the exit statuses 0, 1 and 2 of blockcrypt(1). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "speed.h"

#define MAX_ARGS 16

static const char *const commands[] = { "encrypt", "decrypt", "mac", "hash", "list", "selftest", "speed",
					"benchmark", "luks", "plain" };

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

/* What speed's parser accepts is what its timed runs can take. */
static int check_speed(int argc, char **argv)
{
	struct speed_opts o = { 0 };
	int nargs = 0, r;

	for (int i = 1; i < argc; i++)
		check_size(argv[i]);
	r = speed_parse_args(argc, argv, &o);
	if (r)
		return r;
	for (int i = 1; i < argc; i++)
		nargs += argv[i][0] != '-' || !argv[i][1];
	if (o.nsizes < 1 || o.nsizes > SPEED_MAX_SIZES || o.threads < 1 || o.threads > SPEED_MAX_THREADS ||
	    !(o.seconds > 0 && o.seconds <= 3600) || o.keybits % 8 || o.keybits > 512 || o.nnames > (unsigned)nargs)
		abort();
	for (unsigned i = 0; i < o.nsizes; i++)
		if (o.sizes[i] < 1 || o.sizes[i] > SPEED_MAX_SIZE)
			abort();
	return 0;
}

/* selftest, speed, benchmark, luks and plain spend seconds per run (the million-step SM4 vector, timed
 * measurements, PBKDFs) or touch files: selftest runs only when its arguments are refused, the others
 * through the parsers their commands run before anything else (exit status 0 when a run would start). */
static int run(size_t cmd, int argc, char **argv)
{
	double sec;
	unsigned argon2_ms;
	int r;

	switch (cmd) {
	case 0:
	case 1: return cmd_crypt(argc, argv, cmd == 1);
	case 2:
	case 3: return cmd_mac(argc, argv, cmd == 2);
	case 4: return cmd_list(argc, argv);
	case 5: return argc != 1 ? cmd_selftest(argc, argv) : 0;
	case 6: return check_speed(argc, argv);
	case 7:
		r = benchmark_parse_args(argc, argv, &sec, &argon2_ms);
		if (r == 0 && !(sec > 0 && sec <= 3600 && argon2_ms >= 1 && argon2_ms <= 3600000))
			abort();
		return r;
	default: return cli_luks_parse_args(argc, argv, cmd == 9);
	}
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
