/* AF_ALG through raw socket calls (run under libblockcrypt-afalg.so, or a kernel with AF_ALG): skcipher, aead,
 * hash, errors, descriptors and threads, each result checked against libblockcrypt called directly. Linux userspace-if.rst. */
#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <sys/epoll.h>
#include <linux/aio_abi.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <dirent.h>
#include <linux/if_alg.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "afalg_op.h"
#include "common.h"

static int tfm_open(const char *type, const char *name)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	snprintf((char *)sa.salg_type, sizeof(sa.salg_type), "%s", type);
	snprintf((char *)sa.salg_name, sizeof(sa.salg_name), "%s", name);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int e = -errno;

		close(fd);
		return e;
	}
	return fd;
}

static int setkey(int fd, const uint8_t *key, size_t len)
{
	return setsockopt(fd, SOL_ALG, ALG_SET_KEY, key, (socklen_t)len) ? -errno : 0;
}

static ssize_t rd(int fd, uint8_t *p, size_t len)
{
	ssize_t r = read(fd, p, len);

	return r < 0 ? -errno : r;
}

/* ---- skcipher -------------------------------------------------------------------------------------------- */

static void test_skcipher(const char *name, size_t keylen, size_t unit)
{
	static const size_t lens[] = { 16, 32, 48, 512, 4096, 4112, 65536 };
	uint8_t key[64], iv[16], iv2[16], *pt = malloc(70000), *ct = malloc(70000), *got = malloc(70000);
	bc_skcipher *d;
	int tfm, op;
	const uint8_t *civ = strncmp(name, "ecb", 3) ? iv : NULL;   /* ecb takes no IV: one would be refused */

	set_context("%s", name);
	rng_fill(key, keylen);
	tfm = tfm_open("skcipher", name);
	CHECK(tfm >= 0, "bind %s: %d", name, tfm);
	if (tfm < 0)
		goto out;
	CHECK(setkey(tfm, key, keylen) == 0, "setkey");
	CHECK(bc_skcipher_alloc(&d, name) == 0 && bc_skcipher_setkey(d, key, keylen) == 0, "direct");
	op = accept(tfm, NULL, NULL);
	CHECK(op >= 0, "accept: %d", errno);
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		size_t len = lens[i] / unit * unit;

		rng_fill(pt, len);
		rng_fill(iv, 16);
		memcpy(iv2, iv, 16);
		bc_skcipher_encrypt(d, iv2, pt, ct, len);
		/* whole */
		CHECK(afalg_send_op(op, ALG_OP_ENCRYPT, civ, 16, -1, pt, len, 0) == (ssize_t)len, "send %zu", len);
		memset(got, 0, len);
		CHECK(rd(op, got, len) == (ssize_t)len && !memcmp(got, ct, len), "encrypt %zu", len);
		/* in pieces: sent in three parts with MSG_MORE, read in block-multiple pieces */
		size_t a = len / 3 / 16 * 16, b = len / 2 / 16 * 16;
		CHECK(afalg_send_op(op, ALG_OP_DECRYPT, civ, 16, -1, ct, a, MSG_MORE) == (ssize_t)a, "send piece 1");
		CHECK(afalg_send_op(op, -1, NULL, 0, -1, ct + a, b - a, MSG_MORE) == (ssize_t)(b - a), "send piece 2");
		CHECK(afalg_send_op(op, -1, NULL, 0, -1, ct + b, len - b, 0) == (ssize_t)(len - b), "send piece 3");
		memset(got, 0, len);
		size_t done = 0, step = len > 64 ? len / 4 / 16 * 16 : 16;
		while (done < len) {
			ssize_t r = rd(op, got + done, len - done < step ? len - done : step);
			if (r <= 0)
				break;
			done += (size_t)r;
		}
		/* xts restarts its tweak with each request piece in the kernel too: whole reads only compare there */
		CHECK(done == len, "decrypt pieces %zu", len);
		if (strncmp(name, "xts", 3) || step >= len)
			CHECK(!memcmp(got, pt, len), "decrypt pieces %zu: plaintext", len);
	}
	/* the IV chains from one request to the next within a socket (cbc: the last ciphertext block) */
	if (!strcmp(name, "cbc(aes)")) {
		rng_fill(pt, 64);
		rng_fill(iv, 16);
		memcpy(iv2, iv, 16);
		bc_skcipher_encrypt(d, iv2, pt, ct, 64);
		afalg_send_op(op, ALG_OP_ENCRYPT, iv, 16, -1, pt, 32, 0);
		rd(op, got, 32);
		afalg_send_op(op, ALG_OP_ENCRYPT, NULL, 0, -1, pt + 32, 32, 0);
		rd(op, got + 32, 32);
		CHECK(!memcmp(got, ct, 64), "IV carried over");
		/* errors: a partial block, an IV of the wrong size, new data over an unread request */
		CHECK(afalg_send_op(op, ALG_OP_DECRYPT, iv, 16, -1, ct, 20, 0) == 20, "send 20");
		CHECK(rd(op, got, 20) == -EINVAL, "cbc partial block: -EINVAL");
		CHECK(afalg_send_op(op, ALG_OP_ENCRYPT, iv, 8, -1, pt, 16, 0) == -EINVAL, "IV size: -EINVAL");
		CHECK(afalg_send_op(op, ALG_OP_ENCRYPT, iv, 16, -1, pt, 16, 0) == 16, "send");
		CHECK(afalg_send_op(op, ALG_OP_ENCRYPT, iv, 16, -1, pt, 16, 0) == -EINVAL, "unread request: -EINVAL");
		CHECK(rd(op, got, 16) == 16, "read it");
		CHECK(afalg_send_op(op, 7, iv, 16, -1, pt, 16, 0) == -EINVAL, "bad op: -EINVAL");
		CHECK(setkey(tfm, key, keylen) == -EBUSY, "setkey with an op socket: -EBUSY");
		CHECK(accept(op, NULL, NULL) < 0 && errno == EOPNOTSUPP, "accept on an op socket: EOPNOTSUPP");
		struct sockaddr_alg sa = { .salg_family = AF_ALG, .salg_type = "skcipher", .salg_name = "cbc(aes)" };
		CHECK(bind(op, (struct sockaddr *)&sa, sizeof(sa)) < 0 && errno == EOPNOTSUPP, "bind on an op socket: EOPNOTSUPP");
		CHECK(bind(tfm, (struct sockaddr *)&sa, sizeof(sa)) < 0 && errno == EBUSY, "rebind with op sockets: EBUSY");
		CHECK(setsockopt(op, SOL_ALG, ALG_SET_KEY, key, 16) < 0 && errno == ENOPROTOOPT, "setkey on op: ENOPROTOOPT");
		CHECK(afalg_send_op(tfm, ALG_OP_ENCRYPT, iv, 16, -1, pt, 16, 0) == -EOPNOTSUPP, "sendmsg on the tfm: EOPNOTSUPP");
		/* read with MSG_DONTWAIT and nothing sent */
		CHECK(recv(op, got, 16, MSG_DONTWAIT) < 0 && errno == EAGAIN, "empty: EAGAIN");
		struct pollfd p = { op, POLLIN | POLLOUT, 0 };
		CHECK(poll(&p, 1, 0) == 1 && (p.revents & POLLOUT), "poll");
		/* through a dup, with the original closed */
		int op2 = dup(op);
		close(op);
		op = op2;
		afalg_send_op(op, ALG_OP_ENCRYPT, iv, 16, -1, pt, 64, 0);
		CHECK(rd(op, got, 64) == 64 && !memcmp(got, ct, 64), "through dup");
		/* readv and writev */
		struct iovec w[2] = { { pt, 24 }, { pt + 24, 40 } }, r[3] = { { got, 8 }, { got + 8, 50 }, { got + 58, 6 } };
		afalg_send_op(op, ALG_OP_ENCRYPT, iv, 16, -1, NULL, 0, MSG_MORE);
		CHECK(writev(op, w, 2) == 64, "writev");
		memset(got, 0, 64);
		CHECK(readv(op, r, 3) == 64 && !memcmp(got, ct, 64), "readv");
	}
	close(op);
	close(tfm);
	bc_skcipher_free(d);
