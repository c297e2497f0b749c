/* Serpent: the S-boxes as Boolean circuits derived from their tables, the linear transformation and the rounds, for any word type.
 * Specification: R. Anderson, E. Biham, L. Knudsen, "Serpent: A Proposal for the Advanced Encryption Standard" (1998), bitslice form. */
#ifndef BC_SERPENT_H
#define BC_SERPENT_H

#include "drivers.h"

/* ---- the tables, as the specification prints them ----------------------------------
 * Kept only as 64-bit constants (nibble x = S[x]) from which the circuits below
 * take their truth tables at compile time: no table is ever indexed at run time. */
#define SERPENT_TABLE(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15)            \
	((uint64_t)(a0) | (uint64_t)(a1) << 4 | (uint64_t)(a2) << 8 | (uint64_t)(a3) << 12 |             \
	 (uint64_t)(a4) << 16 | (uint64_t)(a5) << 20 | (uint64_t)(a6) << 24 | (uint64_t)(a7) << 28 |     \
	 (uint64_t)(a8) << 32 | (uint64_t)(a9) << 36 | (uint64_t)(a10) << 40 | (uint64_t)(a11) << 44 |   \
	 (uint64_t)(a12) << 48 | (uint64_t)(a13) << 52 | (uint64_t)(a14) << 56 | (uint64_t)(a15) << 60)
#define SERPENT_S0 SERPENT_TABLE(3, 8, 15, 1, 10, 6, 5, 11, 14, 13, 4, 2, 7, 0, 9, 12)
#define SERPENT_S1 SERPENT_TABLE(15, 12, 2, 7, 9, 0, 5, 10, 1, 11, 14, 8, 6, 13, 3, 4)
#define SERPENT_S2 SERPENT_TABLE(8, 6, 7, 9, 3, 12, 10, 15, 13, 1, 14, 4, 0, 11, 5, 2)
#define SERPENT_S3 SERPENT_TABLE(0, 15, 11, 8, 12, 9, 6, 3, 13, 1, 2, 4, 10, 7, 5, 14)
#define SERPENT_S4 SERPENT_TABLE(1, 15, 8, 3, 12, 0, 11, 6, 2, 5, 4, 10, 9, 14, 7, 13)
#define SERPENT_S5 SERPENT_TABLE(15, 5, 2, 11, 4, 10, 9, 12, 0, 3, 14, 8, 13, 6, 7, 1)
#define SERPENT_S6 SERPENT_TABLE(7, 2, 12, 5, 8, 4, 6, 11, 14, 9, 1, 15, 13, 3, 10, 0)
#define SERPENT_S7 SERPENT_TABLE(1, 13, 15, 0, 14, 8, 2, 11, 7, 4, 12, 10, 9, 3, 5, 6)
/* The inverses (tests/test_serpent_sbox.c checks that they are, and every circuit against the tables). */
#define SERPENT_I0 SERPENT_TABLE(13, 3, 11, 0, 10, 6, 5, 12, 1, 14, 4, 7, 15, 9, 8, 2)
#define SERPENT_I1 SERPENT_TABLE(5, 8, 2, 14, 15, 6, 12, 3, 11, 4, 7, 9, 1, 13, 10, 0)
#define SERPENT_I2 SERPENT_TABLE(12, 9, 15, 4, 11, 14, 1, 2, 0, 3, 6, 13, 5, 8, 10, 7)
#define SERPENT_I3 SERPENT_TABLE(0, 9, 10, 7, 11, 14, 6, 13, 3, 5, 12, 2, 4, 8, 15, 1)
#define SERPENT_I4 SERPENT_TABLE(5, 0, 8, 3, 10, 9, 7, 14, 2, 12, 11, 6, 4, 15, 13, 1)
#define SERPENT_I5 SERPENT_TABLE(8, 15, 2, 9, 4, 1, 13, 14, 11, 6, 5, 3, 7, 12, 10, 0)
#define SERPENT_I6 SERPENT_TABLE(15, 10, 1, 13, 5, 3, 6, 0, 4, 9, 14, 7, 2, 12, 8, 11)
#define SERPENT_I7 SERPENT_TABLE(3, 0, 6, 13, 9, 14, 15, 8, 5, 12, 11, 7, 10, 1, 4, 2)

/* In the bitslice form the four words x0..x3 of a block are the four S-box
 * inputs (x0 the least significant bit of each nibble), all 32 S-boxes of a
 * round at once. Output bit j, as a function of x2, x1, x0 with x3 fixed to h:
 * its 8-entry truth table, entry x2<<2 | x1<<1 | x0 at bit of that number
 * (the order of VPTERNLOGD's immediate with the operands x2, x1, x0). */
#define SERPENT_BIT(s, x, j) ((unsigned)((s) >> (4 * (x) + (j))) & 1u)
#define SERPENT_TT3(s, j, h)                                                                             \
	(SERPENT_BIT(s, 8 * (h) + 0, j) | SERPENT_BIT(s, 8 * (h) + 1, j) << 1 |                          \
	 SERPENT_BIT(s, 8 * (h) + 2, j) << 2 | SERPENT_BIT(s, 8 * (h) + 3, j) << 3 |                     \
	 SERPENT_BIT(s, 8 * (h) + 4, j) << 4 | SERPENT_BIT(s, 8 * (h) + 5, j) << 5 |                     \
	 SERPENT_BIT(s, 8 * (h) + 6, j) << 6 | SERPENT_BIT(s, 8 * (h) + 7, j) << 7)
