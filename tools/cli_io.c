/* blockcrypt tool: input and output files, keys from hex, files or descriptors, and the full reads streaming needs.
 * An output FILE is written beside itself and renamed into place on success (POSIX rename(2) replaces atomically). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

const char *cli_in_name(const char *path)
{
	return path && strcmp(path, "-") ? path : "standard input";
}

int cli_open_in(const char *path, int *fd)
{
	if (!path || !strcmp(path, "-")) {
		*fd = STDIN_FILENO;
		return 0;
	}
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	return *fd < 0 ? cli_fail("cannot open %s: %s", path, strerror(errno)) : 0;
}

int cli_read_full(int fd, uint8_t *buf, size_t len, size_t *got)
{
	size_t n = 0;

	while (n < len) {
		ssize_t r = read(fd, buf + n, len - n);

		if (r > 0)
			n += (size_t)r;
		else if (r == 0)
			break;
		else if (errno != EINTR)
			return -1;
	}
	*got = n;
	return 0;
}

int cli_input_size(int fd, uint64_t *size)
{
	struct stat st;
	off_t pos;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (pos = lseek(fd, 0, SEEK_CUR)) < 0 || st.st_size < pos)
		return -1;
	*size = (uint64_t)(st.st_size - pos);
	return 0;
}

int cli_read_all(int fd, size_t limit, size_t spare, uint8_t **buf, size_t *len)
{
	size_t cap = 65536, n = 0, got;
	uint64_t size;
	uint8_t *b;

	/* A regular file says its size: one buffer of the right size, and no reading past the limit. */
	if (cli_input_size(fd, &size) == 0) {
		if (size > limit)
			return -2;
		cap = (size_t)size + 1;
	}
	if (cap > limit + 1)
		cap = limit + 1;
	b = malloc(cap + spare);
	if (!b)
		return -1;
	for (;;) {
		if (cli_read_full(fd, b + n, cap - n, &got) < 0) {
			int e = errno;

			cli_free_secret(b, n);
			errno = e;
			return -1;
		}
		n += got;
		if (n < cap)
			break;
		if (n > limit) {
			cli_free_secret(b, n);
			return -2;
		}
		/* Grow by copying, so no plaintext is left behind in a block realloc frees. */
		size_t ncap = cap > limit / 2 ? limit + 1 : cap * 2;
		uint8_t *nb = malloc(ncap + spare);

		if (!nb) {
			cli_free_secret(b, n);
			errno = ENOMEM;
			return -1;
		}
		memcpy(nb, b, n);
		cli_free_secret(b, n);
		b = nb;
		cap = ncap;
	}
	*buf = b;
	*len = n;
	return 0;
}

void cli_pipe_size(int fd, size_t size)
{
	struct stat st;

	/* Best effort: the kernel caps it at /proc/sys/fs/pipe-max-size for unprivileged users. */
	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) && size <= INT_MAX)
		(void)fcntl(fd, F_SETPIPE_SZ, (int)size);
}

/* ---- output ------------------------------------------------------------------------------------------------ */

/* The temporary file, for the signal handler: an interrupted run must not leave it behind. */
static char tmp_name[PATH_MAX + 16];
static volatile sig_atomic_t tmp_live;

static void remove_tmp_and_die(int sig)
{
	if (tmp_live)
		unlink(tmp_name);
	signal(sig, SIG_DFL);
	raise(sig);
}

