/* One AF_ALG sendmsg with its control messages (ALG_SET_OP, ALG_SET_IV, ALG_SET_AEAD_ASSOCLEN), for the afalg
 * test and benchmark. Layout: Linux Documentation/crypto/userspace-if.rst. */
#ifndef BC_AFALG_OP_H
#define BC_AFALG_OP_H

#include <errno.h>
#include <linux/if_alg.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

static inline struct cmsghdr *afalg_cmsg(struct msghdr *m, struct cmsghdr *prev, int type, size_t len)
{
	struct cmsghdr *c = prev ? CMSG_NXTHDR(m, prev) : CMSG_FIRSTHDR(m);

	c->cmsg_level = SOL_ALG;
	c->cmsg_type = type;
	c->cmsg_len = CMSG_LEN(len);
	return c;
}

/* op < 0: no control messages; iv NULL: no IV; assoclen < 0: none. The count sent, or -errno. */
static inline ssize_t afalg_send_op(int fd, int op, const uint8_t *iv, size_t ivlen, int assoclen, const void *data,
                                    size_t len, int flags)
{
	union { char buf[CMSG_SPACE(4) * 2 + CMSG_SPACE(sizeof(struct af_alg_iv) + 64)]; struct cmsghdr align; } u;
	struct iovec v = { (void *)data, len };
	struct msghdr m = { .msg_iov = &v, .msg_iovlen = 1 };
	struct cmsghdr *c;
	uint32_t w;

	memset(&u, 0, sizeof(u));
	if (op >= 0) {
		m.msg_control = u.buf;
		m.msg_controllen = CMSG_SPACE(4) + (iv ? CMSG_SPACE(sizeof(struct af_alg_iv) + ivlen) : 0) +
		                   (assoclen >= 0 ? CMSG_SPACE(4) : 0);
		c = afalg_cmsg(&m, NULL, ALG_SET_OP, 4);
		w = (uint32_t)op;
		memcpy(CMSG_DATA(c), &w, 4);
		if (iv) {
			struct af_alg_iv *a;

			c = afalg_cmsg(&m, c, ALG_SET_IV, sizeof(*a) + ivlen);
			a = (struct af_alg_iv *)CMSG_DATA(c);
			a->ivlen = (uint32_t)ivlen;
			memcpy(a->iv, iv, ivlen);
		}
		if (assoclen >= 0) {
			c = afalg_cmsg(&m, c, ALG_SET_AEAD_ASSOCLEN, 4);
			w = (uint32_t)assoclen;
			memcpy(CMSG_DATA(c), &w, 4);
		}
	}
	ssize_t r = sendmsg(fd, &m, flags);

	return r < 0 ? -errno : r;
}

#endif
