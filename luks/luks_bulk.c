/* blockcrypt-luks: whole-segment encryption and decryption, many sectors at once on every core:
 * 4 MiB chunks handed out to threads that read, run the sector cipher and write on their own (dm-crypt IVs). */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "luks_internal.h"

#define CHUNK (4u << 20)

struct bulk {
	bc_luks *l;
	int encrypt, in_fd, out_fd;
	int in_direct, out_direct;   /* O_DIRECT descriptors of the same files, or -1 */
	int in_refused, out_refused; /* the file system refused direct I/O: the page cache from then on */
	uint64_t in_base, out_base, total, in_avail;
	atomic_uint_fast64_t next, done;
	atomic_int err;
	pthread_mutex_t msg_lock;
	char msg[256];
};

/* Direct I/O (O_DIRECT): a gigabyte streamed through the page cache costs a copy and a gigabyte of cache pages
 * that nobody reads again (on a virtual machine each new page may also cost a host fault: measured 7.5 s to read
 * an uncached 1 GiB file here, 1.3 s direct). So the bulk reads and writes whole aligned chunks through a second,
 * O_DIRECT descriptor of the same file, as cryptsetup's reencryption does, and falls back to the page cache where
 * the file system refuses (EINVAL) or a chunk is not aligned. Data the page cache already holds is copied from it. */
#define DIRECT_ALIGN 4096u

static int direct_fd(int fd, int flags)
{
	char path[64];
	struct stat st;

	if (fstat(fd, &st) || !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)))
		return -1;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return open(path, flags | O_DIRECT | O_CLOEXEC);
}

/* Closed only after every worker has stopped: a descriptor closed while another worker still used it could be
 * reused by an open elsewhere in the process and take that worker's write. */
static void direct_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Whether the page cache holds all of [off, off+len) of fd (mincore on a mapping that is never touched, so
 * nothing is read in). */
static int cached(int fd, uint64_t off, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t start = off / (uint64_t)page * (uint64_t)page;
	size_t span = (size_t)(off + len - start), pages = (span + (size_t)page - 1) / (size_t)page;
	unsigned char vec[(CHUNK + 2 * DIRECT_ALIGN) / 4096 + 1];
	void *m;
	int all = 1;

	if (pages > sizeof(vec))
		return 1;
	m = mmap(NULL, span, PROT_READ, MAP_SHARED, fd, (off_t)start);
	if (m == MAP_FAILED)
		return 1;
	if (mincore(m, span, vec))
		pages = 0;   /* not known: the page cache, as without direct I/O */
	for (size_t i = 0; i < pages && all; i++)
		all = vec[i] & 1;
	munmap(m, span);
	return all;
}

static int aligned(uint64_t off, size_t len)
{
	return !(off % DIRECT_ALIGN) && !(len % DIRECT_ALIGN);
}

static int read_in(struct bulk *b, uint8_t *buf, size_t n, uint64_t off)
{
	if (b->in_direct >= 0 && !__atomic_load_n(&b->in_refused, __ATOMIC_RELAXED) && n && aligned(off, n) &&
	    !cached(b->in_fd, off, n)) {
		int r = luks_pread_all(b->in_direct, buf, n, off);

		if (r != -EINVAL)
			return r;
		__atomic_store_n(&b->in_refused, 1, __ATOMIC_RELAXED);
	}
	return luks_pread_all(b->in_fd, buf, n, off);
}

static int write_out(struct bulk *b, const uint8_t *buf, size_t n, uint64_t off)
{
	if (b->out_direct >= 0 && !__atomic_load_n(&b->out_refused, __ATOMIC_RELAXED) && aligned(off, n)) {
		int r = luks_pwrite_all(b->out_direct, buf, n, off);

		if (r != -EINVAL)
			return r;
		__atomic_store_n(&b->out_refused, 1, __ATOMIC_RELAXED);
	}
	return luks_pwrite_all(b->out_fd, buf, n, off);
}