int cli_out_open(struct cli_out *o, const char *path)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ };
	static char target[PATH_MAX];
	const char *slash;
	struct stat st;
	mode_t mask;
	int dirlen;

	o->tmp = NULL;
	o->path = NULL;
	o->fd = STDOUT_FILENO;
	if (!path || !strcmp(path, "-"))
		return 0;
	o->path = path;
	/* A device, a pipe or a socket (/dev/null, /dev/stdout) is written as it is: it cannot be replaced. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		o->fd = open(path, O_WRONLY | O_CLOEXEC);
		return o->fd < 0 ? cli_fail("cannot write %s: %s", path, strerror(errno)) : 0;
	}
	/* A symbolic link keeps pointing to its file: the file is what gets replaced. */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && realpath(path, target))
		path = target;
	/* DIR/.NAME.XXXXXX: the same file system as NAME, so that rename() replaces NAME in one step. */
	slash = strrchr(path, '/');
	dirlen = slash ? (int)(slash - path + 1) : 0;
	if (snprintf(tmp_name, sizeof(tmp_name), "%.*s.%s.XXXXXX", dirlen, path, path + dirlen) >= (int)sizeof(tmp_name))
		return cli_fail("cannot write %s: %s", o->path, strerror(ENAMETOOLONG));
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], remove_tmp_and_die);
	o->fd = mkostemp(tmp_name, O_CLOEXEC);
	if (o->fd < 0)
		return cli_fail("cannot write %s: %s", o->path, strerror(errno));
	tmp_live = 1;
	o->tmp = tmp_name;
	o->path = path;
	/* mkstemp makes the file 0600; a new file gets what the umask allows, as with open(O_CREAT, 0666). */
	mask = umask(0);
	umask(mask);
	if (fchmod(o->fd, 0666 & ~mask) < 0)
		return cli_out_close(o, cli_fail("cannot write %s: %s", path, strerror(errno)));
	return 0;
}

