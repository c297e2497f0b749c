/* blockcrypt-afalg: the libc socket and descriptor calls interposed (LD_PRELOAD), so that AF_ALG and
 * NETLINK_CRYPTO sockets the kernel refuses live in this process. Semantics: socket(7), accept(2), dup(2), splice(2). */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "afalg.h"

#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef NETLINK_CRYPTO
#define NETLINK_CRYPTO 21
#endif

/* the calls this library stands in for (the rest of it is hidden) */
#define EXPORT __attribute__((visibility("default")))

static struct {
	int (*socket)(int, int, int);
	int (*bind)(int, const struct sockaddr *, socklen_t);
	int (*setsockopt)(int, int, int, const void *, socklen_t);
	int (*getsockname)(int, struct sockaddr *, socklen_t *);
	int (*accept)(int, struct sockaddr *, socklen_t *);
	int (*accept4)(int, struct sockaddr *, socklen_t *, int);
	ssize_t (*sendmsg)(int, const struct msghdr *, int);
	ssize_t (*send)(int, const void *, size_t, int);
	ssize_t (*sendto)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
	ssize_t (*write)(int, const void *, size_t);
	ssize_t (*writev)(int, const struct iovec *, int);
	ssize_t (*read)(int, void *, size_t);
	ssize_t (*readv)(int, const struct iovec *, int);
	ssize_t (*recv)(int, void *, size_t, int);
	ssize_t (*recvfrom)(int, void *, size_t, int, struct sockaddr *, socklen_t *);
	ssize_t (*recvmsg)(int, struct msghdr *, int);
	int (*close)(int);
	int (*dup)(int);
	int (*dup2)(int, int);
	int (*dup3)(int, int, int);
	int (*fcntl)(int, int, ...);
	int (*fcntl64)(int, int, ...);
	ssize_t (*splice)(int, loff_t *, int, loff_t *, size_t, unsigned int);
	ssize_t (*__read_chk)(int, void *, size_t, size_t);
	ssize_t (*__recv_chk)(int, void *, size_t, size_t, int);
	ssize_t (*__recvfrom_chk)(int, void *, size_t, size_t, int, struct sockaddr *, socklen_t *);
} real;

static int always;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static void fork_child(void);

/* dlsym hands back void *; the conversion to the exact prototype goes through memcpy */
#define RESOLVE(f) do { void *p = dlsym(RTLD_NEXT, #f); memcpy(&real.f, &p, sizeof(p)); } while (0)

static void resolve(void)
{
	const char *e = getenv("BLOCKCRYPT_AFALG");

	always = e && !strcmp(e, "always");
	RESOLVE(socket);
	RESOLVE(bind);
	RESOLVE(setsockopt);
	RESOLVE(getsockname);
	RESOLVE(accept);
	RESOLVE(accept4);
	RESOLVE(sendmsg);
	RESOLVE(send);
	RESOLVE(sendto);
	RESOLVE(write);
	RESOLVE(writev);
	RESOLVE(read);
	RESOLVE(readv);
	RESOLVE(recv);
	RESOLVE(recvfrom);
	RESOLVE(recvmsg);
	RESOLVE(close);
	RESOLVE(dup);
	RESOLVE(dup2);
	RESOLVE(dup3);
	RESOLVE(fcntl);
	RESOLVE(fcntl64);
	RESOLVE(splice);
	RESOLVE(__read_chk);
	RESOLVE(__recv_chk);
	RESOLVE(__recvfrom_chk);
	if (!real.fcntl64)
		real.fcntl64 = real.fcntl;
	pthread_atfork(NULL, NULL, fork_child);
}

#define REAL(f) (pthread_once(&once, resolve), real.f)

int afalg_should_emulate(int err)
{
	pthread_once(&once, resolve);
	return always || err == EAFNOSUPPORT || err == EPERM || err == EACCES || err == EPROTONOSUPPORT;
}

/* ---- the descriptor table: which descriptors are emulated sockets --------------------------------------- */

/* Pages of slots indexed by descriptor, allocated when first needed and never freed, so that finding a socket
 * takes no global lock: each slot holds its socket's address with bit 0 as the slot's own lock, held only while
 * the reference is taken (a close in another thread cannot free the socket in between). */
