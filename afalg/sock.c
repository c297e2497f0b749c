/* blockcrypt-afalg: the AF_ALG socket types skcipher, aead and hash over libblockcrypt.
 * Linux crypto/af_alg.c, algif_skcipher.c, algif_aead.c, algif_hash.c; Documentation/crypto/userspace-if.rst. */
#include <errno.h>
#include <fcntl.h>
#include <linux/if_alg.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "afalg.h"

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

struct afalg_sock *afalg_sock_new(enum afalg_kind kind)
{
	struct afalg_sock *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->data, NULL);
	s->refs = 1;
	s->kind = kind;
	return s;
}

void afalg_sock_get(struct afalg_sock *s)
{
	if (AFALG_SINGLE_THREADED())
		s->refs++;
	else
		__atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
}

static void drop_tfm(struct afalg_sock *s)
{
	bc_skcipher_free(s->sk);
	bc_aead_free(s->ae);
	bc_shash_free(s->sh);
	s->sk = NULL;
	s->ae = NULL;
	s->sh = NULL;
	s->type = AFALG_NONE;
	s->keyed = 0;
}

void afalg_sock_put(struct afalg_sock *s)
{
	if (AFALG_SINGLE_THREADED() ? --s->refs : __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL))
		return;
	drop_tfm(s);
	bc_shash_free(s->hs);
	/* what was sent may be plaintext, and the IV and digest are the user's secrets too */
	if (s->buf)
		explicit_bzero(s->buf, s->cap);
	free(s->buf);
	free(s->reply);
	if (s->parent) {
		pthread_mutex_lock(&s->parent->lock);
		s->parent->children--;
		s->parent->keyed_children -= s->has_key;
		pthread_mutex_unlock(&s->parent->lock);
		afalg_sock_put(s->parent);
	}
	pthread_cond_destroy(&s->data);
	pthread_mutex_destroy(&s->lock);
	explicit_bzero(s, sizeof(*s));
	free(s);
}

struct find_ctx {
	const char *name, *driver;
	enum bc_type type;
	struct bc_driver_info *out;
	char *name_buf, *driver_buf;
	int found;
};

static int find_cb(const struct bc_driver_info *info, void *arg)
{
	struct find_ctx *f = arg;

	if (info->type != f->type || info->selftest < 0)
		return 0;
	if (f->driver ? strcmp(info->driver, f->driver) : strcmp(info->name, f->name))
		return 0;
	/* an algorithm name means its best driver, as the kernel's lookup by cra_name */
	if (f->found && info->priority <= f->out->priority)
		return 0;
	*f->out = *info;
	snprintf(f->name_buf, CRYPTO_MAX_NAME, "%s", info->name);
	snprintf(f->driver_buf, CRYPTO_MAX_NAME, "%s", info->driver);
	f->out->name = f->name_buf;
	f->out->driver = f->driver_buf;
	f->found = 1;
	return 0;
}

int afalg_lookup(const char *name, const char *driver, enum bc_type type, struct bc_driver_info *out,
                 char *name_buf, char *driver_buf)
{
	struct find_ctx f = { name, driver, type, out, name_buf, driver_buf, 0 };
	int err = bc_list_drivers(find_cb, &f);

	if (err < 0)
		return err;
	return f.found ? 0 : -ENOENT;
}

/* ---- bind and setsockopt (af_alg.c alg_bind, alg_setsockopt) ------------------------------------------- */

/* The rng names served, by the kernel's names: the generic one and the entropy source. Both draw on getrandom(2),
 * the kernel's own generator, as the library has none; the DRBGs by name (drbg_nopr_hmac_sha256 ...) are not here. */
int afalg_rng_name(const char *n)
{
	return !strcmp(n, "stdrng") || !strcmp(n, "jitterentropy_rng");
}

