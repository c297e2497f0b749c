/* blockcrypt: the SHA-512 constants and round function shared by the drivers that run rounds in C.
 * FIPS 180-4, sections 4.1.3 (functions), 4.2.3 (constants), 5.3.4-5.3.5 (initial values) and 6.4.2 (rounds). */
#ifndef BC_SHA512_H
#define BC_SHA512_H

#include "internal.h"

extern const uint64_t bc_sha512_iv[8];
extern const uint64_t bc_sha384_iv[8];
extern const uint64_t bc_sha512_k[80];
/* The portable compression of whole 128-byte blocks (src/hash/sha512_generic.c). */
void bc_sha512_compress_generic(uint64_t st[8], const uint8_t *p, size_t nblocks);

static inline uint64_t bc_ror64(uint64_t x, unsigned n)
{
	return x >> n | x << (64 - n);
}

#define BC_SHA512_BSIG0(x) (bc_ror64(x, 28) ^ bc_ror64(x, 34) ^ bc_ror64(x, 39))
#define BC_SHA512_BSIG1(x) (bc_ror64(x, 14) ^ bc_ror64(x, 18) ^ bc_ror64(x, 41))
#define BC_SHA512_SSIG0(x) (bc_ror64(x, 1) ^ bc_ror64(x, 8) ^ ((x) >> 7))
#define BC_SHA512_SSIG1(x) (bc_ror64(x, 19) ^ bc_ror64(x, 61) ^ ((x) >> 6))
/* Ch with one operation fewer (same truth table as 4.1.3). */
#define BC_SHA512_CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))

/* One round, the working variables renamed instead of moved (as
 * BC_SHA256_ROUND); wk is K[i] + W[i]. Maj(a, b, c) is b ^ ((a ^ b) & (b ^ c)),
 * and this round's a ^ b is the next one's b ^ c: the caller's variable bc
 * carries it (b ^ c when the rounds start), one operation and one live
 * register fewer than Maj on its own, which the eight variables need. */
#define BC_SHA512_ROUND(a, b, c, d, e, f, g, h, wk) do {                                      \
		uint64_t t1_ = (h) + (wk) + BC_SHA512_CH(e, f, g) + BC_SHA512_BSIG1(e);         \
		uint64_t ab_ = (a) ^ (b);                                                      \
		(d) += t1_;                                                                    \
		(h) = t1_ + BC_SHA512_BSIG0(a) + ((b) ^ (ab_ & bc));                           \
		bc = ab_;                                                                      \
	} while (0)

/* Rounds i..i+7 of ROUND (BC_SHA512_ROUND or an arch's of its form) over
 * the caller's a..h and bc; WK(i) gives K[i] + W[i]. */
#define BC_SHA512_ROUNDS8_OF(ROUND, i, WK)                           \
	ROUND(a, b, c, d, e, f, g, h, WK((i) + 0));                  \
	ROUND(h, a, b, c, d, e, f, g, WK((i) + 1));                  \
	ROUND(g, h, a, b, c, d, e, f, WK((i) + 2));                  \
	ROUND(f, g, h, a, b, c, d, e, WK((i) + 3));                  \
	ROUND(e, f, g, h, a, b, c, d, WK((i) + 4));                  \
	ROUND(d, e, f, g, h, a, b, c, WK((i) + 5));                  \
	ROUND(c, d, e, f, g, h, a, b, WK((i) + 6));                  \
	ROUND(b, c, d, e, f, g, h, a, WK((i) + 7))

/* The message schedule (6.4.2 step 1) kept as a 16-word window w[], K[i]
 * added: the WK of BC_SHA512_ROUNDS8_OF for rounds 0-15 (the words of block
 * p) and 16-79. */
#define BC_SHA512_LOADW(i) (bc_sha512_k[i] + (w[i] = bc_load_be64(p + 8 * (i))))
#define BC_SHA512_SCHED(i) (bc_sha512_k[i] + (w[(i) & 15] += BC_SHA512_SSIG1(w[((i) - 2) & 15]) + w[((i) - 7) & 15] + \
                                                        BC_SHA512_SSIG0(w[((i) - 15) & 15])))

/* The body of a compress fn(st, p, nblocks) whose rounds make the schedule
 * as they go, over ROUND (as BC_SHA512_ROUNDS8_OF). */
#define BC_SHA512_COMPRESS_BODY(ROUND) do {                                                   \
		uint64_t w[16];                                                                 \
                                                                                                \
		for (; nblocks; nblocks--, p += 128) {                                          \
			uint64_t a = st[0], b = st[1], c = st[2], d = st[3];                    \
			uint64_t e = st[4], f = st[5], g = st[6], h = st[7], bc = b ^ c;        \
                                                                                                \
			BC_SHA512_ROUNDS8_OF(ROUND, 0, BC_SHA512_LOADW);                        \
			BC_SHA512_ROUNDS8_OF(ROUND, 8, BC_SHA512_LOADW);                        \
			for (int i = 16; i < 80; i += 16) {                                     \
				BC_SHA512_ROUNDS8_OF(ROUND, i, BC_SHA512_SCHED);                \
				BC_SHA512_ROUNDS8_OF(ROUND, i + 8, BC_SHA512_SCHED);            \
			}                                                                       \
			st[0] += a; st[1] += b; st[2] += c; st[3] += d;                         \
			st[4] += e; st[5] += f; st[6] += g; st[7] += h;                         \
		}                                                                               \
		/* The message may be a key. */                                                 \
		bc_wipe(w, sizeof(w));                                                          \
	} while (0)

/* The sha512 and sha384 drivers of one compress: one core, two initial
 * values, the digest all eight words or the first six (6.5). */
#define BC_SHA512_SHASH(id512, id384, drv512, drv384, prio, cpu_bits, compress)                 \
	BC_MD64_SHASH(id512, "sha512", drv512, prio, cpu_bits, bc_sha512_iv, compress, 64);    \
	BC_MD64_SHASH(id384, "sha384", drv384, prio, cpu_bits, bc_sha384_iv, compress, 48)

#endif