#define TAB_SHIFT 10
#define TAB_PAGE (1u << TAB_SHIFT)
#define TAB_PAGES 1024u   /* descriptors below 2^20, the kernel's default nr_open */
#define SLOT_LOCKED ((uintptr_t)1)

static uintptr_t *tab[TAB_PAGES];
static int tab_live;   /* atomic: entries in use; 0 lets every other descriptor pass straight through */

static uintptr_t *slot_of(int fd)
{
	uintptr_t *page;

	if (fd < 0 || (unsigned)fd >= TAB_PAGE * TAB_PAGES)
		return NULL;
	page = __atomic_load_n(&tab[(unsigned)fd >> TAB_SHIFT], __ATOMIC_ACQUIRE);
	return page ? page + ((unsigned)fd & (TAB_PAGE - 1)) : NULL;
}

/* The slot's socket (or 0), the slot left locked. */
static uintptr_t slot_lock(uintptr_t *slot)
{
	uintptr_t v = __atomic_load_n(slot, __ATOMIC_RELAXED);

	if (AFALG_SINGLE_THREADED())
		return v;
	for (;;) {
		if (v & SLOT_LOCKED) {
			sched_yield();   /* the holder may have lost its CPU */
			v = __atomic_load_n(slot, __ATOMIC_RELAXED);
		} else if (__atomic_compare_exchange_n(slot, &v, v | SLOT_LOCKED, 1, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			return v;
		}
	}
}

static void slot_unlock(uintptr_t *slot, struct afalg_sock *s)
{
	__atomic_store_n(slot, (uintptr_t)s, __ATOMIC_RELEASE);
}

/* A fork in the middle of another thread's lookup: the child has no such thread, its slots are free. */
static void fork_child(void)
{
	for (unsigned i = 0; i < TAB_PAGES; i++)
		if (tab[i])
			for (unsigned j = 0; j < TAB_PAGE; j++)
				tab[i][j] &= ~SLOT_LOCKED;
}

/* The socket behind fd with a reference for the caller, or NULL. */
struct afalg_sock *afalg_fd_get(int fd)
{
	uintptr_t *slot;
	struct afalg_sock *s;

	if (!__atomic_load_n(&tab_live, __ATOMIC_ACQUIRE) || !(slot = slot_of(fd)) ||
	    !__atomic_load_n(slot, __ATOMIC_RELAXED))
		return NULL;
	s = (struct afalg_sock *)slot_lock(slot);
	if (s)
		afalg_sock_get(s);
	slot_unlock(slot, s);
	return s;
}

/* fd now names s (the table takes a reference of its own); what it named before is dropped. */
static int attach(int fd, struct afalg_sock *s)
{
	uintptr_t *slot = slot_of(fd), *page, *none = NULL;
	struct afalg_sock *old;

	if (!slot) {
		if (fd < 0 || (unsigned)fd >= TAB_PAGE * TAB_PAGES)
			return -EMFILE;
		page = calloc(TAB_PAGE, sizeof(*page));
		if (!page)
			return -ENOMEM;
		if (!__atomic_compare_exchange_n(&tab[(unsigned)fd >> TAB_SHIFT], &none, page, 0, __ATOMIC_ACQ_REL,
		                                 __ATOMIC_ACQUIRE))
			free(page);   /* another thread's page is there */
		slot = slot_of(fd);
	}
	old = (struct afalg_sock *)slot_lock(slot);
	afalg_sock_get(s);
	if (!old)
		__atomic_add_fetch(&tab_live, 1, __ATOMIC_RELEASE);
	slot_unlock(slot, s);
	if (old)
		afalg_sock_put(old);
	return 0;
}

static void detach(int fd)
{
	uintptr_t *slot;
	struct afalg_sock *old;

	if (!__atomic_load_n(&tab_live, __ATOMIC_ACQUIRE) || !(slot = slot_of(fd)) ||
	    !__atomic_load_n(slot, __ATOMIC_RELAXED))
		return;
	old = (struct afalg_sock *)slot_lock(slot);
	if (old)
		__atomic_sub_fetch(&tab_live, 1, __ATOMIC_RELEASE);
	slot_unlock(slot, NULL);
	if (old)
		afalg_sock_put(old);
}

/* A real descriptor for s (an eventfd: poll sees it readable and writable, close and fork work). Takes s. */
static int new_fd(struct afalg_sock *s, int flags)
{
	int fd = eventfd(1, (flags & SOCK_CLOEXEC ? EFD_CLOEXEC : 0) | (flags & SOCK_NONBLOCK ? EFD_NONBLOCK : 0));
	int err;

	if (fd < 0) {
		err = errno;
		afalg_sock_put(s);
		errno = err;
		return -1;
	}
	err = attach(fd, s);
	afalg_sock_put(s);
	if (err) {
		REAL(close)(fd);
		errno = -err;
		return -1;
	}
	return fd;
}

long afalg_ret_errno(long r)
{
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

/* ---- the interposed calls ------------------------------------------------------------------------------- */

EXPORT int socket(int domain, int type, int protocol)
{
	int base = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC), fd;
	enum afalg_kind kind;
	struct afalg_sock *s;

	pthread_once(&once, resolve);
	if (domain == AF_ALG)
		kind = AFALG_TFM;
	else if (domain == AF_NETLINK && protocol == NETLINK_CRYPTO)
		kind = AFALG_NETLINK;
	else
		return real.socket(domain, type, protocol);
	if (!always) {
		fd = real.socket(domain, type, protocol);
		if (fd >= 0 || !afalg_should_emulate(errno))
			return fd;
	}
	if (kind == AFALG_TFM && base != SOCK_SEQPACKET)
		return (int)afalg_ret_errno(-ESOCKTNOSUPPORT);
	if (kind == AFALG_TFM && protocol)
		return (int)afalg_ret_errno(-EPROTONOSUPPORT);
	if (kind == AFALG_NETLINK && base != SOCK_RAW && base != SOCK_DGRAM)
		return (int)afalg_ret_errno(-ESOCKTNOSUPPORT);
	s = afalg_sock_new(kind);
	if (!s)
		return (int)afalg_ret_errno(-ENOMEM);
	return new_fd(s, type);
}

EXPORT int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	struct afalg_sock *s = afalg_fd_get(fd);
	int r;

	if (!s)
		return REAL(bind)(fd, addr, len);
	r = afalg_bind(s, addr, len);
	afalg_sock_put(s);
	return (int)afalg_ret_errno(r);
}