static void bulk_error(struct bulk *b, int r)
{
	int zero = 0;

	if (atomic_compare_exchange_strong(&b->err, &zero, r)) {
		pthread_mutex_lock(&b->msg_lock);
		snprintf(b->msg, sizeof(b->msg), "%s", bc_luks_error());
		pthread_mutex_unlock(&b->msg_lock);
	}
}

/* Chunk at pos: read what the input has (zeros past its end), transform, write. */
static int bulk_chunk(struct bulk *b, uint8_t *buf, uint64_t pos)
{
	size_t n = b->total - pos < CHUNK ? (size_t)(b->total - pos) : CHUNK;
	size_t have = b->in_avail <= pos ? 0 : b->in_avail - pos < n ? (size_t)(b->in_avail - pos) : n;
	int r = read_in(b, buf, have, b->in_base + pos);

	if (r)
		return r;
	memset(buf + have, 0, n - have);
	r = bc_luks_crypt_sectors(b->l->crypt, b->encrypt, b->l->iv_tweak, pos / b->l->sector_size, buf, n);
	if (!r)
		r = write_out(b, buf, n, b->out_base + pos);
	if (!r)
		atomic_fetch_add(&b->done, n);
	return r;
}

static void *bulk_worker(void *arg)
{
	struct bulk *b = arg;
	uint8_t *buf = aligned_alloc(4096, CHUNK);

	if (!buf) {
		bulk_error(b, luks_fail(-ENOMEM, "out of memory"));
		return NULL;
	}
	while (!atomic_load(&b->err)) {
		uint64_t pos = atomic_fetch_add(&b->next, CHUNK);
		int r;

		if (pos >= b->total)
			break;
		r = bulk_chunk(b, buf, pos);
		if (r)
			bulk_error(b, r);
	}
	explicit_bzero(buf, CHUNK);
	free(buf);
	return NULL;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static int run_bulk(struct bulk *b, unsigned threads, bc_luks_progress_fn progress, void *arg)
{
	pthread_t tid[256];
	unsigned started = 0;
	int r;

	if (!b->l->crypt)
		return luks_fail(-ENOKEY, "the image is not unlocked");
	if (!threads)
		threads = luks_cpus();
	if (threads > 256)
		threads = 256;
	b->in_direct = direct_fd(b->in_fd, O_RDONLY);
	b->out_direct = direct_fd(b->out_fd, O_WRONLY);
	pthread_mutex_init(&b->msg_lock, NULL);
	while (started < threads && !pthread_create(&tid[started], NULL, bulk_worker, b))
		started++;
	if (!started)
		bulk_worker(b);
	/* the calling thread reports progress while the workers run (the callback decides how often to show it) */
	while (progress && started && atomic_load(&b->done) < b->total && !atomic_load(&b->err)) {
		sleep_ms(50);
		progress(atomic_load(&b->done), b->total, arg);
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	direct_close(&b->in_direct);
	direct_close(&b->out_direct);
	pthread_mutex_destroy(&b->msg_lock);
	r = atomic_load(&b->err);
	if (r)
		return luks_fail(r, "%s", b->msg);
	if (progress)
		progress(b->total, b->total, arg);
	if (fdatasync(b->out_fd) && errno != EINVAL)
		return luks_fail(-errno, "fsync: %s", strerror(errno));
	return 0;
}

/* Decryption to a stream (pipe, terminal): in order, on the calling thread. */
static int stream_out(struct bulk *b, bc_luks_progress_fn progress, void *arg)
{
	uint8_t *buf = aligned_alloc(4096, CHUNK);
	int r = 0;

	if (!buf)
		return luks_fail(-ENOMEM, "out of memory");
	b->in_direct = direct_fd(b->in_fd, O_RDONLY);
	b->out_direct = -1;
	for (uint64_t pos = 0; pos < b->total && !r; pos += CHUNK) {
		size_t n = b->total - pos < CHUNK ? (size_t)(b->total - pos) : CHUNK;

		r = read_in(b, buf, n, b->in_base + pos);
		if (!r)
			r = bc_luks_crypt_sectors(b->l->crypt, 0, b->l->iv_tweak, pos / b->l->sector_size, buf, n);
		for (size_t w = 0; !r && w < n;) {
			ssize_t k = write(b->out_fd, buf + w, n - w);

			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				r = luks_fail(-errno, "write: %s", strerror(errno));
			else
				w += (size_t)k;
		}
		if (!r && progress)
			progress(pos + n, b->total, arg);
	}
	direct_close(&b->in_direct);
	explicit_bzero(buf, CHUNK);
	free(buf);
	return r;
}

/* Allocates [off, off+len) of a regular file in one piece before the threads write it out of order (and direct
 * writes into holes would allocate piecemeal); a full disk is then refused before anything is written. */
static int reserve(int fd, uint64_t off, uint64_t len)
{
	struct stat st;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !len || !fallocate(fd, 0, (off_t)off, (off_t)len))
		return 0;
	if (errno == ENOSPC || errno == EFBIG || errno == EDQUOT)
		return luks_fail(-errno, "cannot allocate %llu bytes: %s", (unsigned long long)len, strerror(errno));
	return 0;   /* not supported here: the writes allocate */
}

static int seekable(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode));
}