int cli_out_write(struct cli_out *o, const uint8_t *buf, size_t len)
{
	while (len) {
		ssize_t w = write(o->fd, buf, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return cli_fail("cannot write %s: %s", o->path ? o->path : "standard output",
			                w < 0 ? strerror(errno) : "nothing written");
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Makes the rename itself durable: fsync of the directory that holds the new name. */
static void sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	int fd;

	if (!slash)
		strcpy(dir, ".");
	else if (snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path) + (slash == path), path) >= (int)sizeof(dir))
		return;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

int cli_out_close(struct cli_out *o, int status)
{
	if (!o->tmp) {
		if (o->fd != STDOUT_FILENO && close(o->fd) < 0 && status == 0)
			status = cli_fail("cannot write %s: %s", o->path, strerror(errno));
		return status;
	}
	/* The data reaches the disk before the new name does, so a crash never leaves a short FILE. */
	if (status == 0 && (fsync(o->fd) < 0 || close(o->fd) < 0))
		status = cli_fail("cannot write %s: %s", o->path, strerror(errno));
	else if (status != 0)
		close(o->fd);
	if (status == 0 && rename(o->tmp, o->path) < 0)
		status = cli_fail("cannot write %s: %s", o->path, strerror(errno));
	if (status != 0)
		unlink(o->tmp);
	else
		sync_dir(o->path);
	tmp_live = 0;
	o->tmp = NULL;
	return status;
}

/* ---- keys -------------------------------------------------------------------------------------------------- */

int cli_key_option(struct cli_key *k, const char *cmd, int opt, const char *arg)
{
	if (k->opt)
		return cli_fail("%s: give the key once, with one of --key, --key-file or --key-fd", cmd);
	k->opt = opt;
	k->arg = arg;
	return 0;
}

/* Reads a raw key from a descriptor: the whole of it, byte for byte. */
static int key_from_fd(int fd, const char *what, uint8_t **key, size_t *len)
{
	uint8_t *b = malloc(CLI_KEY_MAX + 1);
	size_t n;

	if (!b)
		return cli_fail("out of memory");
	if (cli_read_full(fd, b, CLI_KEY_MAX + 1, &n) < 0) {
		int e = errno;

		free(b);
		return cli_fail("cannot read the key from %s: %s", what, strerror(e));
	}
	if (n == 0 || n > CLI_KEY_MAX) {
		cli_free_secret(b, n);
		return cli_fail("the key from %s is %s (a raw key of 1 to %d bytes is expected)", what,
		                n ? "too long" : "empty", CLI_KEY_MAX);
	}
	*key = b;
	*len = n;
	return 0;
}

int cli_key_load(const struct cli_key *k, const char *cmd, int stdin_data, uint8_t **key, size_t *len)
{
	char what[64];
	size_t fdnum;
	int fd, r;

	switch (k->opt) {
	case CLI_OPT_KEY:
		if (!*k->arg || cli_hex_decode(k->arg, key, len) < 0)
			return cli_fail("%s: bad key: it must be a non-empty, even-length hex string", cmd);
		return 0;
	case CLI_OPT_KEY_FILE:
		if (strcmp(k->arg, "-"))
			break;
		fdnum = STDIN_FILENO;
		goto from_fd;
	case CLI_OPT_KEY_FD:
		if (cli_parse_size(k->arg, INT_MAX, &fdnum) < 0)
			return cli_fail("%s: --key-fd wants a file descriptor number, not '%s'", cmd, k->arg);
		goto from_fd;
	default:
		return cli_fail("%s: a key is required: --key HEX, --key-file FILE or --key-fd N", cmd);
	}
	fd = open(k->arg, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return cli_fail("cannot open key file %s: %s", k->arg, strerror(errno));
	r = key_from_fd(fd, k->arg, key, len);
	close(fd);
	return r;
from_fd:
	if (fdnum == STDIN_FILENO && stdin_data)
		return cli_fail("%s: the key cannot come from standard input while the data does: "
		                "give the data with --in FILE, or the key with --key-file FILE", cmd);
	snprintf(what, sizeof(what), fdnum ? "descriptor %zu" : "standard input", fdnum);
	return key_from_fd((int)fdnum, what, key, len);
}

struct find_arg {
	const char *driver, *name;
	struct bc_driver_info *out;
	int by_name;
};

static int find_cb(const struct bc_driver_info *d, void *arg)
{
	struct find_arg *f = arg;

	if (strcmp(f->by_name ? d->name : d->driver, f->by_name ? f->name : f->driver))
		return 0;
	*f->out = *d;
	return 1;
}

int cli_find_driver(const char *driver, const char *name, struct bc_driver_info *out)
{
	struct find_arg f = { driver, name, out, 0 };

	if (driver && bc_list_drivers(find_cb, &f))
		return 0;
	f.by_name = 1;
	return name && bc_list_drivers(find_cb, &f) ? 0 : -1;
}

int cli_key_fail(const char *name, const char *driver, const uint8_t *key, size_t keylen,
                 int (*try)(void *tfm, const uint8_t *key, size_t len), void *tfm)
{
	struct bc_driver_info info;
	uint8_t probe[CLI_KEY_MAX];
	size_t lo = 1, hi = 256, good[8], n = 0;
	int length_ok = 0;
	char list[128] = "";

	if (cli_find_driver(driver, name, &info) == 0 && info.max_keysize) {
		lo = info.min_keysize;
		hi = info.max_keysize < sizeof(probe) ? info.max_keysize : sizeof(probe);
	}
	/* Distinct bytes, so that no length is refused for a weak key (xts: equal halves) rather than for itself. */
	for (size_t i = 0; i < hi; i++)
		probe[i] = (uint8_t)(i * 7 + 1);
	for (size_t l = lo; l <= hi && n < sizeof(good) / sizeof(good[0]); l++) {
		if (try(tfm, probe, l) == 0) {
			good[n++] = l;
			length_ok |= l == keylen;
		}
	}
	explicit_bzero(probe, sizeof(probe));
	/* A key of a valid length that is still refused is a weak one: in this library, equal xts halves. */
	if (length_ok && keylen % 2 == 0 && !bc_memneq(key, key + keylen / 2, keylen / 2))
		return cli_fail("%s: xts key halves are equal (use --allow-weak-keys for legacy data)", name);
	if (length_ok || !n)
		return cli_fail("%s: the key (%zu bytes) is refused", name, keylen);
	for (size_t i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%zu", i == 0 ? "" : i + 1 < n ? ", " : " or ",
		         good[i]);
	return cli_fail("%s: a %zu-byte key is not valid; it takes %s bytes", name, keylen, list);
}
