/* blockcrypt tool: the `luks` and `plain` subcommands (disk images through libblockcrypt-luks).
 * Verbs and option names after cryptsetup(8); exit 1 for a wrong passphrase, 2 for a bad image or usage. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "blockcrypt-luks.h"
#include "cli.h"
#ifdef BC_HAVE_LUKS
#include "nbd.h"
#endif

const char cli_luks_help[] =
	"usage: blockcrypt luks ACTION IMAGE [ARGS] [OPTIONS]\n"
	"  format IMAGE [--from PLAIN]     new LUKS2 (or --type luks1) header and keyslot 0; --from fills the data\n"
	"  encrypt IMAGE PLAIN             fill the data segment with PLAIN's encryption\n"
	"  decrypt IMAGE OUT               the whole plaintext to OUT (- for stdout)\n"
	"  read IMAGE --offset N --length N  plaintext bytes to stdout\n"
	"  dump IMAGE [--json] [--dump-volume-key]\n"
	"  test-passphrase IMAGE           exit 0 if a keyslot opens, 1 if none does\n"
	"  add-key IMAGE [NEWKEYFILE]      add a passphrase (--new-keyfile FILE, or a prompt)\n"
	"  remove-key IMAGE                remove the keyslot the passphrase opens\n"
	"  kill-slot IMAGE SLOT            wipe keyslot SLOT\n"
	"  change-key IMAGE [NEWKEYFILE]   replace the passphrase\n"
	"  uuid IMAGE [--uuid UUID]        print or set the UUID\n"
	"  header-backup IMAGE --header-backup-file FILE   the header and keyslot areas to a new FILE\n"
	"  header-restore IMAGE --header-backup-file FILE  a backup (validated) written back over the header\n"
	"  erase IMAGE                     wipe every keyslot: no passphrase opens the image afterwards\n"
	"  convert IMAGE --type luks1|luks2  convert the header in place (cryptsetup convert's rules)\n"
	"  resize IMAGE [--device-size BYTES]  the LUKS2 data segment's size (without: to the end of the file)\n"
	"  reencrypt IMAGE                 in place under a new volume key, as cryptsetup reencrypt: [--cipher SPEC]\n"
	"                                  [--key-size BITS] [--sector-size N] [--resilience checksum|journal|none]\n"
	"                                  [--resilience-hash H] [--hotzone-size BYTES] [--init-only|--resume-only]\n"
	"  serve IMAGE                     the plaintext over NBD until SIGTERM/SIGINT: --socket PATH (default\n"
	"                                  $XDG_RUNTIME_DIR/blockcrypt-nbd.sock) or --port N [--bind ADDR (127.0.0.1)],\n"
	"                                  --read-only, --export-name NAME\n"
	"options: --header FILE --key-file FILE|- --keyfile-offset N --keyfile-size N --key-slot N --type luks1|luks2\n"
	"  --cipher SPEC --key-size BITS --sector-size N --pbkdf argon2id|argon2i|pbkdf2 --iter-time MS\n"
	"  --pbkdf-memory KIB --pbkdf-parallel N --pbkdf-force-iterations N --hash H --uuid U --label L --subsystem S --offset SECTORS --size BYTES\n"
	"  --volume-key-file FILE --threads N --progress-frequency S --no-progress --batch-mode|-q --force\n"
	"  --unbounded-pbkdf (lift the unlock cost bounds: 1 GiB Argon2 memory, time 100, 50M PBKDF2 iterations)\n";

const char cli_plain_help[] =
	"usage: blockcrypt plain encrypt PLAIN IMAGE | decrypt IMAGE OUT | serve IMAGE [--cipher SPEC] [--key-size BITS]\n"
	"  [--key-file FILE [--keyfile-offset N]] [--hash H] [--keyfile-size N] [--verify-passphrase|-y]\n"
	"  [--sector-size N] [--offset SECTORS] [--size SECTORS] [--iv-offset SECTORS] [--iv-large-sectors]\n"
	"  [--threads N] [--no-progress] [--batch-mode|-q]\n"
	"  serve: the plaintext over NBD, as luks serve (--socket PATH | --port N [--bind ADDR], --read-only, --export-name)\n"
	"  dm-crypt plain mode (no header), as cryptsetup open --type plain: defaults aes-cbc-essiv:sha256,\n"
	"  256-bit key, 512-byte sectors. A key file is the raw key (its first key-size bytes); a passphrase (a\n"
	"  prompt, a line of stdin, or all of stdin with --key-file -) is hashed with --hash (ripemd160; plain:\n"
	"  unhashed, zero-padded; HASH:N: N bytes of hash, zero-padded)\n";

#ifndef BC_HAVE_LUKS
static int not_built(void)
{
	return cli_fail("the luks and plain subcommands are not built in (missing: %s; install libargon2-dev "
	                "libjson-c-dev libssl-dev pkg-config and rebuild)", BC_LUKS_MISSING);
}

int cmd_luks(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return not_built();
}

int cmd_plain(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return not_built();
}

int cli_luks_parse_args(int argc, char **argv, int plain)
{
	(void)argc;
	(void)argv;
	(void)plain;
	return not_built();
}
#else
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

struct opts {
	const char *header, *key_file, *new_key_file, *type, *cipher, *hash, *uuid, *label, *subsystem;
	const char *from, *vk_file, *backup_file, *pos[3];
	const char *sock, *bind, *export_name;   /* serve */
	const char *resilience, *resilience_hash;   /* reencrypt */
	uint64_t hotzone_size;
	int init_only, resume_only, offline;
	unsigned port;
	int read_only;
	int npos, key_slot, batch, force, json, dump_vk, no_progress, iv_large, unbounded, verify;
	int action, version, slot_arg;   /* set by check_args: the action, format's LUKS version, kill-slot's SLOT */
	unsigned key_bits, sector_size, threads, keyfile_size;
	uint64_t offset, size, length, iv_offset, keyfile_offset, device_size;
	int have_offset, have_length;
	double progress_every;
	struct bc_luks_pbkdf_params pbkdf;
};

