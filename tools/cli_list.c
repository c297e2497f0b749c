/* blockcrypt tool: `list` (drivers in Linux /proc/crypto style) and `selftest` (every known-answer test).
 * Field names and order follow the kernel's crypto/proc.c and the algorithm types' show() functions. */
#include <stdio.h>
#include <string.h>

#include "blockcrypt.h"
#include "cli.h"

static const char *type_name(enum bc_type t)
{
	switch (t) {
	case BC_TYPE_CIPHER:
		return "cipher";
	case BC_TYPE_SKCIPHER:
		return "skcipher";
	case BC_TYPE_AEAD:
		return "aead";
	case BC_TYPE_SHASH:
		return "shash";
	}
	return "unknown";
}

static const char *selftest_state(int s)
{
	return s > 0 ? "passed" : s < 0 ? "failed" : "unknown";
}

static int show_driver(const struct bc_driver_info *d, void *arg)
{
	int *first = arg;

	if (!*first)
		putchar('\n');
	*first = 0;
	printf("name         : %s\n", d->name);
	printf("driver       : %s\n", d->driver);
	printf("priority     : %d\n", d->priority);
	printf("selftest     : %s\n", selftest_state(d->selftest));
	printf("type         : %s\n", type_name(d->type));
	printf("blocksize    : %zu\n", d->blocksize);
	if (d->max_keysize) {
		printf("min keysize  : %u\n", d->min_keysize);
		printf("max keysize  : %u\n", d->max_keysize);
	}
	if (d->type == BC_TYPE_SKCIPHER || d->type == BC_TYPE_AEAD)
		printf("ivsize       : %zu\n", d->ivsize);
	if (d->type == BC_TYPE_AEAD)
		printf("maxauthsize  : %zu\n", d->maxauthsize);
	if (d->type == BC_TYPE_SHASH)
		printf("digestsize   : %zu\n", d->digestsize);
	return 0;
}

static void ignore_result(const struct bc_driver_info *d, int result, void *arg)
{
	(void)d;
	(void)result;
	(void)arg;
}

int cmd_list(int argc, char **argv)
{
	int first = 1;

	if (argc != 1)
		return cli_fail("usage: blockcrypt list");
	(void)argv;
	/* The quick known-answer tests, so that every block can say "passed" or "failed". */
	bc_selftest_all(0, ignore_result, NULL);
	bc_list_drivers(show_driver, &first);
	return fflush(stdout) ? cli_fail("cannot write stdout") : 0;
}

static void show_result(const struct bc_driver_info *d, int result, void *arg)
{
	(void)arg;
	if (result == 0)
		printf("passed  %s  %s\n", d->name, d->driver);
	else
		printf("FAILED  %s  %s  (%s)\n", d->name, d->driver, strerror(-result));
	fflush(stdout);
}

int cmd_selftest(int argc, char **argv)
{
	int failed;

	if (argc != 1)
		return cli_fail("usage: blockcrypt selftest");
	(void)argv;
	failed = bc_selftest_all(1, show_result, NULL);
	fprintf(stderr, "blockcrypt: selftest: %d failed (CPU features: %s)\n", failed,
	        bc_cpu_features_string());
	return failed ? 1 : 0;
}
