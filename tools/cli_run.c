/* blockcrypt tool: `run`, a command started with libblockcrypt-afalg.so preloaded, so its AF_ALG sockets
 * (and libkcapi's NETLINK_CRYPTO queries) are served by blockcrypt where the kernel refuses them. See blockcrypt(1). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define AFALG_LIB "libblockcrypt-afalg.so"

const char cli_run_help[] =
	"usage: blockcrypt run [--always] -- COMMAND [ARGS...]\n"
	"\n"
	"Runs COMMAND with " AFALG_LIB " preloaded: where the kernel refuses socket(AF_ALG)\n"
	"(or NETLINK_CRYPTO), the program's sockets are served by blockcrypt with the kernel's semantics,\n"
	"so programs written for the kernel crypto API's socket interface or for libkcapi run unchanged.\n"
	"  --always    serve every AF_ALG socket, even where the kernel has them\n"
	"The library is looked for in $BLOCKCRYPT_AFALG_LIB, beside the blockcrypt binary, then in\n"
	BC_AFALG_LIBDIR ".\n"
	"\n"
	"Exit status: COMMAND's, or 2 if it cannot be started.\n";

static int readable(const char *path)
{
	return access(path, R_OK) == 0;
}

/* The library: named by the environment, in the build tree beside the binary, or where `make install` put it. */
static int find_lib(char *out, size_t size)
{
	const char *e = getenv("BLOCKCRYPT_AFALG_LIB");
	char exe[PATH_MAX];
	ssize_t n;

	if (e && *e) {
		if (!readable(e) || strlen(e) >= size)
			return -1;
		strcpy(out, e);
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;

		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			if ((size_t)snprintf(out, size, "%s/%s", exe, AFALG_LIB) < size && readable(out))
				return 0;
		}
	}
	if ((size_t)snprintf(out, size, "%s/%s", BC_AFALG_LIBDIR, AFALG_LIB) < size && readable(out))
		return 0;
	return -1;
}

int cmd_run(int argc, char **argv)
{
	char lib[PATH_MAX], *preload;
	const char *old = getenv("LD_PRELOAD");
	int i = 1, always = 0;

	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--always"))
			always = 1;
		else
			return cli_fail("run: unknown option '%s' (usage: blockcrypt run [--always] -- COMMAND [ARGS...])", argv[i]);
	}
	if (i >= argc - 1)
		return cli_fail("run: no command (usage: blockcrypt run [--always] -- COMMAND [ARGS...])");
	if (find_lib(lib, sizeof(lib)))
		return cli_fail("run: %s not found (beside the binary, in %s, or $BLOCKCRYPT_AFALG_LIB)", AFALG_LIB,
		                BC_AFALG_LIBDIR);
	if (old && *old) {
		preload = malloc(strlen(lib) + strlen(old) + 2);
		if (!preload)
			return cli_fail("run: out of memory");
		sprintf(preload, "%s:%s", lib, old);
	} else {
		preload = lib;
	}
	if (setenv("LD_PRELOAD", preload, 1) || (always && setenv("BLOCKCRYPT_AFALG", "always", 1)))
		return cli_fail("run: cannot set the environment: %s", strerror(errno));
	execvp(argv[i + 1], argv + i + 1);
	return cli_fail("run: %s: %s", argv[i + 1], strerror(errno));
}