/* Output bit j = lo(x2, x1, x0) ^ (x3 & d(x2, x1, x0)), d = lo ^ hi. */
#define SERPENT_LO(s, j) SERPENT_TT3(s, j, 0)
#define SERPENT_D(s, j) (SERPENT_TT3(s, j, 0) ^ SERPENT_TT3(s, j, 1))

#define SERPENT_PHI 0x9e3779b9u

/* Round keys K0..K32, four words each, in the bitslice order. */
struct serpent_ctx {
	uint32_t k[33][4];
};

/* The key schedule (serpent-generic's, shared by every driver): any length
 * 0..32 bytes, a shorter key padded with one 1 bit and zeros to 256 bits. */
int bc_serpent_setkey(void *ctx, const uint8_t *key, size_t keylen);
/* nblocks blocks one at a time, the portable way (tails of the wide drivers, cbc encryption). */
void bc_serpent_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks);
void bc_serpent_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks);
void bc_serpent_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks);

#endif /* BC_SERPENT_H */

/* ==== the word-type-specific part ====
 * The includer defines SERPENT_W (uint32_t, or a GCC vector of them: one block
 * per 32-bit lane) and SERPENT_FN (attributes of the helpers, always inlined), and
 * optionally SERPENT_ROL(x, n), SERPENT_XOR3(a, b, c) and
 * SERPENT_TERN(a, b, c, imm) (a three-input function by its truth table,
 * entry a<<2 | b<<1 | c), which replace the plain C forms. */
#if defined(SERPENT_W) && !defined(BC_SERPENT_BODY)
#define BC_SERPENT_BODY

/* Every loop over sets, words and rounds unrolled, so that the words stay in registers. */
#define SERPENT_UNROLL _Pragma("GCC unroll 32")

#ifndef SERPENT_ROL
#define SERPENT_ROL(x, n) ((x) << (n) | (x) >> (32 - (n)))
#endif
#ifndef SERPENT_XOR3
#define SERPENT_XOR3(a, b, c) ((a) ^ (b) ^ (c))
#endif

#ifdef SERPENT_TERN
/* One instruction per three-input function: each output bit is three. */
#define SERPENT_OUT(s, j, x)                                                                           \
	SERPENT_TERN((x)[3], SERPENT_TERN((x)[2], (x)[1], (x)[0], SERPENT_D(s, j)),                    \
	             SERPENT_TERN((x)[2], (x)[1], (x)[0], SERPENT_LO(s, j)), 0x6a)
#else
/* A two-input function of a1, a0 by its truth table (entry a1<<1 | a0);
 * tt is a constant, so the switch folds away and the compiler shares the
 * common pairs across the output bits. */
SERPENT_FN SERPENT_W serpent_f2(unsigned tt, SERPENT_W a1, SERPENT_W a0)
{
	switch (tt & 15) {
	case 0:  return a0 ^ a0;
	case 1:  return ~(a1 | a0);
	case 2:  return a0 & ~a1;
	case 3:  return ~a1;
	case 4:  return a1 & ~a0;
	case 5:  return ~a0;
	case 6:  return a1 ^ a0;
	case 7:  return ~(a1 & a0);
	case 8:  return a1 & a0;
	case 9:  return ~(a1 ^ a0);
	case 10: return a0;
	case 11: return a0 | ~a1;
	case 12: return a1;
	case 13: return a1 | ~a0;
	case 14: return a1 | a0;
	default: return ~(a0 ^ a0);
	}
}
/* Three inputs by Shannon's expansion on a2: f = f0(a1, a0) ^ (a2 & (f0 ^ f1)). */
SERPENT_FN SERPENT_W serpent_f3(unsigned tt, SERPENT_W a2, SERPENT_W a1, SERPENT_W a0)
{
	return serpent_f2(tt, a1, a0) ^ (a2 & serpent_f2(tt ^ tt >> 4, a1, a0));
}
#define SERPENT_OUT(s, j, x)                                                                           \
	(serpent_f3(SERPENT_LO(s, j), (x)[2], (x)[1], (x)[0]) ^                                        \
	 ((x)[3] & serpent_f3(SERPENT_D(s, j), (x)[2], (x)[1], (x)[0])))
#endif

/* x = S(x) on each of the ns independent sets of four words (a constant
 * after inlining: the sets interleave in the instruction stream). */
#define SERPENT_SBOX(s, x, ns) do {                                                                    \
	SERPENT_UNROLL for (int s_ = 0; s_ < (ns); s_++) {                                             \
		SERPENT_W o0_ = SERPENT_OUT(s, 0, (x)[s_]), o1_ = SERPENT_OUT(s, 1, (x)[s_]);          \
		SERPENT_W o2_ = SERPENT_OUT(s, 2, (x)[s_]), o3_ = SERPENT_OUT(s, 3, (x)[s_]);          \
		(x)[s_][0] = o0_; (x)[s_][1] = o1_; (x)[s_][2] = o2_; (x)[s_][3] = o3_;                \
	}                                                                                              \
} while (0)