int afalg_bind(struct afalg_sock *s, const struct sockaddr *addr, socklen_t len)
{
	struct sockaddr_alg sa;
	char name[CRYPTO_MAX_NAME], drv[CRYPTO_MAX_NAME];
	struct bc_driver_info info;
	bc_skcipher *sk = NULL;
	bc_aead *ae = NULL;
	bc_shash *sh = NULL;
	enum afalg_type type;
	int keyed = 0, err;

	if (s->kind == AFALG_NETLINK)
		return 0;
	if (s->kind != AFALG_TFM)
		return -EOPNOTSUPP;   /* an op socket's sock_no_bind */
	if (!addr || len < sizeof(sa) - 1)
		return -EINVAL;
	/* the user's address is only read: its strings are ended in a copy */
	memset(&sa, 0, sizeof(sa));
	memcpy(&sa, addr, len < sizeof(sa) ? len : sizeof(sa));
	if ((sa.salg_feat | sa.salg_mask) & ~0x1000u)   /* CRYPTO_ALG_KERN_DRIVER_ONLY is all one may ask */
		return -EINVAL;
	sa.salg_type[sizeof(sa.salg_type) - 1] = 0;
	sa.salg_name[sizeof(sa.salg_name) - 1] = 0;
	if (len < sizeof(sa))
		sa.salg_name[len - offsetof(struct sockaddr_alg, salg_name) - 1] = 0;
	const char *t = (const char *)sa.salg_type, *n = (const char *)sa.salg_name;

	if (!strcmp(t, "skcipher")) {
		type = AFALG_SKCIPHER;
		err = bc_skcipher_alloc(&sk, n);
	} else if (!strcmp(t, "aead")) {
		type = AFALG_AEAD;
		err = bc_aead_alloc(&ae, n);
		if (!err)
			err = afalg_lookup(NULL, bc_aead_driver(ae), BC_TYPE_AEAD, &info, name, drv);
	} else if (!strcmp(t, "hash")) {
		type = AFALG_HASH;
		err = bc_shash_alloc(&sh, n);
		/* an unkeyed hash is ready at once; a MAC waits for its key (-ENOKEY until then) */
		if (!err)
			keyed = bc_shash_init(sh) == 0;
	} else if (!strcmp(t, "rng")) {
		type = AFALG_RNG;
		err = afalg_rng_name(n) ? 0 : -ENOENT;
		keyed = 1;   /* seeded from the start (algif_rng has no nokey accept) */
	} else {
		return -ENOENT;   /* akcipher and the others: no such type here */
	}
	if (err) {
		bc_skcipher_free(sk);
		bc_aead_free(ae);
		bc_shash_free(sh);
		return err == -ENOMEM ? err : -ENOENT;
	}
	pthread_mutex_lock(&s->lock);
	if (s->children) {   /* the kernel: -EBUSY once op sockets exist */
		pthread_mutex_unlock(&s->lock);
		bc_skcipher_free(sk);
		bc_aead_free(ae);
		bc_shash_free(sh);
		return -EBUSY;
	}
	drop_tfm(s);
	s->type = type;
	s->sk = sk;
	s->ae = ae;
	s->sh = sh;
	s->keyed = keyed;
	if (sk) {
		s->ivsize = bc_skcipher_ivsize(sk);
		s->blocksize = bc_skcipher_blocksize(sk);
	} else if (ae) {
		s->ivsize = info.ivsize;
		s->blocksize = info.blocksize;
	} else {
		s->ivsize = 0;
		s->blocksize = 1;
	}
	pthread_mutex_unlock(&s->lock);
	return 0;
}

int afalg_setsockopt(struct afalg_sock *s, int level, int name, const void *val, socklen_t len)
{
	int err;

	if (level == SOL_SOCKET)
		return 0;   /* buffer sizes and the like: nothing to tune here */
	if (s->kind == AFALG_NETLINK)
		return -ENOPROTOOPT;
	pthread_mutex_lock(&s->lock);
	err = -EBUSY;
	if (s->keyed_children)
		goto out;
	err = -ENOPROTOOPT;
	if (level != SOL_ALG || s->kind != AFALG_TFM || s->type == AFALG_NONE)
		goto out;
	switch (name) {
	case ALG_SET_KEY:
		err = -EFAULT;
		if (!val && len)
			goto out;
		if (s->type == AFALG_RNG)
			err = 0;   /* a seed: getrandom(2) takes none, as the kernel's DRBG needs none (seedsize 0) */
		else if (s->sk)
			err = bc_skcipher_setkey(s->sk, val, len);
		else if (s->ae)
			err = bc_aead_setkey(s->ae, val, len);
		else
			err = bc_shash_setkey(s->sh, val, len);
		/* as the kernel's CRYPTO_TFM_NEED_KEY: a refused key leaves the tfm without one */
		s->keyed = err == 0;
		break;
	case ALG_SET_AEAD_AUTHSIZE:
		if (!s->ae)
			goto out;
		err = bc_aead_setauthsize(s->ae, len);
		break;
	default:
		break;
	}
out:
	pthread_mutex_unlock(&s->lock);
	return err;
}