EXPORT int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	struct afalg_sock *s = afalg_fd_get(fd);
	int r;

	if (!s)
		return REAL(setsockopt)(fd, level, name, val, len);
	r = afalg_setsockopt(s, level, name, val, len);
	afalg_sock_put(s);
	return (int)afalg_ret_errno(r);
}

EXPORT int getsockname(int fd, struct sockaddr *addr, socklen_t *len)
{
	struct afalg_sock *s = afalg_fd_get(fd);
	int r;

	if (!s)
		return REAL(getsockname)(fd, addr, len);
	r = afalg_getsockname(s, addr, len);
	afalg_sock_put(s);
	return (int)afalg_ret_errno(r);
}

EXPORT int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags)
{
	struct afalg_sock *s = afalg_fd_get(fd), *c;
	int r;

	if (!s)
		return REAL(accept4)(fd, addr, len, flags);
	r = afalg_accept(s, &c);
	afalg_sock_put(s);
	if (r)
		return (int)afalg_ret_errno(r);
	/* an op socket has no address */
	if (len)
		*len = 0;
	return new_fd(c, flags);
}

EXPORT int accept(int fd, struct sockaddr *addr, socklen_t *len)
{
	struct afalg_sock *s = afalg_fd_get(fd);

	if (!s)
		return REAL(accept)(fd, addr, len);
	afalg_sock_put(s);
	return accept4(fd, addr, len, 0);
}

ssize_t afalg_fd_io(struct afalg_sock *s, int fd, struct msghdr *msg, int flags, int out)
{
	if (s->kind == AFALG_NETLINK)
		return out ? afalg_netlink_send(s, msg) : afalg_netlink_recv(s, msg, flags);
	return out ? afalg_send(s, fd, msg, flags) : afalg_recv(s, fd, msg, flags);
}

static ssize_t emu_send(struct afalg_sock *s, int fd, const struct msghdr *msg, int flags)
{
	ssize_t r = afalg_fd_io(s, fd, (struct msghdr *)msg, flags, 1);

	afalg_sock_put(s);
	return afalg_ret_errno(r);
}

static ssize_t emu_recv(struct afalg_sock *s, int fd, struct msghdr *msg, int flags)
{
	ssize_t r = afalg_fd_io(s, fd, msg, flags, 0);

	afalg_sock_put(s);
	return afalg_ret_errno(r);
}

