/* blockcrypt-afalg: the kernel crypto API's AF_ALG socket interface (and the NETLINK_CRYPTO
 * algorithm report libkcapi asks for) emulated in user space over libblockcrypt's public API.
 * Semantics: Linux Documentation/crypto/userspace-if.rst, crypto/af_alg.c, algif_skcipher.c,
 * algif_aead.c, algif_hash.c and crypto/crypto_user.c. */
#ifndef BC_AFALG_H
#define BC_AFALG_H

#include <linux/cryptouser.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/single_threaded.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "blockcrypt.h"

enum afalg_kind { AFALG_TFM, AFALG_OP, AFALG_NETLINK };
enum afalg_type { AFALG_NONE, AFALG_SKCIPHER, AFALG_AEAD, AFALG_HASH, AFALG_RNG };

/* The largest IV, block and digest any algorithm of the library has. */
#define AFALG_IV_MAX 64
#define AFALG_DIGEST_MAX 64

/* One emulated socket: what the kernel keeps in struct alg_sock and its type's ctx. Shared by every
 * descriptor that dup() made of it, and by its op sockets (the parent); freed with the last reference. */
struct afalg_sock {
	pthread_mutex_t lock;          /* the kernel's lock_sock */
	pthread_cond_t data;           /* a sender came (a blocked reader waits on it) */
	int waiters;                   /* readers blocked on data: a sender with none has nothing to wake */
	int refs;                      /* atomic: descriptors, children and callers in flight */
	enum afalg_kind kind;
	enum afalg_type type;
	struct afalg_sock *parent;     /* an op socket's tfm socket */

	/* tfm socket (and the op socket's view of it through parent) */
	bc_skcipher *sk;
	bc_aead *ae;
	bc_shash *sh;                  /* keyed, never hashed into: op sockets copy it */
	int keyed;                     /* a key is set, or the algorithm needs none */
	int children;                  /* op sockets: bind refuses with -EBUSY */
	int keyed_children;            /* those using the key: setsockopt refuses with -EBUSY */
	size_t ivsize, blocksize;

	/* op socket */
	int has_key;                   /* accepted (or upgraded) with the parent keyed */
	int init, more, enc;
	int no_pollin;                 /* the eventfd standing for it is read empty: poll reports no POLLIN */
	uint32_t assoclen;
	uint8_t iv[AFALG_IV_MAX];
	uint8_t *buf;                  /* data sent and not yet processed: buf[off .. off + used) */
	size_t cap, off, used;
	bc_shash *hs;                  /* hash op: the running state */
	int have_result;
	uint8_t result[AFALG_DIGEST_MAX];

	/* netlink: the reply waiting to be received */
	uint8_t *reply;
	size_t replylen;
};

/* Until a second thread starts, the reference counts and the descriptor table's slot locks are plain memory:
 * a locked instruction costs about as much as the rest of a small request (pthread_create orders what came before). */
#define AFALG_SINGLE_THREADED() (__libc_single_threaded != 0)

/* Whether to emulate after the real socket() failed with err (or always, BLOCKCRYPT_AFALG=always). */
int afalg_should_emulate(int err);

struct afalg_sock *afalg_sock_new(enum afalg_kind kind);
void afalg_sock_get(struct afalg_sock *s);
void afalg_sock_put(struct afalg_sock *s);

/* The emulated socket behind a descriptor, with a reference for the caller, or NULL (preload.c). */
struct afalg_sock *afalg_fd_get(int fd);
/* A send (out) or receive on s as the descriptor fd: a count or a negative errno. */
ssize_t afalg_fd_io(struct afalg_sock *s, int fd, struct msghdr *msg, int flags, int out);

/* r, or -1 with errno set to -r when r is negative (a system call's return). */
long afalg_ret_errno(long r);
size_t afalg_iov_total(const struct iovec *iov, size_t n);

/* The operations: 0 or a count on success, a negative errno otherwise. fd is the descriptor the
 * call came through (its O_NONBLOCK decides whether an empty socket blocks). */
int afalg_bind(struct afalg_sock *s, const struct sockaddr *addr, socklen_t len);
int afalg_setsockopt(struct afalg_sock *s, int level, int name, const void *val, socklen_t len);
/* A new op socket (or, on a hash op socket, a clone) in *out. */
int afalg_accept(struct afalg_sock *s, struct afalg_sock **out);
ssize_t afalg_send(struct afalg_sock *s, int fd, const struct msghdr *msg, int flags);
ssize_t afalg_recv(struct afalg_sock *s, int fd, struct msghdr *msg, int flags);
int afalg_getsockname(struct afalg_sock *s, struct sockaddr *addr, socklen_t *len);

/* NETLINK_CRYPTO: a CRYPTO_MSG_GETALG request answered from the library's registry. */
ssize_t afalg_netlink_send(struct afalg_sock *s, const struct msghdr *msg);
ssize_t afalg_netlink_recv(struct afalg_sock *s, struct msghdr *msg, int flags);

/* Whether name is an rng the rng socket type serves (over getrandom(2): the library has none). */
int afalg_rng_name(const char *name);

/* The registry's entry for a driver name (else an algorithm name) of the given type: 0 if found,
 * its strings copied into name/driver (CRYPTO_MAX_NAME bytes each). */
int afalg_lookup(const char *name, const char *driver, enum bc_type type, struct bc_driver_info *out,
                 char *name_buf, char *driver_buf);

#endif