out:
	free(pt);
	free(ct);
	free(got);
}

/* ---- aead ------------------------------------------------------------------------------------------------- */

static void test_aead(const char *name, size_t ivlen, size_t as)
{
	uint8_t key[16], iv[16], ad[40], *pt = malloc(5000), *in = malloc(6000), *got = malloc(6000), tag[16];
	bc_aead *d;
	int tfm, op;

	set_context("%s authsize %zu", name, as);
	rng_fill(key, 16);
	tfm = tfm_open("aead", name);
	CHECK(tfm >= 0, "bind: %d", tfm);
	if (tfm < 0)
		goto out;
	CHECK(setkey(tfm, key, 16) == 0, "setkey");
	CHECK(setsockopt(tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL, (socklen_t)as) == 0, "authsize");
	CHECK(bc_aead_alloc(&d, name) == 0 && bc_aead_setkey(d, key, 16) == 0 && bc_aead_setauthsize(d, as) == 0, "direct");
	op = accept(tfm, NULL, NULL);
	static const size_t lens[] = { 0, 1, 16, 61, 4096 };
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		size_t len = lens[i], adl = i * 8;

		rng_fill(pt, len);
		rng_fill(ad, adl);
		rng_fill(iv, 16);
		if (ivlen == 16)
			iv[0] = 3;   /* ccm: L = 4 */
		bc_aead_encrypt(d, iv, ivlen, ad, adl, pt, in + adl, len, tag);
		memcpy(in, ad, adl);
		memcpy(in + adl + len, tag, as);
		/* encryption: AAD || plaintext in, AAD || ciphertext || tag out; the AAD sent apart with MSG_MORE */
		uint8_t *msg = malloc(adl + len + 1);
		memcpy(msg, ad, adl);
		memcpy(msg + adl, pt, len);
		CHECK(afalg_send_op(op, ALG_OP_ENCRYPT, iv, ivlen, (int)adl, msg, adl, MSG_MORE) == (ssize_t)adl, "send ad");
		CHECK(afalg_send_op(op, -1, NULL, 0, -1, msg + adl, len, 0) == (ssize_t)len, "send pt");
		memset(got, 0, adl + len + as);
		CHECK(rd(op, got, adl + len + as) == (ssize_t)(adl + len + as) && !memcmp(got, in, adl + len + as),
		      "encrypt %zu+%zu", adl, len);
		/* decryption: AAD || ciphertext || tag in, AAD || plaintext out */
		CHECK(afalg_send_op(op, ALG_OP_DECRYPT, iv, ivlen, (int)adl, in, adl + len + as, 0) == (ssize_t)(adl + len + as), "send");
		CHECK(rd(op, got, adl + len + as) == (ssize_t)(adl + len) && !memcmp(got, msg, adl + len), "decrypt %zu", len);
		/* one bit of the tag, then of the AAD: -EBADMSG */
		in[adl + len] ^= 1;
		afalg_send_op(op, ALG_OP_DECRYPT, iv, ivlen, (int)adl, in, adl + len + as, 0);
		CHECK(rd(op, got, adl + len + as) == -EBADMSG, "bad tag: -EBADMSG");
		in[adl + len] ^= 1;
		if (adl) {
			in[0] ^= 0x80;
			afalg_send_op(op, ALG_OP_DECRYPT, iv, ivlen, (int)adl, in, adl + len + as, 0);
			CHECK(rd(op, got, adl + len + as) == -EBADMSG, "bad AAD: -EBADMSG");
			in[0] ^= 0x80;
		}
		free(msg);
	}
	/* too little data for the AAD and tag; an IV of the wrong size */
	afalg_send_op(op, ALG_OP_DECRYPT, iv, ivlen, 8, in, 8 + as - 1, 0);
	CHECK(rd(op, got, 100) == -EINVAL, "short decryption: -EINVAL");
	CHECK(afalg_send_op(op, ALG_OP_ENCRYPT, iv, ivlen - 1, 0, pt, 16, 0) == -EINVAL, "IV size: -EINVAL");
	close(op);
	CHECK(setsockopt(tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL, 3) < 0 && errno == EINVAL, "authsize 3: EINVAL");
	close(tfm);
	bc_aead_free(d);
