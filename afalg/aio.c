/* blockcrypt-afalg: io_submit AIO on emulated AF_ALG sockets, as libkcapi issues it through syscall(): reads and writes
 * done at submission, their events queued per context. Semantics: Linux fs/aio.c, net/socket.c sock_read_iter/write_iter. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/aio_abi.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "afalg.h"

#define EXPORT __attribute__((visibility("default")))

/* One context's completed emulated requests, oldest first; at most cap of them (the nr_events of io_setup). */
struct aio_queue {
	aio_context_t ctx;
	struct io_event *ev;
	size_t n, cap;
	struct aio_queue *next;
};

static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static struct aio_queue *queues;
static long (*real_syscall)(long, ...);
static pthread_once_t aio_once = PTHREAD_ONCE_INIT;

/* A child has none of its parent's contexts (the kernel's belong to the parent's memory). */
static void aio_fork_child(void)
{
	struct aio_queue *q, *next;

	pthread_mutex_init(&qlock, NULL);
	for (q = queues; q; q = next) {
		next = q->next;
		free(q->ev);
		free(q);
	}
	queues = NULL;
}

static void aio_resolve(void)
{
	void *p = dlsym(RTLD_NEXT, "syscall");

	memcpy(&real_syscall, &p, sizeof(p));
	pthread_atfork(NULL, NULL, aio_fork_child);
}

static long sys(long nr, long a, long b, long c, long d, long e, long f)
{
	long r = real_syscall(nr, a, b, c, d, e, f);

	return r < 0 ? -errno : r;
}

/* With qlock held. */
static struct aio_queue **queue_of(aio_context_t ctx)
{
	struct aio_queue **q;

	for (q = &queues; *q && (*q)->ctx != ctx; q = &(*q)->next)
		;
	return q;
}

static long aio_setup(unsigned nr, aio_context_t *ctxp)
{
	long r = sys(SYS_io_setup, nr, (long)ctxp, 0, 0, 0, 0);
	struct aio_queue *q;

	if (r < 0)
		return r;
	q = calloc(1, sizeof(*q));
	if (q) {
		q->ev = calloc(nr, sizeof(*q->ev));
		q->cap = nr;
	}
	if (!q || !q->ev) {
		free(q);
		sys(SYS_io_destroy, (long)*ctxp, 0, 0, 0, 0, 0);
		return -ENOMEM;
	}
	q->ctx = *ctxp;
	pthread_mutex_lock(&qlock);
	q->next = queues;
	queues = q;
	pthread_mutex_unlock(&qlock);
	return 0;
}

static long aio_destroy(aio_context_t ctx)
{
	struct aio_queue **q, *dead = NULL;

	pthread_mutex_lock(&qlock);
	q = queue_of(ctx);
	if (*q) {
		dead = *q;
		*q = dead->next;
	}
	pthread_mutex_unlock(&qlock);
	if (dead) {
		free(dead->ev);
		free(dead);
	}
	return sys(SYS_io_destroy, (long)ctx, 0, 0, 0, 0, 0);
}

/* The emulated socket a request reads or writes (with a reference), or NULL: every other request goes to the kernel. */
static struct afalg_sock *emulated(const struct iocb *cb)
{
	switch (cb->aio_lio_opcode) {
	case IOCB_CMD_PREAD:
	case IOCB_CMD_PWRITE:
	case IOCB_CMD_PREADV:
	case IOCB_CMD_PWRITEV:
		return afalg_fd_get((int)cb->aio_fildes);
	default:
		return NULL;   /* poll and fsync see the eventfd standing for the socket, as poll(2) does */
	}
}