/* ---- accept (af_alg_accept, the types' accept_parent and accept_nokey, hash_accept) ---------------------- */

/* An op socket accepted before its parent had a key takes it up once it has one
 * (the kernel's skcipher_check_key, hash_check_key). Called with s locked. */
static int check_key(struct afalg_sock *s)
{
	struct afalg_sock *p = s->parent;
	int err = 0;

	if (s->has_key)
		return 0;
	pthread_mutex_lock(&p->lock);
	if (!p->keyed)
		err = -ENOKEY;
	else if (s->type == AFALG_HASH && !s->hs)
		err = bc_shash_dup(&s->hs, p->sh);
	if (!err) {
		s->has_key = 1;
		p->keyed_children++;
	}
	pthread_mutex_unlock(&p->lock);
	return err;
}

int afalg_accept(struct afalg_sock *s, struct afalg_sock **out)
{
	struct afalg_sock *p = s, *c;
	int err = 0;

	if (s->kind == AFALG_NETLINK)
		return -EOPNOTSUPP;
	if (s->kind == AFALG_OP) {
		if (s->type != AFALG_HASH)
			return -EOPNOTSUPP;
		p = s->parent;
		pthread_mutex_lock(&s->lock);
		err = check_key(s);
		pthread_mutex_unlock(&s->lock);
		if (err)
			return err;
	}
	c = afalg_sock_new(AFALG_OP);
	if (!c)
		return -ENOMEM;
	if (s != p)
		pthread_mutex_lock(&s->lock);
	pthread_mutex_lock(&p->lock);
	if (p->type == AFALG_NONE) {
		err = -EINVAL;
		goto out;
	}
	c->type = p->type;
	c->ivsize = p->ivsize;
	c->blocksize = p->blocksize;
	if (s != p) {
		/* a clone: the half-hashed message goes on in both (a finished one is not carried over) */
		c->more = s->more;
		err = bc_shash_dup(&c->hs, s->more ? s->hs : p->sh);
		c->has_key = 1;
	} else if (p->keyed) {
		if (p->sh)
			err = bc_shash_dup(&c->hs, p->sh);
		c->has_key = 1;
	}
	if (!err) {
		p->keyed_children += c->has_key;
		p->children++;
		afalg_sock_get(p);
		c->parent = p;
	}
out:
	pthread_mutex_unlock(&p->lock);
	if (s != p)
		pthread_mutex_unlock(&s->lock);
	if (err) {
		c->has_key = 0;
		afalg_sock_put(c);
		return err;
	}
	*out = c;
	return 0;
}

/* ---- sendmsg (af_alg_cmsg_send, af_alg_sendmsg, hash_sendmsg) ------------------------------------------- */

struct control {
	int have;
	uint32_t op, assoclen;
	const struct af_alg_iv *iv;
};

static int parse_control(const struct msghdr *msg, struct control *con)
{
	struct cmsghdr *c;

	memset(con, 0, sizeof(*con));
	if (!msg->msg_controllen)
		return 0;
	con->have = 1;
	for (c = CMSG_FIRSTHDR((struct msghdr *)msg); c; c = CMSG_NXTHDR((struct msghdr *)msg, c)) {
		if (c->cmsg_len < sizeof(*c) ||
		    c->cmsg_len > msg->msg_controllen - ((char *)c - (char *)msg->msg_control))
			return -EINVAL;
		if (c->cmsg_level != SOL_ALG)
			continue;
		switch (c->cmsg_type) {
		case ALG_SET_IV:
			if (c->cmsg_len < CMSG_LEN(sizeof(*con->iv)))
				return -EINVAL;
			con->iv = (const struct af_alg_iv *)CMSG_DATA(c);
			if (c->cmsg_len < CMSG_LEN((size_t)con->iv->ivlen + sizeof(*con->iv)))
				return -EINVAL;
			break;
		case ALG_SET_OP:
			if (c->cmsg_len < CMSG_LEN(sizeof(uint32_t)))
				return -EINVAL;
			memcpy(&con->op, CMSG_DATA(c), sizeof(uint32_t));
			break;
		case ALG_SET_AEAD_ASSOCLEN:
			if (c->cmsg_len < CMSG_LEN(sizeof(uint32_t)))
				return -EINVAL;
			memcpy(&con->assoclen, CMSG_DATA(c), sizeof(uint32_t));
			break;
		default:
			return -EINVAL;
		}
	}
	return 0;
}