/* A decimal number with an optional binary suffix (K, M, G, T). */
static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (*end) {
		const char *units = "KMGT", *u = strchr(units, *end);
		int shift = u ? 10 * (int)(u - units + 1) : 0;

		if (!u || (end[1] && strcmp(end + 1, "iB") && strcmp(end + 1, "B")) || v > (~0ull >> shift))
			return -1;
		v <<= shift;
	}
	*out = v;
	return 0;
}

static int parse_u32(const char *s, unsigned *out)
{
	uint64_t v;

	if (parse_u64(s, &v) || v > 0xffffffffu)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->key_slot = -1;
	o->progress_every = 0.2;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		unsigned u;
		int bad = 0;

#define STR(name, field) if (!strcmp(a, name)) { if (!v) return cli_fail("%s needs a value", a); o->field = v; i++; continue; }
#define NUM32(name, field) if (!strcmp(a, name)) { if (!v || parse_u32(v, &u)) return cli_fail("%s needs a number", a); o->field = u; i++; continue; }
#define NUM64(name, field, flag) if (!strcmp(a, name)) { if (!v || parse_u64(v, &o->field)) return cli_fail("%s needs a number", a); flag; i++; continue; }
#define FLAG(name, field) if (!strcmp(a, name)) { o->field = 1; continue; }
		STR("--header", header) STR("--key-file", key_file) STR("-d", key_file) STR("--new-keyfile", new_key_file)
		STR("--type", type) STR("--cipher", cipher) STR("-c", cipher) STR("--hash", hash) STR("-h", hash)
		STR("--uuid", uuid) STR("--label", label) STR("--subsystem", subsystem) STR("--from", from)
		STR("--volume-key-file", vk_file) STR("--header-backup-file", backup_file)
		STR("--socket", sock) STR("--bind", bind) STR("--export-name", export_name)
		STR("--resilience", resilience) STR("--resilience-hash", resilience_hash) NUM64("--hotzone-size", hotzone_size, (void)0)
		FLAG("--init-only", init_only) FLAG("--resume-only", resume_only) FLAG("--force-offline-reencrypt", offline)
		NUM32("--port", port) FLAG("--read-only", read_only)
		NUM32("--key-size", key_bits) NUM32("-s", key_bits) NUM32("--sector-size", sector_size)
		NUM32("--threads", threads) NUM32("--iter-time", pbkdf.iter_time_ms) NUM32("-i", pbkdf.iter_time_ms)
		NUM32("--pbkdf-memory", pbkdf.memory_kib) NUM32("--pbkdf-parallel", pbkdf.parallel)
		NUM32("--pbkdf-force-iterations", pbkdf.iterations)
		NUM32("--keyfile-size", keyfile_size) NUM32("-l", keyfile_size)
		NUM64("--keyfile-offset", keyfile_offset, (void)0)
		NUM64("--offset", offset, o->have_offset = 1) NUM64("-o", offset, o->have_offset = 1)
		NUM64("--size", size, (void)0) NUM64("--device-size", device_size, (void)0) NUM64("--length", length, o->have_length = 1)
		NUM64("--iv-offset", iv_offset, (void)0) NUM64("--skip", iv_offset, (void)0)
		FLAG("--batch-mode", batch) FLAG("-q", batch) FLAG("--force", force) FLAG("--json", json)
		FLAG("--dump-volume-key", dump_vk) FLAG("--no-progress", no_progress) FLAG("--iv-large-sectors", iv_large)
		FLAG("--unbounded-pbkdf", unbounded) FLAG("--verify-passphrase", verify) FLAG("-y", verify)
#undef STR
#undef NUM32
#undef NUM64
#undef FLAG
		if (!strcmp(a, "--key-slot") || !strcmp(a, "-S")) {
			if (!v || parse_u32(v, &u) || u > 31)
				return cli_fail("%s needs a keyslot number (0..31)", a);
			o->key_slot = (int)u;
			i++;
		} else if (!strcmp(a, "--pbkdf")) {
			if (!v)
				return cli_fail("--pbkdf needs a value");
			o->pbkdf.type = !strcmp(v, "pbkdf2") ? BC_LUKS_PBKDF2 : !strcmp(v, "argon2i") ? BC_LUKS_ARGON2I
			              : !strcmp(v, "argon2id") ? BC_LUKS_ARGON2ID : 0;
			if (!o->pbkdf.type)
				return cli_fail("--pbkdf %s: argon2id, argon2i or pbkdf2", v);
			i++;
		} else if (!strcmp(a, "--progress-frequency")) {
			if (!v || cli_parse_seconds(v, &o->progress_every))
				return cli_fail("--progress-frequency needs seconds");
			i++;
		} else if (a[0] == '-' && a[1]) {
			bad = 1;
		} else if (o->npos < 3) {
			o->pos[o->npos++] = a;
		} else {
			return cli_fail("too many arguments");
		}
		if (bad)
			return cli_fail("unknown option %s", a);
	}
	o->pbkdf.hash = o->hash;
	return 0;
}

/* ---- secrets: key files and passphrases, in locked memory ---------------------------- */

#define SECRET_MAX (8u << 20)   /* cryptsetup's default key file size limit */

struct secret {
	char *p;
	size_t len, cap;
};

static void secret_free(struct secret *s)
{
	if (s->p) {
		explicit_bzero(s->p, s->cap);
		munlock(s->p, s->cap);
		free(s->p);
	}
	memset(s, 0, sizeof(*s));
}

static int secret_alloc(struct secret *s, size_t cap)
{
	s->p = calloc(1, cap);
	s->cap = cap;
	s->len = 0;
	if (!s->p)
		return cli_fail("out of memory");
	(void)mlock(s->p, cap);
	return 0;
}

/* A larger locked buffer for s, its content moved and the old one wiped: key files are read into a buffer that
 * grows as they do, not into 8 MiB locked and wiped for every short passphrase (tens of ms of page faults and
 * clearing here). */
static int secret_grow(struct secret *s, size_t cap)
{
	struct secret n;

	if (secret_alloc(&n, cap))
		return EXIT_USAGE;
	memcpy(n.p, s->p, s->len);
	n.len = s->len;
	secret_free(s);
	*s = n;
	return 0;
}