out:
	free(pt);
	free(in);
	free(got);
}

/* ---- hash ------------------------------------------------------------------------------------------------- */

static void test_hash(const char *name, int keyed)
{
	uint8_t key[32], data[3000], want[64], got[64], want2[64];
	bc_shash *d;
	int tfm, op, c;
	size_t ds;

	set_context("%s", name);
	rng_fill(key, sizeof(key));
	rng_fill(data, sizeof(data));
	tfm = tfm_open("hash", name);
	CHECK(tfm >= 0, "bind: %d", tfm);
	if (tfm < 0)
		return;
	CHECK(bc_shash_alloc(&d, name) == 0, "direct");
	if (keyed) {
		/* an op socket accepted before the key: -ENOKEY until the tfm has one */
		int early = accept(tfm, NULL, NULL);
		CHECK(early >= 0, "accept without key");
		CHECK(send(early, data, 10, 0) < 0 && errno == ENOKEY, "no key: ENOKEY");
		CHECK(setkey(tfm, key, sizeof(key)) == 0, "setkey");
		bc_shash_setkey(d, key, sizeof(key));
		bc_shash_digest(d, data, 10, want);
		CHECK(send(early, data, 10, 0) == 10 && rd(early, got, 64) == (ssize_t)bc_shash_digestsize(d) &&
		      !memcmp(got, want, bc_shash_digestsize(d)), "the key taken up");
		close(early);
	}
	ds = bc_shash_digestsize(d);
	op = accept(tfm, NULL, NULL);
	for (size_t len = 0; len <= sizeof(data); len += len < 130 ? 13 : 997) {
		bc_shash_digest(d, data, len, want);
		CHECK(send(op, data, len, 0) == (ssize_t)len, "send");
		CHECK(rd(op, got, 64) == (ssize_t)ds && !memcmp(got, want, ds), "digest %zu", len);
		/* in pieces */
		CHECK(send(op, data, len / 2, MSG_MORE) == (ssize_t)(len / 2), "piece");
		CHECK(send(op, data + len / 2, len - len / 2, MSG_MORE) == (ssize_t)(len - len / 2), "piece");
		CHECK(rd(op, got, ds) == (ssize_t)ds && !memcmp(got, want, ds), "pieces %zu", len);
	}
	/* nothing sent: the empty message's digest; a short read is truncated (MSG_TRUNC) */
	bc_shash_digest(d, data, 0, want);
	CHECK(rd(op, got, ds) == (ssize_t)ds && !memcmp(got, want, ds), "empty");
	struct iovec v = { got, 5 };
	struct msghdr m = { .msg_iov = &v, .msg_iovlen = 1 };
	send(op, data, 0, 0);
	CHECK(recvmsg(op, &m, 0) == 5 && (m.msg_flags & MSG_TRUNC) && !memcmp(got, want, 5), "truncated");
	/* accept on an op socket clones the half-hashed state */
	send(op, data, 100, MSG_MORE);
	c = accept(op, NULL, NULL);
	CHECK(c >= 0, "clone");
	send(op, data + 100, 50, 0);
	send(c, data + 100, 200, 0);
	bc_shash_digest(d, data, 150, want);
	bc_shash_digest(d, data, 300, want2);
	CHECK(rd(op, got, ds) == (ssize_t)ds && !memcmp(got, want, ds), "original after clone");
	CHECK(rd(c, got, ds) == (ssize_t)ds && !memcmp(got, want2, ds), "clone");
	close(c);
	close(op);
	close(tfm);
	bc_shash_free(d);
}