size_t afalg_iov_total(const struct iovec *iov, size_t n)
{
	size_t t = 0;

	for (size_t i = 0; i < n; i++)
		t += iov[i].iov_len;
	return t;
}

static int reserve(struct afalg_sock *s, size_t more)
{
	size_t need, cap;
	uint8_t *nb;

	if (more > SIZE_MAX / 2 - s->off - s->used)
		return -ENOMEM;
	need = s->off + s->used + more;
	if (need <= s->cap)
		return 0;
	if (s->off) {   /* what was processed goes first */
		memmove(s->buf, s->buf + s->off, s->used);
		s->off = 0;
		need = s->used + more;
		if (need <= s->cap)
			return 0;
	}
	for (cap = s->cap ? s->cap : 4096; cap < need; cap *= 2)
		;
	/* not realloc: the old buffer's plaintext is wiped before it goes back */
	nb = malloc(cap);
	if (!nb)
		return -ENOMEM;
	if (s->buf) {
		memcpy(nb, s->buf, s->used);
		explicit_bzero(s->buf, s->cap);
		free(s->buf);
	}
	s->buf = nb;
	s->cap = cap;
	return 0;
}

static ssize_t hash_send(struct afalg_sock *s, const struct msghdr *msg, int flags)
{
	size_t copied = 0;
	int err;

	if (!s->more) {
		s->have_result = 0;
		err = bc_shash_init(s->hs);
		if (err)
			return err;
	}
	s->more = 0;
	for (size_t i = 0; i < msg->msg_iovlen; i++) {
		err = bc_shash_update(s->hs, msg->msg_iov[i].iov_base, msg->msg_iov[i].iov_len);
		if (err)
			return err;
		copied += msg->msg_iov[i].iov_len;
	}
	s->more = !!(flags & MSG_MORE);
	if (!s->more) {
		err = bc_shash_final(s->hs, s->result);
		if (err)
			return err;
		s->have_result = 1;
	}
	return (ssize_t)copied;
}

/* af_alg_poll's POLLIN for a cipher op socket, with s locked: not while a request is open (MSG_MORE) with nothing
 * buffered. The eventfd behind the descriptor (shared by its dups) holds 1 while it is readable, 0 while not. */
static void update_pollin(struct afalg_sock *s, int fd)
{
	int want = !s->more || s->used;

	if (want == s->no_pollin && (want ? eventfd_write(fd, 1) : eventfd_read(fd, &(eventfd_t){ 0 })) == 0)
		s->no_pollin = !want;
}

ssize_t afalg_send(struct afalg_sock *s, int fd, const struct msghdr *msg, int flags)
{
	struct control con;
	size_t size;
	ssize_t ret;
	int err;

	/* algif_rng's sendmsg is sock_no_sendmsg (without the CAVP test interface) */
	if (s->kind != AFALG_OP || s->type == AFALG_RNG)
		return -EOPNOTSUPP;
	size = afalg_iov_total(msg->msg_iov, msg->msg_iovlen);
	pthread_mutex_lock(&s->lock);
	err = check_key(s);
	if (err)
		goto out;
	if (s->type == AFALG_HASH) {
		ret = hash_send(s, msg, flags);
		pthread_mutex_unlock(&s->lock);
		return ret;
	}
	err = parse_control(msg, &con);
	if (err)
		goto out;
	err = -EINVAL;
	if (con.have && con.op != ALG_OP_ENCRYPT && con.op != ALG_OP_DECRYPT)
		goto out;
	if (con.iv && con.iv->ivlen != s->ivsize)
		goto out;
	/* a finished request not yet read: no new data before it is */
	if (s->init && !s->more && s->used)
		goto out;
	err = reserve(s, size);
	if (err)
		goto out;
	s->init = 1;
	if (con.have) {
		s->enc = con.op == ALG_OP_ENCRYPT;
		if (con.iv)
			memcpy(s->iv, con.iv->iv, s->ivsize);
		s->assoclen = con.assoclen;
	}
	for (size_t i = 0; i < msg->msg_iovlen; i++) {
		memcpy(s->buf + s->off + s->used, msg->msg_iov[i].iov_base, msg->msg_iov[i].iov_len);
		s->used += msg->msg_iov[i].iov_len;
	}
	s->more = !!(flags & MSG_MORE);
	update_pollin(s, fd);
	if (s->waiters)
		pthread_cond_broadcast(&s->data);
	pthread_mutex_unlock(&s->lock);
	return (ssize_t)size;
out:
	pthread_mutex_unlock(&s->lock);
	return err;
}

