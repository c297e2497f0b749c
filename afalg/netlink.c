/* blockcrypt-afalg: NETLINK_CRYPTO's CRYPTO_MSG_GETALG answered from libblockcrypt's registry.
 * Linux crypto/crypto_user.c (crypto_report, crypto_report_one) and include/uapi/linux/cryptouser.h. */
#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "afalg.h"

/* include/linux/crypto.h's type numbers, as /proc/crypto's users know them */
#define KTYPE_AEAD     0x3
#define KTYPE_SKCIPHER 0x5
#define KTYPE_RNG      0xc
#define KTYPE_SHASH    0xe

static void put_attr(uint8_t *p, size_t *off, unsigned short type, const void *data, size_t len)
{
	struct rtattr *a = (struct rtattr *)(p + *off);

	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	memcpy(RTA_DATA(a), data, len);
	*off += RTA_SPACE(len);
}

static const enum bc_type types[] = { BC_TYPE_SKCIPHER, BC_TYPE_AEAD, BC_TYPE_SHASH };

/* The reply to one request: the algorithm's report, or the netlink error the kernel sends (-ENOENT). */
static size_t build_reply(const struct nlmsghdr *req, const struct crypto_user_alg *q, uint8_t *out)
{
	char name[CRYPTO_MAX_NAME], drv[CRYPTO_MAX_NAME], qn[CRYPTO_MAX_NAME], qd[CRYPTO_MAX_NAME];
	struct bc_driver_info info;
	struct nlmsghdr *h = (struct nlmsghdr *)out;
	size_t off = NLMSG_HDRLEN;
	int err = -ENOENT;

	memcpy(qn, q->cru_name, sizeof(qn));
	memcpy(qd, q->cru_driver_name, sizeof(qd));
	qn[sizeof(qn) - 1] = qd[sizeof(qd) - 1] = 0;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]) && err; i++)
		err = afalg_lookup(qn, qd[0] ? qd : NULL, types[i], &info, name, drv);
	/* an rng of the socket layer's own (its name is its driver's) */
	int rng = err && afalg_rng_name(qd[0] ? qd : qn);

	if (rng) {
		memset(&info, 0, sizeof(info));
		info.priority = 100;
		memcpy(name, qd[0] ? qd : qn, sizeof(name));
		memcpy(drv, name, sizeof(drv));
		err = 0;
	}
	memset(h, 0, NLMSG_HDRLEN);
	h->nlmsg_seq = req->nlmsg_seq;
	h->nlmsg_pid = (uint32_t)getpid();
	if (err) {
		struct nlmsgerr e = { .error = err, .msg = *req };

		h->nlmsg_type = NLMSG_ERROR;
		memcpy(out + off, &e, sizeof(e));
		off += NLMSG_ALIGN(sizeof(e));
		h->nlmsg_len = (uint32_t)off;
		return off;
	}
	struct crypto_user_alg *a = (struct crypto_user_alg *)(out + off);
	uint32_t prio = (uint32_t)info.priority;

	memset(a, 0, sizeof(*a));
	memcpy(a->cru_name, name, sizeof(a->cru_name));
	memcpy(a->cru_driver_name, drv, sizeof(a->cru_driver_name));
	strcpy(a->cru_module_name, "kernel");
	a->cru_refcnt = 1;
	off += NLMSG_ALIGN(sizeof(*a));
	put_attr(out, &off, CRYPTOCFGA_PRIORITY_VAL, &prio, sizeof(prio));
	if (rng) {
		struct crypto_report_rng r = { .seedsize = 0 };   /* seeds itself, as the kernel's DRBG */

		a->cru_type = KTYPE_RNG;
		strcpy(r.type, "rng");
		put_attr(out, &off, CRYPTOCFGA_REPORT_RNG, &r, sizeof(r));
	} else if (info.type == BC_TYPE_SKCIPHER) {
		struct crypto_report_blkcipher r = { .blocksize = (unsigned)info.blocksize,
			.min_keysize = info.min_keysize, .max_keysize = info.max_keysize, .ivsize = (unsigned)info.ivsize };

		a->cru_type = KTYPE_SKCIPHER;
		strcpy(r.type, "skcipher");
		strcpy(r.geniv, "<none>");
		put_attr(out, &off, CRYPTOCFGA_REPORT_BLKCIPHER, &r, sizeof(r));
	} else if (info.type == BC_TYPE_AEAD) {
		struct crypto_report_aead r = { .blocksize = (unsigned)info.blocksize,
			.maxauthsize = (unsigned)info.maxauthsize, .ivsize = (unsigned)info.ivsize };

		a->cru_type = KTYPE_AEAD;
		strcpy(r.type, "aead");
		strcpy(r.geniv, "<none>");
		put_attr(out, &off, CRYPTOCFGA_REPORT_AEAD, &r, sizeof(r));
	} else {
		struct crypto_report_hash r = { .blocksize = (unsigned)info.blocksize,
			.digestsize = (unsigned)info.digestsize };

		a->cru_type = KTYPE_SHASH;
		strcpy(r.type, "shash");
		put_attr(out, &off, CRYPTOCFGA_REPORT_HASH, &r, sizeof(r));
	}
	a->cru_flags = a->cru_type;
	h->nlmsg_type = CRYPTO_MSG_GETALG;
	h->nlmsg_len = (uint32_t)off;
	return off;
}