/* Where a secret comes from: a key file (- is stdin), --keyfile-offset bytes skipped, then --keyfile-size bytes
 * exactly (0: all of it, up to 8 MiB), as cryptsetup reads them. */
struct key_src {
	const char *file;
	uint64_t offset;
	size_t size;
};

/* Skips `offset` bytes of fd: a seek where it can, reading them otherwise (a pipe). */
static int skip_bytes(int fd, const char *name, uint64_t offset)
{
	char junk[4096];
	struct stat st;

	if (!offset)
		return 0;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode)) {
		off_t cur = lseek(fd, 0, SEEK_CUR);

		if (cur >= 0 && offset <= (uint64_t)(st.st_size - cur) && lseek(fd, (off_t)offset, SEEK_CUR) >= 0)
			return 0;
		return cli_fail("%s: cannot seek to the key file offset %llu", name, (unsigned long long)offset);
	}
	/* what is skipped may be another key of the same file: wiped on every way out */
	while (offset) {
		ssize_t n = read(fd, junk, offset < sizeof(junk) ? (size_t)offset : sizeof(junk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		offset -= (uint64_t)n;
	}
	explicit_bzero(junk, sizeof(junk));
	return offset ? cli_fail("%s: cannot seek to the key file offset", name) : 0;
}

/* A secret from fd after k's offset: k->size bytes exactly, or all (8 MiB at most); with eol, up to the first
 * newline (stdin without --key-file, as cryptsetup reads a passphrase from a pipe). */
static int read_secret(int fd, const char *name, const struct key_src *k, int eol, struct secret *s)
{
	size_t max = k->size ? k->size : SECRET_MAX + 1;
	int r = k->size > SECRET_MAX ? cli_fail("--keyfile-size %zu is above the 8 MiB limit", k->size)
	                             : skip_bytes(fd, name, k->offset);

	if (r || secret_alloc(s, max < 4096 ? max : 4096))
		return EXIT_USAGE;
	while (s->len < max) {
		ssize_t n;

		if (s->len == s->cap && secret_grow(s, max / 4 > s->cap ? s->cap * 4 : max)) {
			secret_free(s);
			return EXIT_USAGE;
		}
		n = read(fd, s->p + s->len, eol ? 1 : s->cap - s->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = cli_fail("%s: %s", name, strerror(errno));
			break;
		}
		if (n == 0 || (eol && s->p[s->len] == '\n'))
			break;
		s->len += (size_t)n;
	}
	if (!r && k->size && s->len < k->size)
		r = cli_fail("%s: cannot read the requested %zu bytes", name, k->size);
	if (!r && s->len > SECRET_MAX)
		r = cli_fail("%s: key file larger than 8 MiB (use --keyfile-size)", name);
	if (r)
		secret_free(s);
	return r;
}

static int read_key_file(const struct key_src *k, struct secret *s)
{
	int fd = open(k->file, O_RDONLY | O_CLOEXEC), r;

	if (fd < 0)
		return cli_fail("%s: %s", k->file, strerror(errno));
	r = read_secret(fd, k->file, k, 0, s);
	close(fd);
	return r;
}

/* One line from the terminal, without echo. */
static int read_tty_line(const char *prompt, struct secret *s)
{
	int tty = open("/dev/tty", O_RDWR | O_CLOEXEC), fd = tty >= 0 ? tty : 0;
	struct termios old, quiet;
	int echo_off = 0;

	if (secret_alloc(s, 4096))
		return EXIT_USAGE;
	/* echo off (and what was typed ahead dropped) before the prompt shows: nothing typed after it is echoed */
	if (!tcgetattr(fd, &old)) {
		quiet = old;
		quiet.c_lflag &= ~(tcflag_t)ECHO;
		echo_off = !tcsetattr(fd, TCSAFLUSH, &quiet);
	}
	if (write(tty >= 0 ? tty : 2, prompt, strlen(prompt)) < 0)
		(void)0;
	for (;;) {
		char c;
		ssize_t n = read(fd, &c, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || c == '\n')
			break;
		if (s->len + 1 >= s->cap)
			break;
		s->p[s->len++] = c;
	}
	if (echo_off) {
		tcsetattr(fd, TCSAFLUSH, &old);
		if (write(tty >= 0 ? tty : 2, "\n", 1) < 0)
			(void)0;
	}
	if (tty >= 0)
		close(tty);
	return 0;
}

/* The passphrase as cryptsetup takes it: a key file; a prompt without echo when stdin is a terminal (twice when
 * verify); otherwise stdin, to its first newline (all of it with --key-file -). */
static int get_pass(const struct key_src *k, const char *prompt, int verify, struct secret *s)
{
	struct secret again = { 0 };
	int r;

	if (k->file && strcmp(k->file, "-"))
		return read_key_file(k, s);
	if (!isatty(0))
		return read_secret(0, "stdin", k, !k->file, s);
	if (k->offset)
		return cli_fail("cannot use --keyfile-offset with terminal input");
	r = read_tty_line(prompt, s);
	if (r || !verify)
		return r;
	r = read_tty_line("Verify passphrase: ", &again);
	if (!r && (again.len != s->len || memcmp(again.p, s->p, s->len))) {
		secret_free(s);
		r = cli_fail("passphrases do not match");
	}
	secret_free(&again);
	return r;
}

/* ---- progress ----------------------------------------------------------------------- */

struct progress {
	struct timespec start;
	double every, last;
	int shown;
};

static double elapsed(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void show_progress(uint64_t done, uint64_t total, void *arg)
{
	struct progress *p = arg;
	double t = elapsed(&p->start), rate = t > 0 ? done / t : 0;

	if (done < total && t - p->last < p->every)
		return;
	p->last = t;
	p->shown = 1;
	double left = rate > 0 ? (total - done) / rate : 0;

	fprintf(stderr, "\rProgress: %5.1f%%, ETA %02u:%02u, %llu MiB written, speed %7.1f MiB/s ",
	        total ? 100.0 * done / total : 100.0, (unsigned)left / 60, (unsigned)left % 60,
	        (unsigned long long)(done >> 20), rate / 1048576);
	if (done >= total)
		fputc('\n', stderr);
}

static bc_luks_progress_fn progress_for(const struct opts *o, struct progress *p)
{
	memset(p, 0, sizeof(*p));
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->every = o->progress_every;
	return !o->no_progress && isatty(2) ? show_progress : NULL;
}

/* ---- helpers -------------------------------------------------------------------------- */

/* Exit status for a library error: 1 for a wrong passphrase, 2 otherwise. */
static int lib_fail(int r)
{
	cli_fail("%s", bc_luks_error());
	return r == -EPERM ? EXIT_AUTH : EXIT_USAGE;
}

static int file_size(const char *path, uint64_t *size)
{
	struct stat st;

	if (stat(path, &st))
		return -1;
	*size = (uint64_t)st.st_size;
	return 0;
}

/* cryptsetup's question before it overwrites a header or data (standard input is a terminal): only "YES" goes on.
 * The answer is read with read(2), so that a passphrase prompt after it sees its own line. */
static int confirm_yes(const char *msg)
{
	char answer[8];
	size_t n = 0;

	fprintf(stderr, "\nWARNING!\n========\n%s\n\nAre you sure? (Type 'yes' in capital letters): ", msg);
	for (;;) {
		char c;
		ssize_t k = read(0, &c, 1);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0 || c == '\n')
			break;
		if (n < sizeof(answer) - 1)
			answer[n++] = c;
	}
	answer[n] = 0;
	return !strcmp(answer, "YES");
}

static int confirm_overwrite(const char *path, int has_luks)
{
	char msg[600];

	if (has_luks)
		fprintf(stderr, "WARNING: Device %s already contains a 'crypto_LUKS' superblock signature.\n", path);
	snprintf(msg, sizeof(msg), "This will overwrite data on %s irrevocably.", path);
	return confirm_yes(msg);
}

/* Before restore, erase and convert write: --batch-mode goes on; a terminal is asked; otherwise refused (a
 * script says --batch-mode when it means it). arg: the struct opts. */
static int confirm_header(const char *msg, void *arg)
{
	const struct opts *o = arg;

	return o->batch || confirm_yes(msg);
}

/* The header actions ask on a terminal; without one, only --batch-mode goes on (checked before anything is read). */
static int need_confirmation(const struct opts *o, const char *act)
{
	if (o->batch || isatty(0))
		return 0;
	return cli_fail("luks %s asks for confirmation: use --batch-mode when standard input is not a terminal", act);
}

/* Creates path if missing (with size bytes), or checks that overwriting it is allowed: by `allowed`
 * (--batch-mode, --force), or for format by a "YES" on the terminal. */
static int prepare_target(const char *path, uint64_t size, int allowed, int format)
{
	uint64_t cur;
	int fd;

	if (!file_size(path, &cur) && cur > 0 && !allowed) {
		char magic[6] = { 0 };
		int has_luks;

		fd = open(path, O_RDONLY | O_CLOEXEC);
		has_luks = format && fd >= 0 && read(fd, magic, 6) == 6 && !memcmp(magic, "LUKS\xba\xbe", 6);
		if (fd >= 0)
			close(fd);
		if (format && isatty(0)) {
			if (!confirm_overwrite(path, has_luks)) {
				fputs("Operation aborted.\n", stderr);
				return EXIT_USAGE;
			}
		} else if (has_luks) {
			return cli_fail("%s already holds a LUKS header: use --batch-mode to overwrite it", path);
		} else {
			return cli_fail("%s is not empty: use --batch-mode (or --force) to overwrite it", path);
		}
	}
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return cli_fail("%s: %s", path, strerror(errno));
	if (size && (file_size(path, &cur) || cur < size) && ftruncate(fd, (off_t)size)) {
		int e = errno;

		close(fd);
		return cli_fail("%s: %s", path, strerror(e));
	}
	close(fd);
	return 0;
}

static int open_unlocked(const struct opts *o, int writable, bc_luks **l, int *slot)
{
	const struct key_src src = { o->key_file, o->keyfile_offset, o->keyfile_size };
	struct secret pass = { 0 };
	char prompt[512];
	int r = bc_luks_open(l, o->pos[0], o->header, writable);

	if (r)
		return lib_fail(r);
	snprintf(prompt, sizeof(prompt), "Enter passphrase for %s: ", o->pos[0]);
	r = get_pass(&src, prompt, 0, &pass);
	if (r) {
		bc_luks_close(*l);
		return r;
	}
	r = bc_luks_unlock(*l, pass.p, pass.len, o->key_slot);
	secret_free(&pass);
	if (r < 0) {
		bc_luks_close(*l);
		return lib_fail(r);
	}
	if (slot)
		*slot = r;
	return 0;
}

static int encrypt_file(bc_luks *l, const struct opts *o, const char *plain)
{
	struct progress p;
	bc_luks_progress_fn fn = progress_for(o, &p);
	int fd = open(plain, O_RDONLY | O_CLOEXEC), r;
	uint64_t size;

	if (fd < 0)
		return cli_fail("%s: %s", plain, strerror(errno));
	if (file_size(plain, &size)) {
		close(fd);
		return cli_fail("%s: %s", plain, strerror(errno));
	}
	r = bc_luks_encrypt_from(l, fd, size, o->threads, fn, &p);
	close(fd);
	return r ? lib_fail(r) : 0;
}

static int decrypt_file(bc_luks *l, const struct opts *o, const char *out)
{
	struct progress p;
	bc_luks_progress_fn fn = progress_for(o, &p);
	int fd = 1, r;

	if (strcmp(out, "-")) {
		r = prepare_target(out, 0, o->force || o->batch, 0);
		if (r)
			return r;
		fd = open(out, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return cli_fail("%s: %s", out, strerror(errno));
	}
	r = bc_luks_decrypt_to(l, fd, o->threads, fn, &p);
	if (fd != 1)
		close(fd);
	return r ? lib_fail(r) : 0;
}

static int read_vk_file(const char *path, size_t len, struct secret *s)
{
	const struct key_src src = { path, 0, 0 };
	int r = read_key_file(&src, s);

	if (!r && s->len != len) {
		secret_free(s);
		return cli_fail("%s: the volume key file must hold exactly %zu bytes", path, len);
	}
	return r;
}

/* ---- the actions ----------------------------------------------------------------------- */

static int luks_format(const struct opts *o)
{
	const struct key_src src = { o->key_file, o->keyfile_offset, o->keyfile_size };
	struct bc_luks_format_params p = { 0 };
	struct secret pass = { 0 }, vk = { 0 };
	const char *image = o->pos[0];
	uint64_t image_size = o->size;
	bc_luks *l = NULL;
	char prompt[512];
	int r, created_image, created_header;

	p.version = o->version;
	if (o->from && access(o->from, R_OK))
		return cli_fail("%s: %s", o->from, strerror(errno));
	p.cipher = o->cipher;
	p.key_bytes = o->key_bits / 8;
	p.sector_size = o->sector_size;
	p.data_offset = o->offset * 512;   /* cryptsetup's --offset counts 512-byte sectors */
	p.uuid = o->uuid;
	p.label = o->label;
	p.subsystem = o->subsystem;
	p.keyslot = o->key_slot;
	p.pbkdf = o->pbkdf;
	created_image = access(image, F_OK) != 0;
	created_header = o->header && access(o->header, F_OK) != 0;
	if (o->header) {
		r = prepare_target(o->header, 0, o->batch || o->force, 1);
		if (!r)   /* the data file is only written with --from */
			r = prepare_target(image, image_size, o->batch || o->force || !o->from, 1);
	} else {
		r = prepare_target(image, image_size, o->batch || o->force, 1);
	}
	if (r)
		return r;
	if (o->vk_file) {
		r = read_vk_file(o->vk_file, p.key_bytes ? p.key_bytes : 64, &vk);
		if (r)
			return r;
		p.volume_key = (const uint8_t *)vk.p;
		p.key_bytes = (unsigned)vk.len;
	}
	snprintf(prompt, sizeof(prompt), "Enter passphrase for %s: ", image);
	r = get_pass(&src, prompt, 1, &pass);
	if (!r) {
		r = bc_luks_format(&l, image, o->header, &p, pass.p, pass.len);
		r = r ? lib_fail(r) : 0;
	}
	secret_free(&pass);
	secret_free(&vk);
	if (!r && o->from)
		r = encrypt_file(l, o, o->from);
	bc_luks_close(l);
	if (r && (created_image || created_header)) {
		/* a refused format leaves no new file behind */
		if (created_image)
			unlink(image);
		if (created_header)
			unlink(o->header);
	}
	return r;
}

/* encrypt IMAGE PLAIN, decrypt IMAGE OUT */
static int luks_crypt(const struct opts *o, int enc)
{
	bc_luks *l;
	int r;

	r = open_unlocked(o, enc, &l, NULL);
	if (r)
		return r;
	r = enc ? encrypt_file(l, o, o->pos[1]) : decrypt_file(l, o, o->pos[1]);
	bc_luks_close(l);
	return r;
}

static int luks_read(const struct opts *o)
{
	struct cli_out out;
	uint8_t *buf;
	uint64_t off = o->offset, left = o->length;
	bc_luks *l;
	int r;

	r = open_unlocked(o, 0, &l, NULL);
	if (r)
		return r;
	cli_out_open(&out, NULL);   /* standard output: nothing to open */
	buf = malloc(1 << 20);
	if (!buf)
		r = cli_fail("out of memory");
	while (!r && left) {
		size_t n = left < (1 << 20) ? (size_t)left : 1 << 20;

		r = bc_luks_read(l, off, buf, n);
		if (r)
			r = lib_fail(r);
		else
			r = cli_out_write(&out, buf, n);
		off += n;
		left -= n;
	}
	if (buf)
		explicit_bzero(buf, 1 << 20);
	free(buf);
	bc_luks_close(l);
	return r;
}

static int luks_dump(const struct opts *o)
{
	bc_luks *l;
	uint8_t vk[128];
	int r;

	if (o->dump_vk) {
		r = open_unlocked(o, 0, &l, NULL);
		if (r)
			return r;
		r = bc_luks_volume_key(l, vk, sizeof(vk));
		printf("LUKS header information for %s\nCipher name:   \t%s\nUUID:          \t%s\nMK bits:       \t%d\nMK dump:\t",
		       o->pos[0], bc_luks_cipher(l), bc_luks_uuid(l), r * 8);
		for (int i = 0; i < r; i++)
			printf("%02x%s", vk[i], i + 1 == r ? "\n" : (i + 1) % 16 ? " " : " \n\t\t");
		explicit_bzero(vk, sizeof(vk));
		bc_luks_close(l);
		return 0;
	}
	r = bc_luks_open(&l, o->pos[0], o->header, 0);
	if (r)
		return lib_fail(r);
	r = bc_luks_dump(l, stdout, o->json);
	bc_luks_close(l);
	return r ? lib_fail(r) : 0;
}

static int luks_test_passphrase(const struct opts *o)
{
	bc_luks *l;
	int slot, r = open_unlocked(o, 0, &l, &slot);

	if (r)
		return r;
	printf("Key slot %d unlocked.\n", slot);
	bc_luks_close(l);
	return 0;
}

static int luks_add_key(const struct opts *o, int change)
{
	struct secret pass = { 0 };
	const struct key_src newsrc = { o->new_key_file ? o->new_key_file : o->npos > 1 ? o->pos[1] : NULL, 0, 0 };
	bc_luks *l;
	int old, r;

	r = open_unlocked(o, 1, &l, &old);
	if (r)
		return r;
	r = get_pass(&newsrc, "Enter new passphrase for key slot: ", 1, &pass);
	if (!r) {
		/* --key-slot N changes N in place; without it LUKS1 moves the key to a free slot (cryptsetup) */
		r = change ? bc_luks_change_key(l, old, o->key_slot, &o->pbkdf, pass.p, pass.len)
		           : bc_luks_add_key(l, o->key_slot, &o->pbkdf, pass.p, pass.len);
		if (r < 0)
			r = lib_fail(r);
		else {
			printf(change ? "Key slot %d changed.\n" : "Key slot %d created.\n", r);
			r = 0;
		}
	}
	secret_free(&pass);
	bc_luks_close(l);
	return r;
}

static int active_slots(const bc_luks *l)
{
	int n = 0;

	for (int i = 0; i < bc_luks_max_slots(l); i++)
		n += bc_luks_slot_active(l, i) == 1;
	return n;
}

static int luks_kill(const struct opts *o, int by_pass)
{
	bc_luks *l;
	int s = o->slot_arg, r;

	if (by_pass) {
		r = open_unlocked(o, 1, &l, &s);
	} else {
		/* as cryptsetup: a passphrase (of any keyslot) proves the right to do it, unless --batch-mode */
		r = o->batch ? bc_luks_open(&l, o->pos[0], o->header, 1) : open_unlocked(o, 1, &l, NULL);
		if (r && o->batch)
			return lib_fail(r);
	}
	if (r)
		return r;
	r = bc_luks_slot_active(l, s);
	if (r == 1 && active_slots(l) == 1 && !o->batch)
		r = cli_fail("keyslot %d is the last one: the image would become unusable (use --batch-mode)", s);
	else if (r == 1)
		r = bc_luks_kill_slot(l, s) ? lib_fail(-EINVAL) : 0;
	else
		r = cli_fail("keyslot %d is not active", s);
	bc_luks_close(l);
	return r;
}

static int luks_uuid(const struct opts *o)
{
	bc_luks *l;
	int r = bc_luks_open(&l, o->pos[0], o->header, o->uuid != NULL);

	if (r)
		return lib_fail(r);
	r = o->uuid ? bc_luks_set_uuid(l, o->uuid) : 0;
	if (r)
		r = lib_fail(r);
	else if (!o->uuid)
		printf("%s\n", bc_luks_uuid(l));
	bc_luks_close(l);
	return r;
}

/* header-backup (read-only) and resize: one call on the opened header */
static int luks_header_op(const struct opts *o, int resize)
{
	bc_luks *l;
	int r = bc_luks_open(&l, o->pos[0], o->header, resize);

	if (r)
		return lib_fail(r);
	r = resize ? bc_luks_resize(l, o->device_size) : bc_luks_header_backup(l, o->backup_file);
	bc_luks_close(l);
	return r ? lib_fail(r) : 0;
}

static int luks_header_restore(const struct opts *o)
{
	int r = need_confirmation(o, "header-restore");

	if (!r && bc_luks_header_restore(o->pos[0], o->header, o->backup_file, confirm_header, (void *)o))
		r = lib_fail(-EINVAL);
	return r;
}

/* erase and convert: cryptsetup's question, then the whole header rewritten */
static int luks_rewrite(const struct opts *o, int convert)
{
	const char *dev = o->header ? o->header : o->pos[0], *v = o->version == 2 ? "LUKS2" : "LUKS1";
	char msg[600];
	bc_luks *l;
	int r = need_confirmation(o, convert ? "convert" : "erase");

	if (r)
		return r;
	r = bc_luks_open(&l, o->pos[0], o->header, 1);
	if (r)
		return lib_fail(r);
	if (convert)
		snprintf(msg, sizeof(msg), "This operation will convert %s to %s format.\n", dev, v);
	else
		snprintf(msg, sizeof(msg), "This operation will erase all keyslots on device %s.\n"
		         "Device will become unusable after this operation.", dev);
	if (convert && bc_luks_version(l) == o->version)
		r = cli_fail("the image is already %s", v);
	else if (!confirm_header(msg, (void *)o))
		r = cli_fail(convert ? "operation aborted, device was NOT converted" : "operation aborted, keyslots were NOT wiped");
	else if (convert ? bc_luks_convert(l, o->version) : bc_luks_erase(l))
		r = lib_fail(-EINVAL);
	bc_luks_close(l);
	return r;
}

static void serving(const char *uri)
{
	fprintf(stderr, "blockcrypt: serving the plaintext on %s\n", uri);
}

/* The unlocked image's plaintext over NBD until SIGTERM or SIGINT; closing it afterwards wipes the key. */
static int serve_image(bc_luks *l, const struct opts *o)
{
	struct nbd_listen where = { .socket_path = o->sock, .bind_addr = o->bind, .port = o->port };
	struct nbd_export e;
	char path[256];
	int r;

	if (!o->sock && !o->port) {
		const char *dir = getenv("XDG_RUNTIME_DIR");

		if (dir && *dir)
			snprintf(path, sizeof(path), "%s/blockcrypt-nbd.sock", dir);
		else
			snprintf(path, sizeof(path), "/tmp/blockcrypt-nbd-%u.sock", (unsigned)getuid());
		where.socket_path = path;
	}
	nbd_export_luks(&e, l, o->export_name, o->read_only);
	r = nbd_serve(&e, &where, serving);
	bc_luks_close(l);
	return r ? EXIT_USAGE : 0;
}

static int luks_serve(const struct opts *o)
{
	bc_luks *l;
	int r = open_unlocked(o, !o->read_only, &l, NULL);

	return r ? r : serve_image(l, o);
}

/* reencrypt: the passphrase opens the old key and keeps the new one; the library does the rest. */
static int luks_reencrypt(const struct opts *o)
{
	const struct key_src src = { o->key_file, o->keyfile_offset, o->keyfile_size };
	struct bc_luks_reencrypt_params p = { o->cipher, o->key_bits / 8, o->sector_size, o->resilience, o->resilience_hash,
	                                      o->hotzone_size, o->init_only, o->resume_only, o->pbkdf };
	struct secret pass = { 0 };
	struct progress pr;
	bc_luks_progress_fn fn = progress_for(o, &pr);
	char prompt[512];
	int r;

	snprintf(prompt, sizeof(prompt), "Enter passphrase for %s: ", o->pos[0]);
	r = get_pass(&src, prompt, 0, &pass);
	if (r)
		return r;
	r = bc_luks_reencrypt(o->pos[0], pass.p, pass.len, &p, fn, &pr);
	secret_free(&pass);
	return r ? lib_fail(r) : 0;
}

enum { ACT_FORMAT, ACT_ENCRYPT, ACT_DECRYPT, ACT_READ, ACT_DUMP, ACT_TEST, ACT_ADD, ACT_CHANGE, ACT_REMOVE, ACT_KILL,
       ACT_UUID, ACT_BACKUP, ACT_RESTORE, ACT_ERASE, ACT_CONVERT, ACT_RESIZE, ACT_SERVE, ACT_REENCRYPT, ACT_PLAIN_ENCRYPT,
       ACT_PLAIN_DECRYPT, ACT_PLAIN_SERVE };

/* serve's listening options: one socket, a TCP port in range, and no image beyond the one served. */
static int check_serve_args(const struct opts *o)
{
	if (o->sock && o->port)
		return cli_fail("serve: --socket and --port exclude each other");
	if (o->port > 65535)
		return cli_fail("--port %u: 1..65535", o->port);
	if (o->bind && !o->port)
		return cli_fail("serve: --bind needs --port");
	if (o->npos != 1)
		return cli_fail("usage: blockcrypt %s serve IMAGE [--socket PATH | --port N [--bind ADDR]] [--read-only] "
		                "[--export-name NAME]", o->action == ACT_SERVE ? "luks" : "plain");
	return 0;
}

/* The action, its options and what the action needs of them, all checked before any file is touched. */
static int check_args(int argc, char **argv, int plain, struct opts *o)
{
	static const char *const acts[] = { "format", "encrypt", "decrypt", "read", "dump", "test-passphrase", "add-key",
	                                    "change-key", "remove-key", "kill-slot", "uuid", "header-backup", "header-restore",
	                                    "erase", "convert", "resize", "serve", "reencrypt" };
	const char *act = argc > 1 ? argv[1] : "";
	int which = -1;
	unsigned slot;

	if (plain)
		which = !strcmp(act, "encrypt") ? ACT_PLAIN_ENCRYPT : !strcmp(act, "decrypt") ? ACT_PLAIN_DECRYPT
		      : !strcmp(act, "serve") ? ACT_PLAIN_SERVE : -1;
	else
		for (int i = 0; i < (int)(sizeof(acts) / sizeof(acts[0])); i++)
			if (!strcmp(act, acts[i]))
				which = i;
	if (which < 0) {
		fputs(plain ? cli_plain_help : cli_luks_help, stderr);
		return EXIT_USAGE;
	}
	if (parse_opts(argc - 2, argv + 2, o))
		return EXIT_USAGE;
	o->action = which;
	if ((which == ACT_SERVE || which == ACT_PLAIN_SERVE) && check_serve_args(o))
		return EXIT_USAGE;
	if (which == ACT_PLAIN_SERVE && o->npos != 1)
		return cli_fail("usage: blockcrypt plain serve IMAGE [--key-file FILE] [options]");
	if (plain) {
		if (which != ACT_PLAIN_SERVE && o->npos != 2)
			return cli_fail("usage: blockcrypt plain %s IN OUT [--key-file FILE] [options]", act);
		if (o->key_bits % 8 || o->key_bits > 1024)
			return cli_fail("--key-size must be a multiple of 8 bits, 1024 at most");
		return 0;
	}
	if (o->npos < 1)
		return cli_fail("luks %s: IMAGE missing", act);
	switch (which) {
	case ACT_FORMAT:
	case ACT_CONVERT:
		o->version = !o->type || !strcmp(o->type, "luks2") || !strcmp(o->type, "luks") ? 2
		           : !strcmp(o->type, "luks1") ? 1 : 0;
		if (!o->version)
			return cli_fail("--type %s: luks1 or luks2", o->type);
		if (which == ACT_CONVERT && !o->type)
			return cli_fail("usage: blockcrypt luks convert IMAGE --type luks1|luks2");
		if (o->key_bits % 8)
			return cli_fail("--key-size must be a multiple of 8 bits");
		break;
	case ACT_BACKUP:
	case ACT_RESTORE:
		if (!o->backup_file)
			return cli_fail("luks %s: --header-backup-file FILE is required", act);
		break;
	case ACT_ENCRYPT:
	case ACT_DECRYPT:
		if (o->npos != 2)
			return cli_fail(which == ACT_ENCRYPT ? "usage: blockcrypt luks encrypt IMAGE PLAIN"
			                                     : "usage: blockcrypt luks decrypt IMAGE OUT");
		break;
	case ACT_READ:
		if (!o->have_offset || !o->have_length)
			return cli_fail("usage: blockcrypt luks read IMAGE --offset BYTES --length BYTES");
		break;
	case ACT_REENCRYPT:
		if (o->npos != 1 || o->header)
			return cli_fail("usage: blockcrypt luks reencrypt IMAGE [options] (no --header)");
		if (o->init_only && o->resume_only)
			return cli_fail("reencrypt: --init-only and --resume-only exclude each other");
		if (o->key_bits % 8 || o->key_bits > 1024)
			return cli_fail("--key-size must be a multiple of 8 bits, 1024 at most");
		break;
	case ACT_KILL:
		if (o->npos != 2 || parse_u32(o->pos[1], &slot) || slot > 31)
			return cli_fail("usage: blockcrypt luks kill-slot IMAGE SLOT");
		o->slot_arg = (int)slot;
		break;
	}
	return 0;
}

int cli_luks_parse_args(int argc, char **argv, int plain)
{
	struct opts o;

	return check_args(argc, argv, plain, &o);
}

int cmd_luks(int argc, char **argv)
{
	struct opts o;
	int r = check_args(argc, argv, 0, &o);

	if (r)
		return r;
	if (o.unbounded)   /* the user vouches for the header: cryptsetup's own maxima */
		bc_luks_set_pbkdf_limits(4194304, UINT32_MAX, UINT32_MAX);
	switch (o.action) {
	case ACT_FORMAT: return luks_format(&o);
	case ACT_ENCRYPT: return luks_crypt(&o, 1);
	case ACT_DECRYPT: return luks_crypt(&o, 0);
	case ACT_READ: return luks_read(&o);
	case ACT_DUMP: return luks_dump(&o);
	case ACT_TEST: return luks_test_passphrase(&o);
	case ACT_ADD: return luks_add_key(&o, 0);
	case ACT_CHANGE: return luks_add_key(&o, 1);
	case ACT_REMOVE: return luks_kill(&o, 1);
	case ACT_KILL: return luks_kill(&o, 0);
	case ACT_BACKUP: return luks_header_op(&o, 0);
	case ACT_RESTORE: return luks_header_restore(&o);
	case ACT_ERASE: return luks_rewrite(&o, 0);
	case ACT_CONVERT: return luks_rewrite(&o, 1);
	case ACT_RESIZE: return luks_header_op(&o, 1);
	case ACT_SERVE: return luks_serve(&o);
	case ACT_REENCRYPT: return luks_reencrypt(&o);
	default: return luks_uuid(&o);
	}
}

/* The plain-mode key as cryptsetup's `open --type plain` derives it: a key file (not stdin) is the raw key,
 * key-size bytes from --keyfile-offset, never hashed; a passphrase (a prompt, a line of stdin, or all of stdin
 * with --key-file -) is hashed with --hash (ripemd160 by default; "plain": used as it is). */
static int plain_key(const struct opts *o, const char *image, unsigned key_bytes, struct secret *key)
{
	const char *hash = o->hash ? o->hash : "ripemd160";
	struct key_src src = { o->key_file, o->keyfile_offset, o->keyfile_size };
	struct secret pass = { 0 };
	char prompt[512];
	int r;

	if (o->key_file && strcmp(o->key_file, "-")) {
		if (o->hash && !o->batch)
			fputs("WARNING: The --hash parameter is being ignored in plain mode with keyfile specified.\n", stderr);
		if (o->keyfile_size && !o->batch)
			fputs("WARNING: The --keyfile-size option is being ignored, the read size is the same as the "
			      "encryption key size.\n", stderr);
		src.size = key_bytes;
		return read_key_file(&src, key);
	}
	if (o->key_file && !strcmp(hash, "plain"))   /* all of stdin, unhashed: exactly the key */
		src.size = key_bytes;
	snprintf(prompt, sizeof(prompt), "Enter passphrase for %s: ", image);
	r = get_pass(&src, prompt, o->verify, &pass);
	if (!r)
		r = secret_alloc(key, key_bytes);
	if (!r) {
		key->len = key_bytes;
		r = bc_luks_plain_key(hash, pass.p, pass.len, (uint8_t *)key->p, key_bytes);
		if (r) {
			secret_free(key);
			r = lib_fail(r);
		}
	}
	secret_free(&pass);
	return r;
}

int cmd_plain(int argc, char **argv)
{
	struct secret key = { 0 };
	struct opts o;
	bc_luks *l;
	int r = check_args(argc, argv, 1, &o), enc;
	const char *spec = o.cipher ? o.cipher : "aes-cbc-essiv:sha256";
	bc_luks_crypt *probe = NULL;
	unsigned ss;

	if (r)
		return r;
	enc = o.action == ACT_PLAIN_ENCRYPT;
	ss = o.sector_size ? o.sector_size : 512;
	r = plain_key(&o, enc ? o.pos[1] : o.pos[0], o.key_bits ? o.key_bits / 8 : 32, &key);
	if (r)
		return r;
	/* the spec and key are checked before the image is created */
	r = bc_luks_crypt_alloc(&probe, spec, (const uint8_t *)key.p, key.len, ss, o.iv_large) ? lib_fail(-EINVAL) : 0;
	bc_luks_crypt_free(probe);
	if (!r && enc)
		r = prepare_target(o.pos[1], 0, 1, 0);
	if (!r) {
		r = bc_luks_open_plain(&l, enc ? o.pos[1] : o.pos[0], spec,
		                       (const uint8_t *)key.p, key.len, ss, o.iv_large, o.offset * 512, o.size * 512,
		                       o.iv_offset, enc || (o.action == ACT_PLAIN_SERVE && !o.read_only));
		r = r ? lib_fail(r) : 0;
	}
	secret_free(&key);
	if (r)
		return r;
	if (o.action == ACT_PLAIN_SERVE)
		return serve_image(l, &o);
	r = enc ? encrypt_file(l, &o, o.pos[0]) : decrypt_file(l, &o, o.pos[1]);
	bc_luks_close(l);
	return r;
}
#endif

/* ---- `cryptsetup benchmark`'s KDF rows (its formats, its 256-bit key), N/A where the luks part is not built -- */
void cli_luks_benchmark_kdf(unsigned argon2_ms)
{
	static const struct { enum bc_luks_pbkdf type; const char *name; } rows[] = {
		{ BC_LUKS_PBKDF2, "sha1" }, { BC_LUKS_PBKDF2, "sha256" }, { BC_LUKS_PBKDF2, "sha512" },
		{ BC_LUKS_PBKDF2, "ripemd160" }, { BC_LUKS_PBKDF2, "whirlpool" },
		{ BC_LUKS_ARGON2I, "argon2i" }, { BC_LUKS_ARGON2ID, "argon2id" },
	};
	const unsigned keybytes = 32;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int pbkdf2 = rows[i].type == BC_LUKS_PBKDF2;
		struct bc_luks_pbkdf_params p = { .type = rows[i].type, .hash = pbkdf2 ? rows[i].name : NULL,
		                                  .iter_time_ms = pbkdf2 ? 0 : argon2_ms };
		int r = -ENOTSUP;

#ifdef BC_HAVE_LUKS
		r = bc_luks_benchmark_pbkdf(&p, keybytes);
#endif
		if (pbkdf2 && r)
			printf("PBKDF2-%-9s     N/A\n", rows[i].name);
		else if (pbkdf2)
			printf("PBKDF2-%-9s %7u iterations per second for %u-bit key\n", rows[i].name, p.iterations,
			       keybytes * 8);
		else if (r)
			printf("%-10s N/A\n", rows[i].name);
		else
			printf("%-10s %4u iterations, %5u memory, %1u parallel threads (CPUs) for %u-bit key "
			       "(requested %u ms time)\n", rows[i].name, p.iterations, p.memory_kib, p.parallel,
			       keybytes * 8, p.iter_time_ms);
		fflush(stdout);
	}
}