/* One request on s, done now: its event queued in q, or a negative errno for io_submit itself. */
static long submit_one(struct aio_queue *q, struct iocb *cb, struct afalg_sock *s)
{
	int out = cb->aio_lio_opcode == IOCB_CMD_PWRITE || cb->aio_lio_opcode == IOCB_CMD_PWRITEV;
	int vec = cb->aio_lio_opcode == IOCB_CMD_PREADV || cb->aio_lio_opcode == IOCB_CMD_PWRITEV;
	struct iovec one = { (void *)(uintptr_t)cb->aio_buf, cb->aio_nbytes };
	struct msghdr m = { .msg_iov = &one, .msg_iovlen = 1 };
	uint64_t signal = 1;
	int flags = 0;
	long res;

	/* io_submit's own checks (aio_prep_rw, kiocb_set_rw_flags, import_iovec) */
	if (cb->aio_reserved2 || (cb->aio_flags & ~(IOCB_FLAG_RESFD | IOCB_FLAG_IOPRIO)))
		return -EINVAL;
	if (cb->aio_rw_flags & ~(__kernel_rwf_t)RWF_NOWAIT)
		return -EOPNOTSUPP;
	if (cb->aio_rw_flags & RWF_NOWAIT)
		flags = MSG_DONTWAIT;
	if ((cb->aio_flags & IOCB_FLAG_RESFD) && sys(SYS_fcntl, (long)cb->aio_resfd, F_GETFD, 0, 0, 0, 0) < 0)
		return -EBADF;
	if (vec) {
		if (cb->aio_nbytes > IOV_MAX)
			return -EINVAL;
		m.msg_iov = (struct iovec *)(uintptr_t)cb->aio_buf;
		m.msg_iovlen = cb->aio_nbytes;
	}
	if (q->n == q->cap)
		return -EAGAIN;   /* the ring is full */
	/* a socket has no file position (sock_read_iter, sock_write_iter) */
	if (cb->aio_offset)
		res = -ESPIPE;
	else if (!out && !afalg_iov_total(m.msg_iov, m.msg_iovlen))
		res = 0;   /* an empty read is not passed on */
	else
		res = afalg_fd_io(s, (int)cb->aio_fildes, &m, flags, out);
	q->ev[q->n++] = (struct io_event){ .data = cb->aio_data, .obj = (uint64_t)(uintptr_t)cb, .res = res };
	if (cb->aio_flags & IOCB_FLAG_RESFD)
		sys(SYS_write, (long)cb->aio_resfd, (long)&signal, sizeof(signal), 0, 0, 0);
	return 0;
}

static long aio_submit(aio_context_t ctx, long nr, struct iocb **cbs)
{
	struct aio_queue *q;
	long done = 0, r;

	if (nr < 0)
		return -EINVAL;
	/* the context is the kernel's: it says whether it exists */
	r = sys(SYS_io_submit, (long)ctx, 0, (long)cbs, 0, 0, 0);
	if (r < 0)
		return r;
	while (done < nr) {
		struct afalg_sock *s = emulated(cbs[done]);
		long end = done + 1;

		if (!s) {   /* a run of the kernel's requests, as they are */
			while (end < nr && !(s = emulated(cbs[end])))
				end++;
			if (s)
				afalg_sock_put(s);
			r = sys(SYS_io_submit, (long)ctx, end - done, (long)(cbs + done), 0, 0, 0);
			if (r < 0)
				return done ? done : r;
			done += r;
			if (done < end)
				return done;
			continue;
		}
		pthread_mutex_lock(&qlock);
		q = *queue_of(ctx);
		r = q ? submit_one(q, cbs[done], s) : -EINVAL;
		pthread_mutex_unlock(&qlock);
		afalg_sock_put(s);
		if (r < 0)
			return done ? done : r;
		done++;
	}
	return done;
}

/* io_getevents and io_pgetevents: the queued events first, then the kernel's (waiting only for what is still short
 * of min_nr). */
static long aio_getevents(long nr_call, aio_context_t ctx, long min_nr, long nr, struct io_event *ev,
                          struct timespec *timeout, long sig)
{
	static struct timespec zero;
	struct aio_queue *q;
	long got = 0, r;

	pthread_mutex_lock(&qlock);
	q = *queue_of(ctx);
	if (q && q->n && min_nr >= 0 && nr >= min_nr) {
		got = (long)q->n < nr ? (long)q->n : nr;
		memcpy(ev, q->ev, (size_t)got * sizeof(*ev));
		q->n -= (size_t)got;
		memmove(q->ev, q->ev + got, q->n * sizeof(*ev));
	}
	pthread_mutex_unlock(&qlock);
	if (!got)
		return sys(nr_call, (long)ctx, min_nr, nr, (long)ev, (long)timeout, sig);
	if (got == nr)
		return got;
	r = sys(nr_call, (long)ctx, got < min_nr ? min_nr - got : 0, nr - got, (long)(ev + got),
	        (long)(got < min_nr ? timeout : &zero), sig);
	return r > 0 ? got + r : got;
}

EXPORT long syscall(long nr, ...)
{
	long a[6];
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	pthread_once(&aio_once, aio_resolve);
	switch (nr) {
	case SYS_io_setup:
		return afalg_ret_errno(aio_setup((unsigned)a[0], (aio_context_t *)a[1]));
	case SYS_io_destroy:
		return afalg_ret_errno(aio_destroy((aio_context_t)a[0]));
	case SYS_io_submit:
		return afalg_ret_errno(aio_submit((aio_context_t)a[0], a[1], (struct iocb **)a[2]));
	case SYS_io_getevents:
#ifdef SYS_io_pgetevents
	case SYS_io_pgetevents:
#endif
		return afalg_ret_errno(aio_getevents(nr, (aio_context_t)a[0], a[1], a[2], (struct io_event *)a[3],
		                                     (struct timespec *)a[4], a[5]));
	default:
		return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	}
}