#define REPLY_MAX 1024

ssize_t afalg_netlink_send(struct afalg_sock *s, const struct msghdr *msg)
{
	uint8_t req[NLMSG_SPACE(sizeof(struct crypto_user_alg))], *reply;
	size_t got = 0;
	const struct nlmsghdr *h = (const struct nlmsghdr *)req;
	struct crypto_user_alg q;

	memset(req, 0, sizeof(req));
	for (size_t i = 0; i < msg->msg_iovlen; i++) {
		size_t n = msg->msg_iov[i].iov_len;

		if (got < sizeof(req))
			memcpy(req + got, msg->msg_iov[i].iov_base, n < sizeof(req) - got ? n : sizeof(req) - got);
		got += n;
	}
	if (got < NLMSG_HDRLEN || h->nlmsg_len > got || h->nlmsg_len < NLMSG_HDRLEN)
		return -EINVAL;
	reply = calloc(1, REPLY_MAX);
	if (!reply)
		return -ENOMEM;
	if (h->nlmsg_type != CRYPTO_MSG_GETALG || h->nlmsg_len < NLMSG_LENGTH(sizeof(q))) {
		/* the other crypto_user messages change the kernel's algorithms: not here */
		struct nlmsghdr *e = (struct nlmsghdr *)reply;
		struct nlmsgerr er = { .error = h->nlmsg_type == CRYPTO_MSG_GETALG ? -EINVAL : -EPERM, .msg = *h };

		e->nlmsg_type = NLMSG_ERROR;
		e->nlmsg_seq = h->nlmsg_seq;
		memcpy(reply + NLMSG_HDRLEN, &er, sizeof(er));
		e->nlmsg_len = (uint32_t)(NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(er)));
	} else {
		memcpy(&q, NLMSG_DATA(h), sizeof(q));
		build_reply(h, &q, reply);
	}
	pthread_mutex_lock(&s->lock);
	free(s->reply);
	s->reply = reply;
	s->replylen = ((struct nlmsghdr *)reply)->nlmsg_len;
	pthread_mutex_unlock(&s->lock);
	return (ssize_t)got;
}

ssize_t afalg_netlink_recv(struct afalg_sock *s, struct msghdr *msg, int flags)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	size_t done = 0;
	ssize_t ret;

	msg->msg_flags = 0;
	msg->msg_controllen = 0;
	if (msg->msg_name) {
		memcpy(msg->msg_name, &kernel, msg->msg_namelen < sizeof(kernel) ? msg->msg_namelen : sizeof(kernel));
		msg->msg_namelen = sizeof(kernel);
	}
	pthread_mutex_lock(&s->lock);
	if (!s->reply) {
		/* nothing asked: no answer will come */
		pthread_mutex_unlock(&s->lock);
		return -EAGAIN;
	}
	for (size_t i = 0; i < msg->msg_iovlen && done < s->replylen; i++) {
		size_t n = msg->msg_iov[i].iov_len < s->replylen - done ? msg->msg_iov[i].iov_len : s->replylen - done;

		memcpy(msg->msg_iov[i].iov_base, s->reply + done, n);
		done += n;
	}
	if (done < s->replylen)
		msg->msg_flags |= MSG_TRUNC;
	ret = (ssize_t)((flags & MSG_TRUNC) ? s->replylen : done);
	if (!(flags & MSG_PEEK)) {
		free(s->reply);
		s->reply = NULL;
		s->replylen = 0;
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}
