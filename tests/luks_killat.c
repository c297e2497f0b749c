/* blockcrypt tests: an LD_PRELOAD shim that kills its process with SIGKILL at the Nth pwrite or fsync (BC_KILL_AT=N),
 * before that call runs, or counts them (BC_KILL_COUNT=FILE gets the total at exit). POSIX pwrite(2), fsync(2). */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define SHIM __attribute__((visibility("default")))

static unsigned long calls;

static void event(void)
{
	const char *at = getenv("BC_KILL_AT");

	if (at && ++calls == strtoul(at, NULL, 10))
		raise(SIGKILL);
	if (!at)
		calls++;
}

__attribute__((destructor)) static void report(void)
{
	const char *f = getenv("BC_KILL_COUNT");
	FILE *o = f ? fopen(f, "w") : NULL;

	if (o) {
		fprintf(o, "%lu\n", calls);
		fclose(o);
	}
}

SHIM ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	ssize_t (*real)(int, const void *, size_t, off_t) = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");

	event();
	return real(fd, buf, n, off);
}

SHIM ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	ssize_t (*real)(int, const void *, size_t, off_t) = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite64");

	event();
	return real(fd, buf, n, off);
}

SHIM int fdatasync(int fd)
{
	int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");

	event();
	return real(fd);
}

SHIM int fsync(int fd)
{
	int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");

	event();
	return real(fd);
}