/* ---- recvmsg (af_alg_wait_for_data, _skcipher_recvmsg, _aead_recvmsg, hash_recvmsg) --------------------- */

/* Waits, with s locked, until a request is complete, or (min > 0) min bytes of an unfinished one are there. */
static int wait_data(struct afalg_sock *s, int fd, int flags, size_t min)
{
	while (!(s->init && (!s->more || (min && s->used >= min)))) {
		if ((flags & MSG_DONTWAIT) || (fcntl(fd, F_GETFL) & O_NONBLOCK))
			return -EAGAIN;
		s->waiters++;
		pthread_cond_wait(&s->data, &s->lock);
		s->waiters--;
	}
	return 0;
}

/* What was processed stays in the buffer until it is overwritten, or wiped when the socket goes (a second pass over
 * every request would cost as much as the copy in). */
static void consume(struct afalg_sock *s, size_t n)
{
	s->off += n;
	s->used -= n;
	/* a request read to its end is over: the next sendmsg begins another */
	if (!s->used) {
		s->off = 0;
		s->init = s->more;
	}
}

/* Where the result goes: the one iovec itself, or a scratch buffer scattered afterwards. */
static uint8_t *out_buffer(const struct msghdr *msg, size_t len, uint8_t **scratch)
{
	*scratch = NULL;
	if (msg->msg_iovlen == 1)
		return msg->msg_iov[0].iov_base;
	*scratch = malloc(len ? len : 1);
	return *scratch;
}

static void out_scatter(const struct msghdr *msg, uint8_t *scratch, size_t len)
{
	size_t done = 0;

	if (!scratch)
		return;
	for (size_t i = 0; i < msg->msg_iovlen && done < len; i++) {
		size_t n = msg->msg_iov[i].iov_len < len - done ? msg->msg_iov[i].iov_len : len - done;

		memcpy(msg->msg_iov[i].iov_base, scratch + done, n);
		done += n;
	}
	explicit_bzero(scratch, len);
	free(scratch);
}

static ssize_t skcipher_recv(struct afalg_sock *s, int fd, struct msghdr *msg, int flags)
{
	size_t room = afalg_iov_total(msg->msg_iov, msg->msg_iovlen), done = 0, bs = s->blocksize;
	const bc_skcipher *tfm = s->parent->sk;
	uint8_t *scratch = NULL, *dst;
	int err = 0;

	dst = out_buffer(msg, room, &scratch);
	if (!dst)
		return -ENOMEM;
	while (done < room) {
		size_t len;

		if (!s->init || (s->more && s->used < bs)) {
			if (done)   /* what is done is returned rather than waiting for more */
				break;
			err = wait_data(s, fd, flags, bs);
			if (err)
				break;
		}
		len = s->used < room - done ? s->used : room - done;
		/* more may follow: whole blocks only */
		if (s->more || len < s->used) {
			if (len < bs) {
				err = done ? 0 : -EINVAL;
				break;
			}
			len -= len % bs;
		}
		if (len)
			err = s->enc ? bc_skcipher_encrypt(tfm, s->iv, s->buf + s->off, dst + done, len)
			             : bc_skcipher_decrypt(tfm, s->iv, s->buf + s->off, dst + done, len);
		consume(s, len);
		if (err || !len)
			break;
		done += len;
	}
	out_scatter(msg, scratch, done);
	return done ? (ssize_t)done : err;
}

