/* blockcrypt: the SHA-1 constants and round function shared by the drivers that run rounds in C.
 * FIPS 180-4, sections 4.1.1 (functions), 4.2.1 (constants), 5.3.1 (initial value) and 6.1.2 (rounds). */
#ifndef BC_SHA1_H
#define BC_SHA1_H

#include "internal.h"

extern const uint32_t bc_sha1_iv[5];
/* The portable compression of whole blocks (src/hash/sha1_generic.c); st[0..4]. */
void bc_sha1_compress_generic(uint32_t st[8], const uint8_t *p, size_t nblocks);

#define BC_SHA1_K0 0x5a827999u   /* rounds 0-19 */
#define BC_SHA1_K1 0x6ed9eba1u   /* 20-39 */
#define BC_SHA1_K2 0x8f1bbcdcu   /* 40-59 */
#define BC_SHA1_K3 0xca62c1d6u   /* 60-79 */

static inline uint32_t bc_sha1_rol(uint32_t x, unsigned n)
{
	return x << n | x >> (32 - n);
}

/* Ch and Maj with one operation fewer (same truth tables as 4.1.1). */
#define BC_SHA1_CH(x, y, z)     ((z) ^ ((x) & ((y) ^ (z))))
#define BC_SHA1_PARITY(x, y, z) ((x) ^ (y) ^ (z))
#define BC_SHA1_MAJ(x, y, z)    (((x) & (y)) | ((z) & ((x) | (y))))

/* One round with the variables renamed instead of moved: e takes T and b
 * its rotation; the caller rotates the names. wk is K_t + W_t. The new a
 * depends on the last one through F and a <<< 5: everything else is added
 * first, so that the chain from one round to the next is F and one add. */
#define BC_SHA1_ROUND(a, b, c, d, e, F, wk) do {                                 \
		(e) += (wk);                                                      \
		(e) += F(b, c, d);                                                \
		(e) += bc_sha1_rol(a, 5);                                         \
		(b) = bc_sha1_rol(b, 30);                                         \
	} while (0)

/* Rounds i..i+4 over the caller's a..e with function F; WK(i) gives K_i + W_i. */
#define BC_SHA1_ROUNDS5(i, F, WK)                                \
	BC_SHA1_ROUND(a, b, c, d, e, F, WK((i) + 0));            \
	BC_SHA1_ROUND(e, a, b, c, d, F, WK((i) + 1));            \
	BC_SHA1_ROUND(d, e, a, b, c, F, WK((i) + 2));            \
	BC_SHA1_ROUND(c, d, e, a, b, F, WK((i) + 3));            \
	BC_SHA1_ROUND(b, c, d, e, a, F, WK((i) + 4))

/* Twenty rounds i..i+19, one of the four groups that share F and K. */
#define BC_SHA1_ROUNDS20(i, F, WK)                               \
	BC_SHA1_ROUNDS5(i, F, WK);                               \
	BC_SHA1_ROUNDS5((i) + 5, F, WK);                         \
	BC_SHA1_ROUNDS5((i) + 10, F, WK);                        \
	BC_SHA1_ROUNDS5((i) + 15, F, WK)

#endif