EXPORT ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	struct afalg_sock *s = afalg_fd_get(fd);

	if (!s)
		return REAL(sendmsg)(fd, msg, flags);
	if (!msg) {
		afalg_sock_put(s);
		return afalg_ret_errno(-EFAULT);
	}
	return emu_send(s, fd, msg, flags);
}

static ssize_t send_buf(struct afalg_sock *s, int fd, const void *buf, size_t len, int flags)
{
	struct iovec v = { (void *)buf, len };
	struct msghdr m = { .msg_iov = &v, .msg_iovlen = 1 };

	return emu_send(s, fd, &m, flags);
}

EXPORT ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	struct afalg_sock *s = afalg_fd_get(fd);

	return s ? send_buf(s, fd, buf, len, flags) : REAL(send)(fd, buf, len, flags);
}

EXPORT ssize_t sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *to, socklen_t tolen)
{
	struct afalg_sock *s = afalg_fd_get(fd);

	return s ? send_buf(s, fd, buf, len, flags) : REAL(sendto)(fd, buf, len, flags, to, tolen);
}

EXPORT ssize_t write(int fd, const void *buf, size_t len)
{
	struct afalg_sock *s = afalg_fd_get(fd);

	return s ? send_buf(s, fd, buf, len, 0) : REAL(write)(fd, buf, len);
}

EXPORT ssize_t writev(int fd, const struct iovec *iov, int n)
{
	struct afalg_sock *s = afalg_fd_get(fd);
	struct msghdr m = { .msg_iov = (struct iovec *)iov, .msg_iovlen = n > 0 ? (size_t)n : 0 };

	if (!s)
		return REAL(writev)(fd, iov, n);
	if (n < 0) {
		afalg_sock_put(s);
		return afalg_ret_errno(-EINVAL);
	}
	return emu_send(s, fd, &m, 0);
}

static ssize_t recv_buf(struct afalg_sock *s, int fd, void *buf, size_t len, int flags)
{
	struct iovec v = { buf, len };
	struct msghdr m = { .msg_iov = &v, .msg_iovlen = 1 };

	return emu_recv(s, fd, &m, flags);
}

EXPORT ssize_t read(int fd, void *buf, size_t len)
{
	struct afalg_sock *s = afalg_fd_get(fd);

	return s ? recv_buf(s, fd, buf, len, 0) : REAL(read)(fd, buf, len);
}

EXPORT ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	struct afalg_sock *s = afalg_fd_get(fd);

	return s ? recv_buf(s, fd, buf, len, flags) : REAL(recv)(fd, buf, len, flags);
}

EXPORT ssize_t recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *from, socklen_t *fromlen)
{
	struct afalg_sock *s = afalg_fd_get(fd);

	if (!s)
		return REAL(recvfrom)(fd, buf, len, flags, from, fromlen);
	if (fromlen)
		*fromlen = 0;
	return recv_buf(s, fd, buf, len, flags);
}

/* _FORTIFY_SOURCE's forms (Debian builds its programs with it): a buffer smaller than the count asked for goes to
 * the real check on a closed descriptor, which reports the overflow and stops the program as it would. */
EXPORT ssize_t __read_chk(int fd, void *buf, size_t len, size_t buflen)
{
	struct afalg_sock *s = afalg_fd_get(fd);

	if (!s)
		return REAL(__read_chk)(fd, buf, len, buflen);
	if (len > buflen) {
		afalg_sock_put(s);
		return REAL(__read_chk)(-1, buf, len, buflen);
	}
	return recv_buf(s, fd, buf, len, 0);
}

EXPORT ssize_t __recv_chk(int fd, void *buf, size_t len, size_t buflen, int flags)
{
	struct afalg_sock *s = afalg_fd_get(fd);

	if (!s)
		return REAL(__recv_chk)(fd, buf, len, buflen, flags);
	if (len > buflen) {
		afalg_sock_put(s);
		return REAL(__recv_chk)(-1, buf, len, buflen, flags);
	}
	return recv_buf(s, fd, buf, len, flags);
}