static ssize_t aead_recv(struct afalg_sock *s, int fd, struct msghdr *msg, int flags)
{
	size_t room = afalg_iov_total(msg->msg_iov, msg->msg_iovlen), as, used, outlen, ad = s->assoclen;
	const bc_aead *tfm = s->parent->ae;
	uint8_t *scratch = NULL, *dst;
	int err;

	if (!room)
		return 0;
	err = wait_data(s, fd, flags, 0);
	if (err)
		return err;
	as = bc_aead_authsize(tfm);
	used = s->used;
	if (used < ad + (s->enc ? 0 : as))
		return -EINVAL;
	outlen = s->enc ? used + as : used - as;
	used -= ad;
	/* a shorter buffer: the request shrinks to what fits, as in the kernel */
	if (room < outlen) {
		size_t less = outlen - room;

		if (used < less)
			return -EINVAL;
		used -= less;
		outlen -= less;
	}
	if (!s->enc && used < as)
		return -EINVAL;
	dst = out_buffer(msg, outlen, &scratch);
	if (!dst)
		return -ENOMEM;
	const uint8_t *src = s->buf + s->off;

	memcpy(dst, src, ad);
	if (s->enc)
		err = bc_aead_encrypt(tfm, s->iv, s->ivsize, src, ad, src + ad, dst + ad, used, dst + ad + used);
	else
		err = bc_aead_decrypt(tfm, s->iv, s->ivsize, src, ad, src + ad, dst + ad, used - as, src + ad + used - as);
	consume(s, ad + used);
	out_scatter(msg, scratch, err ? 0 : outlen);
	return err ? err : (ssize_t)outlen;
}

static ssize_t hash_recv(struct afalg_sock *s, struct msghdr *msg)
{
	size_t ds = bc_shash_digestsize(s->hs), len = afalg_iov_total(msg->msg_iov, msg->msg_iovlen), done = 0;
	int err = 0;

	if (len > ds)
		len = ds;
	else if (len < ds)
		msg->msg_flags |= MSG_TRUNC;
	/* nothing sent, or a message left open: the digest of what there is */
	if (!s->have_result || s->more) {
		if (!s->have_result && !s->more)
			err = bc_shash_init(s->hs);
		s->more = 0;
		if (!err)
			err = bc_shash_final(s->hs, s->result);
	}
	if (!err)
		for (size_t i = 0; i < msg->msg_iovlen && done < len; i++) {
			size_t n = msg->msg_iov[i].iov_len < len - done ? msg->msg_iov[i].iov_len : len - done;

			memcpy(msg->msg_iov[i].iov_base, s->result + done, n);
			done += n;
		}
	/* the result is read once */
	explicit_bzero(s->result, sizeof(s->result));
	s->have_result = 0;
	return err ? err : (ssize_t)len;
}

/* algif_rng's recvmsg: at most 128 bytes a call (its MAXSIZE), fresh each time. */
static ssize_t rng_recv(struct msghdr *msg)
{
	size_t len = afalg_iov_total(msg->msg_iov, msg->msg_iovlen), done = 0;

	if (len > 128)
		len = 128;
	for (size_t i = 0; i < msg->msg_iovlen && done < len; i++) {
		size_t n = msg->msg_iov[i].iov_len < len - done ? msg->msg_iov[i].iov_len : len - done;
		uint8_t *p = msg->msg_iov[i].iov_base;

		for (size_t got = 0; got < n;) {
			ssize_t r = getrandom(p + got, n - got, 0);

			if (r < 0 && errno != EINTR)
				return -errno;
			got += r > 0 ? (size_t)r : 0;
		}
		done += n;
	}
	return (ssize_t)len;
}

ssize_t afalg_recv(struct afalg_sock *s, int fd, struct msghdr *msg, int flags)
{
	ssize_t ret;

	msg->msg_flags = 0;
	msg->msg_controllen = 0;
	msg->msg_namelen = 0;
	if (s->kind != AFALG_OP)
		return -EOPNOTSUPP;
	pthread_mutex_lock(&s->lock);
	ret = check_key(s);
	if (!ret) {
		if (s->type == AFALG_SKCIPHER || s->type == AFALG_AEAD) {
			ret = s->type == AFALG_SKCIPHER ? skcipher_recv(s, fd, msg, flags) : aead_recv(s, fd, msg, flags);
			update_pollin(s, fd);
		} else if (s->type == AFALG_RNG) {
			ret = rng_recv(msg);
		} else {
			ret = hash_recv(s, msg);
		}
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int afalg_getsockname(struct afalg_sock *s, struct sockaddr *addr, socklen_t *len)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };

	if (s->kind != AFALG_NETLINK)
		return -EOPNOTSUPP;
	if (!addr || !len)
		return -EFAULT;
	nl.nl_pid = (uint32_t)getpid();
	memcpy(addr, &nl, *len < sizeof(nl) ? *len : sizeof(nl));
	*len = sizeof(nl);
	return 0;
}