SERPENT_FN void serpent_kx(SERPENT_W x[][4], const uint32_t k[4], int ns)
{
	SERPENT_UNROLL
	for (int s = 0; s < ns; s++)
		SERPENT_UNROLL
		for (int i = 0; i < 4; i++)
			x[s][i] ^= k[i];
}

/* The linear transformation and its inverse. */
SERPENT_FN void serpent_lt(SERPENT_W x[][4], int ns)
{
	SERPENT_UNROLL
	for (int s = 0; s < ns; s++) {
		SERPENT_W *v = x[s];
		SERPENT_W a = SERPENT_ROL(v[0], 13), c = SERPENT_ROL(v[2], 3);
		SERPENT_W b = SERPENT_XOR3(v[1], a, c), d = SERPENT_XOR3(v[3], c, a << 3);

		b = SERPENT_ROL(b, 1);
		d = SERPENT_ROL(d, 7);
		a = SERPENT_XOR3(a, b, d);
		c = SERPENT_XOR3(c, d, b << 7);
		v[0] = SERPENT_ROL(a, 5);
		v[1] = b;
		v[2] = SERPENT_ROL(c, 22);
		v[3] = d;
	}
}

SERPENT_FN void serpent_ilt(SERPENT_W x[][4], int ns)
{
	SERPENT_UNROLL
	for (int s = 0; s < ns; s++) {
		SERPENT_W *v = x[s];
		SERPENT_W a = SERPENT_ROL(v[0], 27), b = v[1], c = SERPENT_ROL(v[2], 10), d = v[3];

		c = SERPENT_XOR3(c, d, b << 7);
		a = SERPENT_XOR3(a, b, d);
		d = SERPENT_ROL(d, 25);
		b = SERPENT_ROL(b, 31);
		d = SERPENT_XOR3(d, c, a << 3);
		b = SERPENT_XOR3(b, a, c);
		v[0] = SERPENT_ROL(a, 19);
		v[1] = b;
		v[2] = SERPENT_ROL(c, 29);
		v[3] = d;
	}
}

/* Eight rounds from round key r on (S0..S7); the last LT of the cipher is
 * replaced by the key K32. */
#define SERPENT_EROUND(k, x, r, s) do { serpent_kx(x, (k)[r], ns); SERPENT_SBOX(s, x, ns); } while (0)
SERPENT_FN void serpent_enc_rounds(const uint32_t (*k)[4], SERPENT_W x[][4], int ns)
{
	SERPENT_UNROLL
	for (int r = 0; r < 32; r += 8) {
		SERPENT_EROUND(k, x, r + 0, SERPENT_S0); serpent_lt(x, ns);
		SERPENT_EROUND(k, x, r + 1, SERPENT_S1); serpent_lt(x, ns);
		SERPENT_EROUND(k, x, r + 2, SERPENT_S2); serpent_lt(x, ns);
		SERPENT_EROUND(k, x, r + 3, SERPENT_S3); serpent_lt(x, ns);
		SERPENT_EROUND(k, x, r + 4, SERPENT_S4); serpent_lt(x, ns);
		SERPENT_EROUND(k, x, r + 5, SERPENT_S5); serpent_lt(x, ns);
		SERPENT_EROUND(k, x, r + 6, SERPENT_S6); serpent_lt(x, ns);
		SERPENT_EROUND(k, x, r + 7, SERPENT_S7);
		if (r < 24)
			serpent_lt(x, ns);
	}
	serpent_kx(x, k[32], ns);
}

#define SERPENT_DROUND(k, x, r, s) do { SERPENT_SBOX(s, x, ns); serpent_kx(x, (k)[r], ns); } while (0)
SERPENT_FN void serpent_dec_rounds(const uint32_t (*k)[4], SERPENT_W x[][4], int ns)
{
	serpent_kx(x, k[32], ns);
	SERPENT_UNROLL
	for (int r = 24; r >= 0; r -= 8) {
		if (r < 24)
			serpent_ilt(x, ns);
		SERPENT_DROUND(k, x, r + 7, SERPENT_I7); serpent_ilt(x, ns);
		SERPENT_DROUND(k, x, r + 6, SERPENT_I6); serpent_ilt(x, ns);
		SERPENT_DROUND(k, x, r + 5, SERPENT_I5); serpent_ilt(x, ns);
		SERPENT_DROUND(k, x, r + 4, SERPENT_I4); serpent_ilt(x, ns);
		SERPENT_DROUND(k, x, r + 3, SERPENT_I3); serpent_ilt(x, ns);
		SERPENT_DROUND(k, x, r + 2, SERPENT_I2); serpent_ilt(x, ns);
		SERPENT_DROUND(k, x, r + 1, SERPENT_I1); serpent_ilt(x, ns);
		SERPENT_DROUND(k, x, r + 0, SERPENT_I0);
	}
}

#endif /* SERPENT_W */
