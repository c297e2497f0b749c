/* blockcrypt tool: `list [NAME]` (drivers in Linux /proc/crypto style) and `selftest` (every known-answer test).
 * Field names and order follow the kernel's crypto/proc.c and the algorithm types' show() functions. */
#include <errno.h>
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

struct list_state {
	const char *only;       /* an algorithm or driver name, or NULL for every driver */
	int shown;
};

static int show_driver(const struct bc_driver_info *d, void *arg)
{
	struct list_state *st = arg;

	if (st->only && strcmp(st->only, d->name) && strcmp(st->only, d->driver))
		return 0;
	if (st->shown++)
		putchar('\n');
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
	struct list_state st = { argc == 2 ? argv[1] : NULL, 0 };

	if (argc > 2 || (argc == 2 && argv[1][0] == '-'))
		return cli_fail("usage: blockcrypt list [NAME]");
	/* The quick known-answer tests, so that every block can say "passed" or "failed". */
	bc_selftest_all(0, ignore_result, NULL);
	bc_list_drivers(show_driver, &st);
	if (fflush(stdout))
		return cli_fail("cannot write standard output: %s", strerror(errno));
	return st.shown ? 0 : cli_fail("no algorithm or driver named '%s' on this CPU (see blockcrypt list)", st.only);
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