int bc_luks_decrypt_to(bc_luks *l, int fd_out, unsigned threads, bc_luks_progress_fn progress, void *arg)
{
	struct bulk b = { .l = l, .encrypt = 0, .in_fd = l->data_fd, .out_fd = fd_out, .in_base = l->data_offset,
	                  .total = l->data_size, .in_avail = l->data_size };
	struct stat st;

	if (!l->crypt)
		return luks_fail(-ENOKEY, "the image is not unlocked");
	if (!seekable(fd_out))
		return stream_out(&b, progress, arg);
	/* a regular file gets its final size at once, allocated in one piece where the filesystem can (the
	 * threads write it out of order); a block device has its size */
	if (fstat(fd_out, &st) == 0 && S_ISREG(st.st_mode)) {
		int r = reserve(fd_out, 0, l->data_size);

		if (r)
			return r;
		if (ftruncate(fd_out, (off_t)l->data_size))
			return luks_fail(-errno, "output: %s", strerror(errno));
	}
	return run_bulk(&b, threads, progress, arg);
}

int bc_luks_encrypt_from(bc_luks *l, int fd_in, uint64_t in_size, unsigned threads, bc_luks_progress_fn progress,
                         void *arg)
{
	uint64_t need = (in_size + l->sector_size - 1) / l->sector_size * l->sector_size;
	struct bulk b = { .l = l, .encrypt = 1, .in_fd = fd_in, .out_fd = l->data_fd, .out_base = l->data_offset,
	                  .total = need, .in_avail = in_size };

	if (!l->crypt)
		return luks_fail(-ENOKEY, "the image is not unlocked");
	if (!l->writable)
		return luks_fail(-EBADF, "the image is open read-only");
	if (need > l->data_size) {
		if (!l->dynamic)
			return luks_fail(-ENOSPC, "the plaintext (%llu bytes) does not fit the %llu-byte data segment",
			                 (unsigned long long)in_size, (unsigned long long)l->data_size);
		if (ftruncate(l->data_fd, (off_t)(l->data_offset + need)))
			return luks_fail(-errno, "cannot extend the image: %s", strerror(errno));
		l->data_size = need;
		l->data_file_size = l->data_offset + need;
	}
	if (!seekable(fd_in))
		return luks_fail(-EINVAL, "the plaintext must be a file or a block device");
	int r = reserve(l->data_fd, l->data_offset, need);

	return r ? r : run_bulk(&b, threads, progress, arg);
}