/* ---- errors of socket and bind ---------------------------------------------------------------------------- */

static void test_errors(void)
{
	int fd;

	set_context("errors");
	CHECK(tfm_open("skcipher", "cbc(nosuch)") == -ENOENT, "unknown algorithm: -ENOENT");
	CHECK(tfm_open("nosuch", "cbc(aes)") == -ENOENT, "unknown type: -ENOENT");
	CHECK(tfm_open("aead", "cbc(aes)") == -ENOENT, "skcipher as aead: -ENOENT");
	CHECK(tfm_open("rng", "cbc(aes)") == -ENOENT && tfm_open("skcipher", "stdrng") == -ENOENT, "rng by type only");
	CHECK(socket(AF_ALG, SOCK_STREAM, 0) < 0 && errno == ESOCKTNOSUPPORT, "SOCK_STREAM: ESOCKTNOSUPPORT");
	CHECK(socket(AF_ALG, SOCK_SEQPACKET, 1) < 0 && errno == EPROTONOSUPPORT, "protocol 1: EPROTONOSUPPORT");
	fd = socket(AF_ALG, SOCK_SEQPACKET, 0);
	CHECK(accept(fd, NULL, NULL) < 0 && errno == EINVAL, "accept unbound: EINVAL");
	CHECK(setsockopt(fd, SOL_ALG, ALG_SET_KEY, "k", 1) < 0 && errno == ENOPROTOOPT, "setkey unbound: ENOPROTOOPT");
	close(fd);
	fd = tfm_open("skcipher", "xts(aes)");
	CHECK(setkey(fd, (const uint8_t *)"0123456789abcdef", 16) == -EINVAL, "xts 16-byte key: -EINVAL");
	int op = accept(fd, NULL, NULL);
	CHECK(op >= 0, "accept without key");
	CHECK(afalg_send_op(op, ALG_OP_ENCRYPT, NULL, 0, -1, (const uint8_t *)"x", 1, 0) == -ENOKEY, "no key: -ENOKEY");
	close(op);
	close(fd);
	fd = tfm_open("skcipher", "ecb(aes-generic)");
	CHECK(fd >= 0, "a driver name binds");
	close(fd);
}

/* ---- threads, and many sockets opened and closed ---------------------------------------------------------- */

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

static void *thread_main(void *arg)
{
	uint8_t key[32], iv[16], pt[1024], ct[1024], got[1024];
	uintptr_t seed = (uintptr_t)arg, bad = 0;
	bc_skcipher *d;

	for (int i = 0; i < 32; i++) {
		key[i] = (uint8_t)(seed * 31 + (uintptr_t)i);
	}
	bc_skcipher_alloc(&d, "xts(aes)");
	bc_skcipher_setkey(d, key, 32);
	for (int round = 0; round < 50; round++) {
		int tfm = tfm_open("skcipher", "xts(aes)"), op;

		setkey(tfm, key, 32);
		op = accept(tfm, NULL, NULL);
		for (int k = 0; k < 20; k++) {
			size_t len = 16 + (size_t)((seed + (uintptr_t)k * 7 + (uintptr_t)round) % 63) * 16;

			memset(iv, k, 16);
			for (size_t j = 0; j < len; j++)
				pt[j] = (uint8_t)(j + seed + (uintptr_t)k);
			uint8_t iv2[16];
			memcpy(iv2, iv, 16);
			bc_skcipher_encrypt(d, iv2, pt, ct, len);
			afalg_send_op(op, ALG_OP_ENCRYPT, iv, 16, -1, pt, len, 0);
			/* read itself on an array of known size and a count the compiler cannot bound: __read_chk under
			 * _FORTIFY_SOURCE */
			volatile size_t n = len;
			if (read(op, got, n) != (ssize_t)len || memcmp(got, ct, len))
				bad++;
		}
		close(op);
		close(tfm);
	}
	bc_skcipher_free(d);
	return (void *)bad;
}

