/* blockcrypt NBD server: the fixed newstyle handshake, the transmission phase (simple and structured replies), the listener.
 * Protocol: the NBD project's doc/proto.md (values and MUST/SHOULD rules as numbered there). */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "nbd.h"

#define NBD_MAGIC        0x4e42444d41474943ull   /* "NBDMAGIC" */
#define NBD_IHAVEOPT     0x49484156454f5054ull   /* "IHAVEOPT" */
#define NBD_REP_MAGIC    0x3e889045565a9ull
#define NBD_REQUEST_MAGIC 0x25609513u
#define NBD_SIMPLE_REPLY_MAGIC 0x67446698u
#define NBD_STRUCTURED_REPLY_MAGIC 0x668e33efu

enum { FLAG_FIXED_NEWSTYLE = 1 << 0, FLAG_NO_ZEROES = 1 << 1 };
enum { OPT_EXPORT_NAME = 1, OPT_ABORT = 2, OPT_LIST = 3, OPT_INFO = 6, OPT_GO = 7, OPT_STRUCTURED_REPLY = 8,
       OPT_LIST_META_CONTEXT = 9, OPT_SET_META_CONTEXT = 10 };
enum { REP_ACK = 1, REP_SERVER = 2, REP_INFO = 3, REP_META_CONTEXT = 4 };
#define REP_ERR(n) (0x80000000u | (n))
enum { ERR_UNSUP = 1, ERR_INVALID = 3, ERR_UNKNOWN = 6, ERR_TOO_BIG = 9 };
enum { INFO_EXPORT = 0, INFO_NAME = 1, INFO_BLOCK_SIZE = 3 };
enum {
	TF_HAS_FLAGS = 1 << 0, TF_READ_ONLY = 1 << 1, TF_SEND_FLUSH = 1 << 2, TF_SEND_FUA = 1 << 3,
	TF_SEND_TRIM = 1 << 5, TF_SEND_WRITE_ZEROES = 1 << 6, TF_SEND_DF = 1 << 7, TF_CAN_MULTI_CONN = 1 << 8,
};
enum { REPLY_FLAG_DONE = 1 << 0 };
enum { REPLY_TYPE_NONE = 0, REPLY_TYPE_OFFSET_DATA = 1, REPLY_TYPE_BLOCK_STATUS = 5, REPLY_TYPE_ERROR = (1 << 15) + 1 };
/* The one metadata context: base:allocation, every extent reported allocated data (status 0): an encrypted
 * image has no holes to tell of. */
#define META_ALLOCATION "base:allocation"
#define META_ID 1u
enum { CMD_READ = 0, CMD_WRITE = 1, CMD_DISC = 2, CMD_FLUSH = 3, CMD_TRIM = 4, CMD_WRITE_ZEROES = 6, CMD_BLOCK_STATUS = 7 };
enum { CF_FUA = 1 << 0, CF_NO_HOLE = 1 << 1, CF_DF = 1 << 2, CF_REQ_ONE = 1 << 3 };
enum { NBD_EPERM = 1, NBD_EIO = 5, NBD_ENOMEM = 12, NBD_EINVAL = 22, NBD_ENOSPC = 28 };

/* The payload limit the size constraints section names as never a denial of service (2^25): requests above it
 * are refused (reads) or end the session (writes, whose payload would have to be swallowed). */
#define MAX_PAYLOAD (32u << 20)
/* Option data: export names are at most 4096 bytes, so an option beyond this is refused with ERR_TOO_BIG. */
#define MAX_OPTION 8192u
#define MAX_CLIENTS 64
#define NBD_WORKERS 4            /* threads per connection */
#define KEEP_BUF (4u << 20)

/* Writes run one at a time across all connections: two writes into one partial sector are each a
 * read-modify-write of it and would lose one another's bytes. */
static pthread_mutex_t write_lock = PTHREAD_MUTEX_INITIALIZER;

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)(v >> 16)); put16(p + 2, (uint16_t)v); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)(v >> 32)); put32(p + 4, (uint32_t)v); }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint32_t get32(const uint8_t *p) { return (uint32_t)get16(p) << 16 | get16(p + 2); }
static uint64_t get64(const uint8_t *p) { return (uint64_t)get32(p) << 32 | get32(p + 4); }

