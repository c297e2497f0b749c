/* blockcrypt: the SHA-256 constants and round function shared by the drivers that run rounds in C.
 * FIPS 180-4, sections 4.1.2 (functions), 4.2.2 (constants), 5.3.2-5.3.3 (initial values) and 6.2.2 (rounds). */
#ifndef BC_SHA256_H
#define BC_SHA256_H

#include "internal.h"

extern const uint32_t bc_sha256_iv[8];
extern const uint32_t bc_sha224_iv[8];
extern const uint32_t bc_sha256_k[64];
/* The portable compression of whole blocks (src/hash/sha256_generic.c). */
void bc_sha256_compress_generic(uint32_t st[8], const uint8_t *p, size_t nblocks);

static inline uint32_t bc_ror32(uint32_t x, unsigned n)
{
	return x >> n | x << (32 - n);
}

#define BC_SHA256_BSIG0(x) (bc_ror32(x, 2) ^ bc_ror32(x, 13) ^ bc_ror32(x, 22))
#define BC_SHA256_BSIG1(x) (bc_ror32(x, 6) ^ bc_ror32(x, 11) ^ bc_ror32(x, 25))
#define BC_SHA256_SSIG0(x) (bc_ror32(x, 7) ^ bc_ror32(x, 18) ^ ((x) >> 3))
#define BC_SHA256_SSIG1(x) (bc_ror32(x, 17) ^ bc_ror32(x, 19) ^ ((x) >> 10))
/* Ch and Maj rewritten with one operation fewer; same truth tables as 4.1.2. */
#define BC_SHA256_CH(x, y, z)  ((z) ^ ((x) & ((y) ^ (z))))
#define BC_SHA256_MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))

/* One round with the working variables renamed instead of moved: only d and h
 * change, and the caller rotates the names. wk is K[i] + W[i]. */
#define BC_SHA256_ROUND(a, b, c, d, e, f, g, h, wk) do {                                      \
		uint32_t t1_ = (h) + BC_SHA256_BSIG1(e) + BC_SHA256_CH(e, f, g) + (wk);         \
		(d) += t1_;                                                                    \
		(h) = t1_ + BC_SHA256_BSIG0(a) + BC_SHA256_MAJ(a, b, c);                       \
	} while (0)

/* Rounds i..i+7 over the eight variables a..h of the caller; WK(i) gives K[i] + W[i]. */
/* A SHA-224 driver for each SHA-256 compress: the same core, SHA-224's
 * initial value, the first 28 bytes of the result. */
#define BC_SHA224_SHASH(id, drv, prio, cpu_bits, compress) \
	BC_MD32_SHASH_FULL(id, "sha224", drv, prio, cpu_bits, bc_sha224_iv, 8, compress, 28, 0)

#define BC_SHA256_ROUNDS8(i, WK)                                     \
	BC_SHA256_ROUND(a, b, c, d, e, f, g, h, WK((i) + 0));        \
	BC_SHA256_ROUND(h, a, b, c, d, e, f, g, WK((i) + 1));        \
	BC_SHA256_ROUND(g, h, a, b, c, d, e, f, WK((i) + 2));        \
	BC_SHA256_ROUND(f, g, h, a, b, c, d, e, WK((i) + 3));        \
	BC_SHA256_ROUND(e, f, g, h, a, b, c, d, WK((i) + 4));        \
	BC_SHA256_ROUND(d, e, f, g, h, a, b, c, WK((i) + 5));        \
	BC_SHA256_ROUND(c, d, e, f, g, h, a, b, WK((i) + 6));        \
	BC_SHA256_ROUND(b, c, d, e, f, g, h, a, WK((i) + 7))

#endif