static void test_threads(void)
{
	pthread_t t[8];
	int before = count_fds();

	set_context("threads");
	for (uintptr_t i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, thread_main, (void *)i);
	for (int i = 0; i < 8; i++) {
		void *bad;

		pthread_join(t[i], &bad);
		CHECK(bad == NULL, "thread %d: %lu wrong results", i, (unsigned long)(uintptr_t)bad);
	}
	for (int i = 0; i < 5000; i++) {
		int tfm = tfm_open("hash", "sha256"), op = accept(tfm, NULL, NULL), c = dup(op);

		close(tfm);
		close(op);
		if (send(c, "abc", 3, 0) != 3) {
			CHECK(0, "socket %d", i);
			break;
		}
		close(c);
	}
	CHECK(count_fds() == before, "descriptors before %d, after %d", before, count_fds());
}

/* Thousands of sockets held open at once, each op socket with a request begun (MSG_MORE), then closed: no descriptor
 * and no memory left behind (the second round measured; the first allocates the descriptor table's pages). */
static void test_many_open(void)
{
	enum { N = 2000 };
	static int tfm[N], op[N];
	size_t heap[2] = { 0, 0 };
	int before = count_fds();

	set_context("many open");
	for (int round = 0; round < 2; round++) {
		size_t start = mallinfo2().uordblks;
		int ok = 1;

		for (int i = 0; i < N && ok; i++) {
			tfm[i] = tfm_open("skcipher", "cbc(aes)");
			ok = tfm[i] >= 0 && setkey(tfm[i], (const uint8_t *)"0123456789abcdef", 16) == 0 &&
			     (op[i] = accept(tfm[i], NULL, NULL)) >= 0 &&
			     afalg_send_op(op[i], ALG_OP_ENCRYPT, (const uint8_t *)"0123456789abcdef", 16, -1, "partial", 7,
			                   MSG_MORE) == 7;
			if (!ok)
				CHECK(0, "socket pair %d", i);
		}
		CHECK(count_fds() == before + 2 * N, "%d descriptors open: %d", 2 * N, count_fds() - before);
		for (int i = 0; i < N; i++) {
			close(op[i]);
			close(tfm[i]);
		}
		heap[round] = mallinfo2().uordblks - start;
		CHECK(count_fds() == before, "descriptors before %d, after %d", before, count_fds());
	}
	CHECK(heap[1] == 0, "heap grew by %zu bytes over %d socket pairs", heap[1], N);
}

/* A client killed in the middle of a request (MSG_MORE sent, never finished) by SIGKILL: the parent's sockets, one of
 * them with a request of its own begun before the fork, go on; no descriptor is left behind. */