static int read_full(int fd, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = recv(fd, p, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* a then b (b may be empty) as one message where the socket allows */
static int send2(int fd, const void *a, size_t alen, const void *b, size_t blen)
{
	struct iovec iov[2] = { { (void *)a, alen }, { (void *)b, blen } };
	struct msghdr m = { .msg_iov = iov, .msg_iovlen = blen ? 2 : 1 };

	while (m.msg_iovlen) {
		ssize_t n = sendmsg(fd, &m, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		while (m.msg_iovlen && (size_t)n >= m.msg_iov->iov_len) {
			n -= (ssize_t)m.msg_iov->iov_len;
			m.msg_iov++;
			m.msg_iovlen--;
		}
		if (m.msg_iovlen) {
			m.msg_iov->iov_base = (uint8_t *)m.msg_iov->iov_base + n;
			m.msg_iov->iov_len -= (size_t)n;
		}
	}
	return 0;
}

struct session {
	const struct nbd_export *e;
	int fd, no_zeroes;
	int structured;              /* NBD_OPT_STRUCTURED_REPLY negotiated: reads answered in structured chunks */
	int meta;                    /* base:allocation selected: NBD_CMD_BLOCK_STATUS answered */
	uint8_t *buf;                /* option data, then request payloads: plaintext, wiped when freed */
	size_t cap;
};

static void session_free(struct session *s)
{
	if (s->buf) {
		explicit_bzero(s->buf, s->cap);
		free(s->buf);
	}
	s->buf = NULL;
	s->cap = 0;
}

static uint8_t *session_buf(struct session *s, size_t len)
{
	uint8_t *p;

	if (len <= s->cap)
		return s->buf;
	p = malloc(len);
	if (!p)
		return NULL;
	session_free(s);
	s->buf = p;
	s->cap = len;
	return p;
}

static uint16_t transmission_flags(const struct session *s)
{
	/* one page cache under every connection: a flush on one covers the writes of all (CAN_MULTI_CONN); a read's
	 * data is always one chunk, so "don't fragment" holds whenever structured replies are on */
	return TF_HAS_FLAGS | TF_SEND_FLUSH | TF_SEND_FUA | TF_SEND_TRIM | TF_SEND_WRITE_ZEROES | TF_CAN_MULTI_CONN |
	       (s->e->read_only ? TF_READ_ONLY : 0) | (s->structured ? TF_SEND_DF : 0);
}

/* ---- option haggling ----------------------------------------------------------------------------------- */

static int reply(struct session *s, uint32_t opt, uint32_t type, const void *data, size_t len)
{
	uint8_t h[20];

	put64(h, NBD_REP_MAGIC);
	put32(h + 8, opt);
	put32(h + 12, type);
	put32(h + 16, (uint32_t)len);
	return send2(s->fd, h, sizeof(h), data, len);
}

/* An error reply with its message for the user; 0 goes on haggling, -1 the client is gone. */
static int reply_err(struct session *s, uint32_t opt, uint32_t err, const char *msg)
{
	return reply(s, opt, REP_ERR(err), msg, strlen(msg));
}

static int name_ok(const struct nbd_export *e, const uint8_t *name, size_t len)
{
	return !len || (len == strlen(e->name) && !memcmp(name, e->name, len));
}

static int send_info_export(struct session *s, uint32_t opt)
{
	uint8_t d[12];

	put16(d, INFO_EXPORT);
	put64(d + 2, s->e->size);
	put16(d + 10, transmission_flags(s));
	return reply(s, opt, REP_INFO, d, sizeof(d));
}

/* NBD_OPT_INFO and NBD_OPT_GO: name length, name, count of information requests, the requests. 1: GO succeeded. */
static int opt_info(struct session *s, uint32_t opt, const uint8_t *d, uint32_t len)
{
	uint32_t namelen = len >= 4 ? get32(d) : 0;
	uint16_t nreq;
	int want_bs = 0, want_name = 0;

	if (len < 6 || namelen > len - 6)
		return reply_err(s, opt, ERR_INVALID, "malformed NBD_OPT_INFO/GO");
	nreq = get16(d + 4 + namelen);
	if ((uint32_t)nreq * 2 != len - 6 - namelen)
		return reply_err(s, opt, ERR_INVALID, "NBD_OPT_INFO/GO: the information requests do not fill the option");
	if (!name_ok(s->e, d + 4, namelen))
		return reply_err(s, opt, ERR_UNKNOWN, "no export of that name");
	for (uint16_t i = 0; i < nreq; i++) {
		uint16_t t = get16(d + 6 + namelen + 2 * i);

		want_bs |= t == INFO_BLOCK_SIZE;
		want_name |= t == INFO_NAME;
	}
	if (send_info_export(s, opt))
		return -1;
	if (want_bs) {
		uint8_t b[14];

		/* any byte offset and length works (minimum 1); whole sectors avoid the read-modify-write */
		put16(b, INFO_BLOCK_SIZE);
		put32(b + 2, 1);
		put32(b + 6, s->e->block);
		put32(b + 10, MAX_PAYLOAD);
		if (reply(s, opt, REP_INFO, b, sizeof(b)))
			return -1;
	}
	if (want_name) {
		size_t n = strlen(s->e->name);
		uint8_t *b = malloc(2 + n);
		int r;

		if (!b)
			return -1;
		put16(b, INFO_NAME);
		memcpy(b + 2, s->e->name, n);
		r = reply(s, opt, REP_INFO, b, 2 + n);
		free(b);
		if (r)
			return -1;
	}
	if (reply(s, opt, REP_ACK, NULL, 0))
		return -1;
	return opt == OPT_GO;
}

/* NBD_OPT_LIST_META_CONTEXT and NBD_OPT_SET_META_CONTEXT: export name, count of queries, each query
 * (length, string). Only base:allocation exists (LIST also matches "base:" and an empty list). */
static int opt_meta(struct session *s, uint32_t opt, const uint8_t *d, uint32_t len)
{
	const uint32_t n = sizeof(META_ALLOCATION) - 1;
	uint32_t namelen = len >= 4 ? get32(d) : 0, pos, nq;
	int list = opt == OPT_LIST_META_CONTEXT, found;
	uint8_t b[4 + sizeof(META_ALLOCATION) - 1];

	if (!list)
		s->meta = 0;   /* replaced by this request, even when it fails */
	if (!list && !s->structured)
		return reply_err(s, opt, ERR_INVALID, "NBD_OPT_SET_META_CONTEXT needs structured replies first");
	if (len < 8 || namelen > len - 8)
		return reply_err(s, opt, ERR_INVALID, "malformed metadata context request");
	if (!name_ok(s->e, d + 4, namelen))
		return reply_err(s, opt, ERR_UNKNOWN, "no export of that name");
	pos = 8 + namelen;
	nq = get32(d + 4 + namelen);
	found = list && !nq;
	for (uint32_t i = 0; i < nq; i++) {
		uint32_t ql;

		if (len - pos < 4 || (ql = get32(d + pos)) > len - pos - 4)
			return reply_err(s, opt, ERR_INVALID, "a metadata context query runs past the option");
		pos += 4;
		found |= (ql == n && !memcmp(d + pos, META_ALLOCATION, n)) || (list && ql == 5 && !memcmp(d + pos, "base:", 5));
		pos += ql;
	}
	if (pos != len)
		return reply_err(s, opt, ERR_INVALID, "bytes after the metadata context queries");
	put32(b, META_ID);
	memcpy(b + 4, META_ALLOCATION, n);
	if (found && reply(s, opt, REP_META_CONTEXT, b, sizeof(b)))
		return -1;
	if (!list)
		s->meta = found;
	return reply(s, opt, REP_ACK, NULL, 0) ? -1 : 0;
}

/* One option: 0 to go on, 1 to enter transmission, -1 to end the session. */
static int option(struct session *s, uint32_t opt, const uint8_t *d, uint32_t len)
{
	switch (opt) {
	case OPT_EXPORT_NAME: {
		uint8_t h[10 + 124] = { 0 };

		if (!name_ok(s->e, d, len))
			return -1;   /* no error reply exists for NBD_OPT_EXPORT_NAME: the session ends */
		put64(h, s->e->size);
		put16(h + 8, transmission_flags(s));
		return send2(s->fd, h, s->no_zeroes ? 10 : sizeof(h), NULL, 0) ? -1 : 1;
	}
	case OPT_ABORT:
		reply(s, opt, REP_ACK, NULL, 0);
		return -1;
	case OPT_LIST: {
		size_t n = strlen(s->e->name);
		uint8_t *b;
		int r;

		if (len)
			return reply_err(s, opt, ERR_INVALID, "NBD_OPT_LIST takes no data");
		b = malloc(4 + n);
		if (!b)
			return -1;
		put32(b, (uint32_t)n);
		memcpy(b + 4, s->e->name, n);
		r = reply(s, opt, REP_SERVER, b, 4 + n);
		free(b);
		return r || reply(s, opt, REP_ACK, NULL, 0) ? -1 : 0;
	}
	case OPT_INFO:
	case OPT_GO:
		return opt_info(s, opt, d, len);
	case OPT_STRUCTURED_REPLY:
		if (len)
			return reply_err(s, opt, ERR_INVALID, "NBD_OPT_STRUCTURED_REPLY takes no data");
		s->structured = 1;
		return reply(s, opt, REP_ACK, NULL, 0) ? -1 : 0;
	case OPT_LIST_META_CONTEXT:
	case OPT_SET_META_CONTEXT:
		return opt_meta(s, opt, d, len);
	default:
		return reply_err(s, opt, ERR_UNSUP, "option not supported");
	}
}

/* 1: transmission phase; 0: the session is over. */
static int handshake(struct session *s)
{
	uint8_t h[18];
	uint32_t cflags;

	put64(h, NBD_MAGIC);
	put64(h + 8, NBD_IHAVEOPT);
	put16(h + 16, FLAG_FIXED_NEWSTYLE | FLAG_NO_ZEROES);
	if (send2(s->fd, h, sizeof(h), NULL, 0) || read_full(s->fd, h, 4))
		return 0;
	cflags = get32(h);
	if (cflags & ~(uint32_t)(FLAG_FIXED_NEWSTYLE | FLAG_NO_ZEROES))
		return 0;   /* unknown client flags: the server MUST drop the connection */
	s->no_zeroes = !!(cflags & FLAG_NO_ZEROES);
	for (;;) {
		uint8_t o[16], *d;
		uint32_t opt, len;
		int r;

		if (read_full(s->fd, o, sizeof(o)) || get64(o) != NBD_IHAVEOPT)
			return 0;
		opt = get32(o + 8);
		len = get32(o + 12);
		if (len > MAX_OPTION) {
			/* skipped in small pieces, then refused: the stream stays in step */
			uint8_t junk[4096];

			while (len) {
				uint32_t n = len < sizeof(junk) ? len : (uint32_t)sizeof(junk);

				if (read_full(s->fd, junk, n))
					return 0;
				len -= n;
			}
			if (reply_err(s, opt, ERR_TOO_BIG, "option data too long"))
				return 0;
			continue;
		}
		d = session_buf(s, len ? len : 1);
		if (!d || read_full(s->fd, d, len))
			return 0;
		r = option(s, opt, d, len);
		if (r)
			return r > 0;
	}
}

/* ---- transmission ---------------------------------------------------------------------------------------- */

static uint32_t nbd_error(int r)
{
	switch (r) {
	case 0: return 0;
	case -EPERM: case -EBADF: case -EROFS: return NBD_EPERM;
	case -ENOSPC: case -EDQUOT: case -EFBIG: return NBD_ENOSPC;
	case -EINVAL: return NBD_EINVAL;
	case -ENOMEM: return NBD_ENOMEM;
	default: return NBD_EIO;
	}
}

static int write_zeroes(const struct nbd_export *e, uint64_t off, uint64_t len)
{
	static const uint8_t zero[1 << 16];
	int r = 0;

	while (len && !r) {
		size_t n = len < sizeof(zero) ? (size_t)len : sizeof(zero);

		r = e->write(e->ctx, off, zero, n);
		off += n;
		len -= n;
	}
	return r;
}

/* A request other than NBD_CMD_DISC, its payload (if a write) in s->buf: the reply's error value. */
static uint32_t command(struct session *s, uint16_t flags, uint16_t type, uint64_t off, uint32_t len)
{
	const struct nbd_export *e = s->e;
	int in_range = off <= e->size && len <= e->size - off, r;

	switch (type) {
	case CMD_READ:
		if ((flags & ~(CF_FUA | (s->structured ? CF_DF : 0))) || len > MAX_PAYLOAD || !in_range)
			return NBD_EINVAL;
		if (!session_buf(s, len ? len : 1))
			return NBD_ENOMEM;
		return len ? nbd_error(e->read(e->ctx, off, s->buf, len)) : 0;
	case CMD_WRITE:
	case CMD_WRITE_ZEROES:
	case CMD_TRIM:
		if (flags & ~(CF_FUA | (type == CMD_WRITE_ZEROES ? CF_NO_HOLE : 0)))
			return NBD_EINVAL;
		if (e->read_only)
			return NBD_EPERM;
		if (!in_range)
			return type == CMD_TRIM ? NBD_EINVAL : NBD_ENOSPC;
		if (type == CMD_TRIM || !len)
			return 0;   /* a trim is a hint: nothing is discarded (dm-crypt without allow_discards) */
		pthread_mutex_lock(&write_lock);
		r = type == CMD_WRITE ? e->write(e->ctx, off, s->buf, len) : write_zeroes(e, off, len);
		pthread_mutex_unlock(&write_lock);
		if (!r && (flags & CF_FUA))
			r = e->flush(e->ctx);
		return nbd_error(r);
	case CMD_FLUSH:
		return flags & ~CF_FUA ? NBD_EINVAL : nbd_error(e->flush(e->ctx));
	case CMD_BLOCK_STATUS:
		return !s->meta || (flags & ~(CF_FUA | CF_REQ_ONE)) || !len || !in_range ? NBD_EINVAL : 0;
	default:
		return NBD_EINVAL;
	}
}

/* What the workers of one connection share: requests are read, and replies sent, one at a time. */
struct conn {
	pthread_mutex_t rlock, slock;
	int done;                    /* under rlock: NBD_CMD_DISC, end of stream, or a protocol violation */
};

struct worker {
	struct session s;            /* its own payload buffer */
	struct conn *c;
	pthread_t thread;
};

/* A simple reply: its header, and a read's data (data_len bytes of s->buf). */
static int send_simple(struct session *s, const uint8_t *cookie, uint32_t err, uint32_t data_len)
{
	uint8_t h[16];

	put32(h, NBD_SIMPLE_REPLY_MAGIC);
	put32(h + 4, err);
	memcpy(h + 8, cookie, 8);   /* opaque */
	return send2(s->fd, h, sizeof(h), s->buf, data_len);
}

/* A structured reply's one chunk, the final one. */
static void chunk_header(uint8_t *h, const uint8_t *cookie, uint16_t type, uint32_t len)
{
	put32(h, NBD_STRUCTURED_REPLY_MAGIC);
	put16(h + 4, REPLY_FLAG_DONE);
	put16(h + 6, type);
	memcpy(h + 8, cookie, 8);
	put32(h + 16, len);
}

/* NBD_CMD_BLOCK_STATUS's one chunk: one extent, the whole request, allocated data. */
static int send_extent(struct session *s, const uint8_t *cookie, uint32_t len)
{
	uint8_t h[32];

	chunk_header(h, cookie, REPLY_TYPE_BLOCK_STATUS, 12);
	put32(h + 20, META_ID);
	put32(h + 24, len);
	put32(h + 28, 0);
	return send2(s->fd, h, sizeof(h), NULL, 0);
}

/* A read's structured reply, one final chunk: the data (OFFSET_DATA), nothing for a read of 0 bytes (NONE),
 * or the error (ERROR, without a message). */
static int send_chunk(struct session *s, const uint8_t *cookie, uint64_t off, uint32_t len, uint32_t err)
{
	uint8_t h[28];
	uint16_t type = err ? REPLY_TYPE_ERROR : len ? REPLY_TYPE_OFFSET_DATA : REPLY_TYPE_NONE;
	uint32_t plen = err ? 6 : len ? 8 : 0;

	chunk_header(h, cookie, type, plen + (type == REPLY_TYPE_OFFSET_DATA ? len : 0));
	if (err) {
		put32(h + 20, err);
		put16(h + 24, 0);
	} else {
		put64(h + 20, off);
	}
	return send2(s->fd, h, 20 + plen, s->buf, type == REPLY_TYPE_OFFSET_DATA ? len : 0);
}

/* One worker: takes the next request (and a write's payload) off the socket, runs it while the other workers
 * take theirs, and sends its reply; replies may leave out of order, each with its cookie. */
static void *transmission(void *arg)
{
	struct worker *w = arg;
	struct session *s = &w->s;
	struct conn *c = w->c;

	for (;;) {
		uint8_t q[28];
		uint16_t flags, type;
		uint32_t len, err;
		uint64_t off;
		int r;

		pthread_mutex_lock(&c->rlock);
		r = c->done || read_full(s->fd, q, sizeof(q)) || get32(q) != NBD_REQUEST_MAGIC;
		type = r ? CMD_DISC : get16(q + 6);
		len = r ? 0 : get32(q + 24);
		if (type == CMD_WRITE)
			r = len > MAX_PAYLOAD || !session_buf(s, len ? len : 1) || read_full(s->fd, s->buf, len);
		if (r || type == CMD_DISC)
			c->done = 1;   /* the requests already taken still get their replies */
		pthread_mutex_unlock(&c->rlock);
		if (r || type == CMD_DISC)
			return NULL;
		flags = get16(q + 4);
		off = get64(q + 16);
		err = command(s, flags, type, off, len);
		pthread_mutex_lock(&c->slock);
		if (type == CMD_READ && s->structured)
			r = send_chunk(s, q + 8, off, len, err);
		else if (type == CMD_BLOCK_STATUS && !err)
			r = send_extent(s, q + 8, len);
		else
			r = send_simple(s, q + 8, err, type == CMD_READ && !err ? len : 0);
		pthread_mutex_unlock(&c->slock);
		/* a buffer for the largest payloads is not kept between them: 64 clients of 4 workers would pin 8 GiB */
		if (s->cap > KEEP_BUF)
			session_free(s);
		if (r) {
			pthread_mutex_lock(&c->rlock);
			c->done = 1;
			pthread_mutex_unlock(&c->rlock);
			return NULL;
		}
	}
}

void nbd_session(const struct nbd_export *e, int fd)
{
	struct conn c = { .rlock = PTHREAD_MUTEX_INITIALIZER, .slock = PTHREAD_MUTEX_INITIALIZER };
	struct worker w[NBD_WORKERS];
	int started = 1;

	w[0] = (struct worker){ .s = { .e = e, .fd = fd }, .c = &c };
	if (handshake(&w[0].s)) {
		/* several requests of one client in flight at once: the cores share a queue of random reads */
		for (; started < NBD_WORKERS; started++) {
			w[started] = (struct worker){ .s = { .e = e, .fd = fd, .structured = w[0].s.structured,
			                                       .meta = w[0].s.meta }, .c = &c };
			if (pthread_create(&w[started].thread, NULL, transmission, &w[started]))
				break;
		}
		transmission(&w[0]);
		for (int i = 1; i < started; i++)
			pthread_join(w[i].thread, NULL);
	}
	for (int i = 0; i < started; i++)
		session_free(&w[i].s);
}

/* ---- the listener ------------------------------------------------------------------------------------------ */

struct client {
	const struct nbd_export *e;
	pthread_t thread;
	int fd, used;
	volatile int done;
};

static pthread_mutex_t clients_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void *client_main(void *arg)
{
	struct client *c = arg;

	nbd_session(c->e, c->fd);
	/* the client waits for the end of the stream; the descriptor itself is closed once the thread is joined,
	 * so that the listener never shuts down a number reused by another connection */
	shutdown(c->fd, SHUT_RDWR);
	pthread_mutex_lock(&clients_lock);
	c->done = 1;
	pthread_mutex_unlock(&clients_lock);
	return NULL;
}

static int fail(int err, const char *what, const char *where)
{
	fprintf(stderr, "blockcrypt: %s %s: %s\n", what, where, strerror(err));
	return -err;
}

static int listen_unix(const char *path, char *uri, size_t urilen)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct stat st;
	mode_t old;
	int fd, r;

	if (strlen(path) >= sizeof(a.sun_path))
		return fail(ENAMETOOLONG, "socket", path);
	/* a socket left by an earlier run is replaced; any other file is not */
	if (!lstat(path, &st) && S_ISSOCK(st.st_mode))
		unlink(path);
	memcpy(a.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return fail(errno, "socket", path);
	old = umask(077);   /* the socket gives the plaintext: its owner only */
	r = bind(fd, (struct sockaddr *)&a, sizeof(a));
	umask(old);
	if (r || listen(fd, 16)) {
		r = errno;
		close(fd);
		return fail(r, "cannot listen on", path);
	}
	snprintf(uri, urilen, "nbd+unix:///?socket=%s", path);
	return fd;
}

static int listen_tcp(const char *addr, unsigned port, char *uri, size_t urilen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE | AI_NUMERICSERV | AI_NUMERICHOST };
	struct addrinfo *ai;
	char service[12];
	int fd, one = 1, r;

	if (!addr)
		addr = "127.0.0.1";
	snprintf(service, sizeof(service), "%u", port);
	r = getaddrinfo(addr, service, &hints, &ai);
	if (r) {
		fprintf(stderr, "blockcrypt: --bind %s: %s\n", addr, gai_strerror(r));
		return -EINVAL;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		r = errno;
		freeaddrinfo(ai);
		return fail(r, "socket for", addr);
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 16)) {
		r = errno;
		close(fd);
		freeaddrinfo(ai);
		return fail(r, "cannot listen on", addr);
	}
	snprintf(uri, urilen, ai->ai_family == AF_INET6 ? "nbd://[%s]:%u/" : "nbd://%s:%u/", addr, port);
	freeaddrinfo(ai);
	return fd;
}

/* Joins the clients that are done (all of them, after shutting their sockets, when closing). */
static void reap(struct client *c, int all)
{
	for (int i = 0; i < MAX_CLIENTS; i++) {
		int done;

		if (!c[i].used)
			continue;
		pthread_mutex_lock(&clients_lock);
		done = c[i].done;
		pthread_mutex_unlock(&clients_lock);
		if (!done && !all)
			continue;
		if (!done)
			shutdown(c[i].fd, SHUT_RDWR);
		pthread_join(c[i].thread, NULL);
		close(c[i].fd);
		c[i].used = 0;
	}
}

int nbd_serve(const struct nbd_export *e, const struct nbd_listen *l, void (*ready)(const char *uri))
{
	static struct client clients[MAX_CLIENTS];
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block, old, wait_mask;
	char uri[200];
	int lfd, tcp = l->port != 0;

	stop = 0;
	lfd = tcp ? listen_tcp(l->bind_addr, l->port, uri, sizeof(uri)) : listen_unix(l->socket_path, uri, sizeof(uri));
	if (lfd < 0)
		return lfd;
	/* the signals reach only the listener's ppoll; a client gone mid-reply is an error, not SIGPIPE */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	wait_mask = old;
	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGTERM);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (ready)
		ready(uri);
	while (!stop) {
		struct pollfd p = { .fd = lfd, .events = POLLIN };
		int fd, i, one = 1;

		if (ppoll(&p, 1, NULL, &wait_mask) <= 0)
			continue;
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		if (tcp)
			setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		reap(clients, 0);
		for (i = 0; i < MAX_CLIENTS && clients[i].used; i++)
			;
		if (i == MAX_CLIENTS) {
			close(fd);   /* too many clients at once */
			continue;
		}
		clients[i] = (struct client){ .e = e, .fd = fd, .used = 1 };
		if (pthread_create(&clients[i].thread, NULL, client_main, &clients[i])) {
			close(fd);
			clients[i].used = 0;
		}
	}
	close(lfd);
	if (!tcp)
		unlink(l->socket_path);
	reap(clients, 1);
	if (!e->read_only)
		e->flush(e->ctx);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return 0;
}