EXPORT ssize_t __recvfrom_chk(int fd, void *buf, size_t len, size_t buflen, int flags, struct sockaddr *from,
                              socklen_t *fromlen)
{
	struct afalg_sock *s = afalg_fd_get(fd);

	if (!s)
		return REAL(__recvfrom_chk)(fd, buf, len, buflen, flags, from, fromlen);
	if (len > buflen) {
		afalg_sock_put(s);
		return REAL(__recvfrom_chk)(-1, buf, len, buflen, flags, from, fromlen);
	}
	if (fromlen)
		*fromlen = 0;
	return recv_buf(s, fd, buf, len, flags);
}

EXPORT ssize_t readv(int fd, const struct iovec *iov, int n)
{
	struct afalg_sock *s = afalg_fd_get(fd);
	struct msghdr m = { .msg_iov = (struct iovec *)iov, .msg_iovlen = n > 0 ? (size_t)n : 0 };

	if (!s)
		return REAL(readv)(fd, iov, n);
	if (n < 0) {
		afalg_sock_put(s);
		return afalg_ret_errno(-EINVAL);
	}
	return emu_recv(s, fd, &m, 0);
}

EXPORT ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	struct afalg_sock *s = afalg_fd_get(fd);

	if (!s)
		return REAL(recvmsg)(fd, msg, flags);
	if (!msg) {
		afalg_sock_put(s);
		return afalg_ret_errno(-EFAULT);
	}
	return emu_recv(s, fd, msg, flags);
}

EXPORT int close(int fd)
{
	detach(fd);
	return REAL(close)(fd);
}

/* newfd, just made a copy of fd by the real call, names the same socket */
static int dup_result(int fd, int newfd)
{
	struct afalg_sock *s;
	int err;

	if (newfd < 0 || newfd == fd)
		return newfd;
	s = afalg_fd_get(fd);
	if (!s) {
		detach(newfd);   /* an emulated socket it named is closed */
		return newfd;
	}
	err = attach(newfd, s);
	afalg_sock_put(s);
	if (err) {
		REAL(close)(newfd);
		return (int)afalg_ret_errno(err);
	}
	return newfd;
}

EXPORT int dup(int fd)
{
	return dup_result(fd, REAL(dup)(fd));
}

EXPORT int dup2(int fd, int newfd)
{
	return dup_result(fd, REAL(dup2)(fd, newfd));
}

EXPORT int dup3(int fd, int newfd, int flags)
{
	return dup_result(fd, REAL(dup3)(fd, newfd, flags));
}

/* fcntl's third argument is an int, a long or a pointer as cmd says; all of them travel as a pointer-sized word */
static int fcntl_common(int (*f)(int, int, ...), int fd, int cmd, void *arg)
{
	int r = f(fd, cmd, arg);

	if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)
		return dup_result(fd, r);
	return r;
}

EXPORT int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return fcntl_common(REAL(fcntl), fd, cmd, arg);
}

EXPORT int fcntl64(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return fcntl_common(REAL(fcntl64), fd, cmd, arg);
}

/* splice from a pipe into an op socket (libkcapi's vmsplice path): the pipe's bytes are read and sent as by
 * sendmsg, SPLICE_F_MORE meaning MSG_MORE. Out of an emulated socket nothing can be spliced. */
EXPORT ssize_t splice(int in, loff_t *inoff, int out, loff_t *outoff, size_t len, unsigned int flags)
{
	struct afalg_sock *si = afalg_fd_get(in), *so = afalg_fd_get(out);
	ssize_t r;
	uint8_t *buf;

	if (!si && !so)
		return REAL(splice)(in, inoff, out, outoff, len, flags);
	if (si || outoff) {
		if (si)
			afalg_sock_put(si);
		if (so)
			afalg_sock_put(so);
		return afalg_ret_errno(-EINVAL);
	}
	if (len > (1u << 20))
		len = 1u << 20;
	buf = malloc(len ? len : 1);
	if (!buf) {
		afalg_sock_put(so);
		return afalg_ret_errno(-ENOMEM);
	}
	r = inoff ? pread(in, buf, len, *inoff) : REAL(read)(in, buf, len);
	if (r < 0) {
		r = -errno;
		afalg_sock_put(so);
	} else {
		if (inoff)
			*inoff += r;
		r = send_buf(so, out, buf, (size_t)r, (flags & SPLICE_F_MORE) ? MSG_MORE : 0);
		if (r < 0)
			r = -errno;
	}
	explicit_bzero(buf, len);
	free(buf);
	return afalg_ret_errno(r);
}