static void test_killed_client(void)
{
	uint8_t key[16], iv[16], iv2[16], pt[64], ct[64], got[64];
	int before = count_fds(), tfm, op = -1, sync[2], status;
	bc_skcipher *d;
	pid_t pid;
	char c;

	set_context("killed client");
	rng_fill(key, 16);
	rng_fill(iv, 16);
	rng_fill(pt, 64);
	memcpy(iv2, iv, 16);
	bc_skcipher_alloc(&d, "ctr(aes)");
	bc_skcipher_setkey(d, key, 16);
	bc_skcipher_encrypt(d, iv2, pt, ct, 64);
	tfm = tfm_open("skcipher", "ctr(aes)");
	CHECK(tfm >= 0 && setkey(tfm, key, 16) == 0 && (op = accept(tfm, NULL, NULL)) >= 0, "sockets");
	CHECK(afalg_send_op(op, ALG_OP_ENCRYPT, iv, 16, -1, pt, 32, MSG_MORE) == 32, "first half");
	CHECK(pipe(sync) == 0, "pipe");
	pid = fork();
	if (pid == 0) {
		int mine = accept(tfm, NULL, NULL);

		afalg_send_op(mine, ALG_OP_ENCRYPT, iv, 16, -1, pt, 64, MSG_MORE);
		if (write(sync[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	CHECK(pid > 0 && read(sync[0], &c, 1) == 1, "child sent");
	kill(pid, SIGKILL);
	CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "child killed");
	close(sync[0]);
	close(sync[1]);
	CHECK(afalg_send_op(op, -1, NULL, 0, -1, pt + 32, 32, 0) == 32, "second half");
	memset(got, 0, sizeof(got));
	CHECK(rd(op, got, 64) == 64 && !memcmp(got, ct, 64), "the parent's request");
	close(op);
	CHECK(setkey(tfm, key, 16) == 0, "the parent's tfm takes a key again");
	close(tfm);
	CHECK(count_fds() == before, "descriptors before %d, after %d", before, count_fds());
	bc_skcipher_free(d);
}

/* epoll and poll on an op socket: af_alg_poll reports EPOLLIN unless a request is open (MSG_MORE) with nothing
 * buffered (!ctx->more || ctx->used), and EPOLLOUT while the send buffer has room. */
static void test_epoll(void)
{
	uint8_t key[16] = { 0 }, buf[64] = { 0 };
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT }, got[4];
	int tfm, op = -1, ep;

	set_context("epoll");
	tfm = tfm_open("skcipher", "cbc(aes)");
	CHECK(tfm >= 0 && setkey(tfm, key, 16) == 0 && (op = accept(tfm, NULL, NULL)) >= 0, "sockets");
	ep = epoll_create1(EPOLL_CLOEXEC);
	ev.data.fd = op;
	CHECK(ep >= 0 && epoll_ctl(ep, EPOLL_CTL_ADD, op, &ev) == 0, "epoll_ctl");
	CHECK(epoll_wait(ep, got, 4, 0) == 1 && got[0].data.fd == op && got[0].events == (EPOLLIN | EPOLLOUT),
	      "fresh: in and out");
	CHECK(afalg_send_op(op, ALG_OP_ENCRYPT, key, 16, -1, NULL, 0, MSG_MORE) == 0, "a request opened, empty");
	CHECK(epoll_wait(ep, got, 4, 0) == 1 && got[0].events == EPOLLOUT, "open and empty: out only");
	CHECK(afalg_send_op(op, -1, NULL, 0, -1, buf, 32, MSG_MORE) == 32, "send more");
	CHECK(epoll_wait(ep, got, 4, 0) == 1 && got[0].events == (EPOLLIN | EPOLLOUT), "data buffered: in and out");
	CHECK(rd(op, buf, 32) == 32, "read what there is");
	CHECK(epoll_wait(ep, got, 4, 0) == 1 && got[0].events == EPOLLOUT, "open, read empty: out only");
	CHECK(afalg_send_op(op, -1, NULL, 0, -1, buf, 32, 0) == 32, "the rest");
	CHECK(epoll_wait(ep, got, 4, 0) == 1 && got[0].events == (EPOLLIN | EPOLLOUT), "finished: in and out");
	CHECK(rd(op, buf, 32) == 32, "request done");
	CHECK(epoll_wait(ep, got, 4, 0) == 1 && got[0].events == (EPOLLIN | EPOLLOUT), "read: in and out");
	struct pollfd pf = { op, POLLIN | POLLOUT, 0 };
	CHECK(send(op, buf, 0, MSG_MORE) == 0 && poll(&pf, 1, 0) == 1 && pf.revents == POLLOUT, "poll(2) agrees");
	CHECK(send(op, buf, 16, 0) == 16 && rd(op, buf, 16) == 16, "closed again");
	ev.events = EPOLLOUT;
	CHECK(epoll_ctl(ep, EPOLL_CTL_MOD, op, &ev) == 0 && epoll_wait(ep, got, 4, 0) == 1 && got[0].events == EPOLLOUT,
	      "EPOLLOUT alone");
	CHECK(epoll_ctl(ep, EPOLL_CTL_DEL, op, NULL) == 0 && epoll_wait(ep, got, 4, 0) == 0, "removed");
	close(ep);
	close(op);
	close(tfm);
}

/* One xts(aes) request on op checked against the library: 0 if right. */
static int xts_once(int op, bc_skcipher *d, size_t len)
{
	uint8_t iv[16] = { 7 }, iv2[16] = { 7 }, pt[512], ct[512], got[512];

	for (size_t j = 0; j < len; j++)
		pt[j] = (uint8_t)(j * 3);
	bc_skcipher_encrypt(d, iv2, pt, ct, len);
	return afalg_send_op(op, ALG_OP_ENCRYPT, iv, 16, -1, pt, len, 0) == (ssize_t)len && rd(op, got, len) == (ssize_t)len &&
	       !memcmp(got, ct, len) ? 0 : -1;
}

struct fork_arg {
	int op, stop;
	bc_skcipher *d;
};

/* Finds the socket behind the descriptor over and over (an op socket has no name: -EOPNOTSUPP, the socket untouched). */
static void *fork_busy(void *arg)
{
	struct fork_arg *a = arg;
	uintptr_t bad = 0;
	struct sockaddr_alg sa;
	socklen_t len;

	while (!__atomic_load_n(&a->stop, __ATOMIC_ACQUIRE)) {
		len = sizeof(sa);
		bad += getsockname(a->op, (struct sockaddr *)&sa, &len) != -1 || errno != EOPNOTSUPP;
	}
	return (void *)bad;
}

/* A fork while another thread is finding the same socket in the descriptor table: the child's copy of it works and
 * does not hang. */
static void test_fork(void)
{
	uint8_t key[64];
	struct fork_arg a = { 0 };
	pthread_t t;
	void *bad;
	int tfm = tfm_open("skcipher", "xts(aes)"), op, status, child_bad = 0;

	set_context("fork");
	for (int i = 0; i < 64; i++)
		key[i] = (uint8_t)(i + 5);
	setkey(tfm, key, 64);
	bc_skcipher_alloc(&a.d, "xts(aes)");
	bc_skcipher_setkey(a.d, key, 64);
	a.op = op = accept(tfm, NULL, NULL);
	CHECK(xts_once(op, a.d, 512) == 0, "before fork");
	pthread_create(&t, NULL, fork_busy, &a);
	for (int i = 0; i < 50; i++) {
		pid_t pid = fork();

		if (!pid) {
			alarm(5);
			_exit(xts_once(op, a.d, 128) ? 1 : 0);
		}
		child_bad += pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status);
	}
	__atomic_store_n(&a.stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, &bad);
	CHECK(child_bad == 0, "%d children failed or hung", child_bad);
	CHECK(bad == NULL, "%lu wrong results in the parent's thread", (unsigned long)(uintptr_t)bad);
	CHECK(xts_once(op, a.d, 512) == 0, "after fork");
	close(op);
	close(tfm);
	bc_skcipher_free(a.d);
}

/* ---- rng (algif_rng.c: reads of at most 128 bytes, the key a seed, no sendmsg, no test entropy) ---------- */

static void test_rng(void)
{
	uint8_t seed[48] = { 0 }, a[300], b[300];
	struct iovec v[2] = { { a, 100 }, { a + 100, 100 } };
	struct msghdr m = { .msg_iov = v, .msg_iovlen = 2 };
	int tfm, op, zeros = 0;

	set_context("rng");
	CHECK(tfm_open("rng", "drbg_nopr_hmac_sha256") == -ENOENT, "a DRBG by name: -ENOENT");
	tfm = tfm_open("rng", "jitterentropy_rng");
	CHECK(tfm >= 0, "jitterentropy_rng: %d", tfm);
	close(tfm);
	tfm = tfm_open("rng", "stdrng");
	CHECK(tfm >= 0, "stdrng: %d", tfm);
	CHECK(setkey(tfm, seed, sizeof(seed)) == 0 && setkey(tfm, seed, 0) == 0, "a seed of any length");
	CHECK(setsockopt(tfm, SOL_ALG, 6 /* ALG_SET_DRBG_ENTROPY */, seed, 32) < 0 && errno == ENOPROTOOPT,
	      "ALG_SET_DRBG_ENTROPY: -ENOPROTOOPT (no CAVP interface)");
	op = accept(tfm, NULL, NULL);
	CHECK(op >= 0, "accept");
	CHECK(setkey(tfm, seed, 16) == -EBUSY, "seed with an op socket: -EBUSY");
	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	CHECK(rd(op, a, sizeof(a)) == 128 && rd(op, b, sizeof(b)) == 128, "a read returns 128 bytes at most");
	CHECK(memcmp(a, b, 128) != 0, "two reads differ");
	for (int i = 128; i < 300; i++)
		zeros += !a[i] && !b[i];
	CHECK(zeros == 172, "nothing past 128 bytes written");
	CHECK(rd(op, a, 5) == 5, "a short read");
	CHECK(recvmsg(op, &m, 0) == 128, "recvmsg across two iovecs: 128");
	CHECK(afalg_send_op(op, -1, NULL, 0, -1, seed, 16, 0) == -EOPNOTSUPP, "sendmsg: -EOPNOTSUPP");
	CHECK(accept(op, NULL, NULL) < 0 && errno == EOPNOTSUPP, "accept on the op socket: -EOPNOTSUPP");
	close(op);
	close(tfm);
}

/* ---- io_submit AIO (fs/aio.c on a socket: sock_read_iter, sock_write_iter) ------------------------------ */

static long aio(long nr, long a, long b, long c, long d)
{
	long r = syscall(nr, a, b, c, d, 0L, 0L);

	return r < 0 ? -errno : r;
}

static void aio_cb(struct iocb *cb, int fd, int op, void *buf, size_t len, uint64_t data)
{
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = (uint32_t)fd;
	cb->aio_lio_opcode = (uint16_t)op;
	cb->aio_buf = (uint64_t)(uintptr_t)buf;
	cb->aio_nbytes = len;
	cb->aio_data = data;
}

/* Writes and reads on an op socket, interleaved with a pipe's (the kernel's own) in one io_submit, completions signalled
 * on an eventfd, a file position refused, a context that does not exist refused. */
static void test_aio(void)
{
	uint8_t key[16], iv[16], iv2[16], pt[4096], ct[4096], got[4096], pipebuf[8] = { 0 };
	struct iocb cbs[5], *list[5] = { &cbs[0], &cbs[1], &cbs[2], &cbs[3], &cbs[4] };
	struct io_event ev[8];
	struct iovec halves[2] = { { got, 1024 }, { got + 1024, 3072 } };
	aio_context_t ctx = 0;
	uint64_t signals = 0;
	int tfm, op = -1, efd, p[2];
	bc_skcipher *d;

	set_context("aio");
	rng_fill(key, 16);
	rng_fill(iv, 16);
	rng_fill(pt, sizeof(pt));
	memcpy(iv2, iv, 16);
	bc_skcipher_alloc(&d, "cbc(aes)");
	bc_skcipher_setkey(d, key, 16);
	bc_skcipher_encrypt(d, iv2, pt, ct, sizeof(ct));
	tfm = tfm_open("skcipher", "cbc(aes)");
	CHECK(tfm >= 0 && setkey(tfm, key, 16) == 0 && (op = accept(tfm, NULL, NULL)) >= 0, "socket");
	efd = eventfd(0, EFD_CLOEXEC);
	CHECK(pipe(p) == 0 && efd >= 0, "pipe, eventfd");
	CHECK(aio(SYS_io_setup, 8, (long)&ctx, 0, 0) == 0, "io_setup");
	/* the operation and IV by sendmsg, then the text by an AIO write */
	CHECK(afalg_send_op(op, ALG_OP_ENCRYPT, iv, 16, -1, NULL, 0, MSG_MORE) == 0, "send op");
	aio_cb(&cbs[0], op, IOCB_CMD_PWRITE, pt, sizeof(pt), 10);
	aio_cb(&cbs[1], p[1], IOCB_CMD_PWRITE, "12345678", 8, 11);
	aio_cb(&cbs[2], op, IOCB_CMD_PREADV, halves, 2, 12);
	aio_cb(&cbs[3], p[0], IOCB_CMD_PREAD, pipebuf, 8, 13);
	aio_cb(&cbs[4], op, IOCB_CMD_PREAD, got, 16, 14);
	cbs[4].aio_offset = 16;
	for (int i = 0; i < 5; i++) {
		cbs[i].aio_flags = IOCB_FLAG_RESFD;
		cbs[i].aio_resfd = (uint32_t)efd;
	}
	memset(got, 0, sizeof(got));
	CHECK(aio(SYS_io_submit, (long)ctx, 5, (long)list, 0) == 5, "io_submit of 5");
	long n = 0, r;
	while (n < 5 && (r = syscall(SYS_io_getevents, (long)ctx, 1L, 8L, (long)(ev + n), 0L, 0L)) > 0)
		n += r;
	CHECK(n == 5, "5 events: %ld", n);
	int seen = 0;
	for (long i = 0; i < n; i++) {
		long want = ev[i].data == 10 || ev[i].data == 12 ? 4096 : ev[i].data == 14 ? -ESPIPE : 8;

		CHECK(ev[i].res == want && ev[i].obj == (uint64_t)(uintptr_t)&cbs[ev[i].data - 10], "event %llu: %lld",
		      (unsigned long long)ev[i].data, (long long)ev[i].res);
		seen |= 1 << (ev[i].data - 10);
	}
	CHECK(seen == 31, "every request completed once");
	CHECK(!memcmp(got, ct, sizeof(ct)), "AIO result");
	CHECK(!memcmp(pipebuf, "12345678", 8), "the pipe's own AIO");
	CHECK(read(efd, &signals, 8) == 8 && signals == 5, "eventfd signalled 5 times: %llu", (unsigned long long)signals);
	CHECK(aio(SYS_io_submit, 12345, 1, (long)list, 0) == -EINVAL, "no such context: -EINVAL");
	cbs[0].aio_reserved2 = 1;
	CHECK(aio(SYS_io_submit, (long)ctx, 1, (long)list, 0) == -EINVAL, "reserved field: -EINVAL");
	struct timespec zero = { 0, 0 };
	CHECK(syscall(SYS_io_getevents, (long)ctx, 0L, 8L, (long)ev, (long)&zero, 0L) == 0, "no event left");
	CHECK(aio(SYS_io_destroy, (long)ctx, 0, 0, 0) == 0, "io_destroy");
	close(p[0]);
	close(p[1]);
	close(efd);
	close(op);
	close(tfm);
	bc_skcipher_free(d);
}

int main(void)
{
	test_init();
	rng_seed(0xa1f0a1f0);
	int probe = socket(AF_ALG, SOCK_SEQPACKET, 0);
	if (probe < 0) {
		printf("afalg_raw: socket(AF_ALG): %s (run it under libblockcrypt-afalg.so)\n", strerror(errno));
		CHECK(0, "no AF_ALG");
		return test_summary("afalg_raw");
	}
	close(probe);
	test_skcipher("cbc(aes)", 16, 16);
	test_skcipher("xts(aes)", 64, 16);
	test_skcipher("ctr(aes)", 32, 1);
	test_skcipher("ecb(aes)", 24, 16);
	test_aead("gcm(aes)", 12, 16);
	test_aead("gcm(aes)", 12, 8);
	test_aead("ccm(aes)", 16, 16);
	test_aead("ccm(aes)", 16, 10);
	test_hash("sha256", 0);
	test_hash("sha512", 0);
	test_hash("hmac(sha256)", 1);
	test_hash("cmac(aes)", 1);
	test_errors();
	test_threads();
	test_fork();
	test_aio();
	test_rng();
	test_epoll();
	test_killed_client();
	test_many_open();
	return test_summary("afalg_raw");
}
