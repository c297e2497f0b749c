/* The cost of one operation through an emulated AF_ALG socket (sendmsg + read, libblockcrypt-afalg.so) beside
 * bc_skcipher_encrypt / bc_aead_encrypt called directly, in the same run: xts(aes) and gcm(aes) at 16 to 65536 bytes.
 * Socket usage: Linux Documentation/crypto/userspace-if.rst. */
#include <linux/if_alg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "afalg_op.h"
#include "blockcrypt.h"
#include "speed.h"

static uint8_t key[64], iv[16], ad[16], *src, *dst;

static int op_socket(const char *type, const char *name, size_t keylen)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int tfm = socket(AF_ALG, SOCK_SEQPACKET, 0), op;

	snprintf((char *)sa.salg_type, sizeof(sa.salg_type), "%s", type);
	snprintf((char *)sa.salg_name, sizeof(sa.salg_name), "%s", name);
	if (tfm < 0 || bind(tfm, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(tfm, SOL_ALG, ALG_SET_KEY, key, (socklen_t)keylen))
		return -1;
	op = accept(tfm, NULL, NULL);
	close(tfm);
	return op;
}

/* One request: the operation, IV and AAD length in control messages, the data, then the result read back. */
static int sock_op(int op, size_t ivlen, int aead, size_t len)
{
	size_t in = len + (aead ? sizeof(ad) : 0), out = len + (aead ? sizeof(ad) + 16 : 0);

	return afalg_send_op(op, ALG_OP_ENCRYPT, iv, ivlen, aead ? (int)sizeof(ad) : -1, src, in, 0) == (ssize_t)in &&
	       read(op, dst, out) == (ssize_t)out ? 0 : -1;
}

/* ns per operation: the best of 3 batches, each at least 20 ms */
static double timed(int (*fn)(void *, size_t), void *arg, size_t len)
{
	double best = 1e30;

	for (int b = 0; b < 3; b++) {
		unsigned long n = 0;
		double t0 = speed_seconds(CLOCK_MONOTONIC), t;

		do {
			for (int i = 0; i < 64; i++)
				if (fn(arg, len))
					return -1;
			n += 64;
			t = speed_seconds(CLOCK_MONOTONIC) - t0;
		} while (t < 0.02);
		if (t / (double)n < best)
			best = t / (double)n;
	}
	return best * 1e9;
}

struct ctx {
	bc_skcipher *sk;
	bc_aead *ae;
	int op;
};

static int direct_xts(void *arg, size_t len)
{
	struct ctx *c = arg;
	uint8_t t[16];

	memcpy(t, iv, 16);
	return bc_skcipher_encrypt(c->sk, t, src, dst, len);
}

static int direct_gcm(void *arg, size_t len)
{
	struct ctx *c = arg;

	return bc_aead_encrypt(c->ae, iv, 12, src, sizeof(ad), src + sizeof(ad), dst + sizeof(ad), len,
	                       dst + sizeof(ad) + len);
}

static int sock_xts(void *arg, size_t len)
{
	return sock_op(((struct ctx *)arg)->op, 16, 0, len);
}

static int sock_gcm(void *arg, size_t len)
{
	return sock_op(((struct ctx *)arg)->op, 12, 1, len);
}

int main(void)
{
	static const size_t sizes[] = { 16, 512, 4096, 65536 };
	struct ctx x = { 0 }, g = { 0 };
	double hz = speed_core_hz();

	src = calloc(1, 65536 + 64);
	dst = calloc(1, 65536 + 64);
	for (int i = 0; i < 64; i++)
		key[i] = (uint8_t)(i * 7 + 1);
	if (bc_skcipher_alloc(&x.sk, "xts(aes)") || bc_skcipher_setkey(x.sk, key, 64) ||
	    bc_aead_alloc(&g.ae, "gcm(aes)") || bc_aead_setkey(g.ae, key, 16)) {
		fprintf(stderr, "bench-afalg: cannot set up xts(aes) or gcm(aes)\n");
		return 1;
	}
	x.op = op_socket("skcipher", "xts(aes)", 64);
	g.op = op_socket("aead", "gcm(aes)", 16);
	if (x.op < 0 || g.op < 0) {
		perror("bench-afalg: AF_ALG (run it under libblockcrypt-afalg.so)");
		return 1;
	}
	printf("# %s, %s; core clock %.2f GHz (%s)\n", bc_skcipher_driver(x.sk), bc_aead_driver(g.ae), hz / 1e9,
	       speed_clock_method);
	printf("%-9s %6s %12s %12s %10s %10s %7s\n", "algorithm", "bytes", "direct ns", "socket ns", "direct c/B",
	       "socket c/B", "ratio");
	for (int a = 0; a < 2; a++)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			size_t len = sizes[i];
			struct ctx *c = a ? &g : &x;
			double d = 1e30, s = 1e30;

			/* the two taken in turns, the best of each kept: a busy machine slows both alike */
			for (int r = 0; r < 5; r++) {
				double dr = timed(a ? direct_gcm : direct_xts, c, len), sr = timed(a ? sock_gcm : sock_xts, c, len);

				d = dr < d ? dr : d;
				s = sr < s ? sr : s;
			}
			if (d < 0 || s < 0) {
				fprintf(stderr, "bench-afalg: an operation failed\n");
				return 1;
			}
			printf("%-9s %6zu %12.1f %12.1f %10.3f %10.3f %7.2f\n", a ? "gcm(aes)" : "xts(aes)", len, d, s,
			       d * 1e-9 * hz / (double)len, s * 1e-9 * hz / (double)len, s / d);
		}
	bc_skcipher_free(x.sk);
	bc_aead_free(g.ae);
	return 0;
}
