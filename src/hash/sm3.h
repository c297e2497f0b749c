/* blockcrypt: the SM3 constants and round function shared by the drivers that run rounds in C.
 * GB/T 32905-2016 (SM3 cryptographic hash algorithm), sections 4.1-4.4 and 5.3.3. */
#ifndef BC_SM3_H
#define BC_SM3_H

#include "internal.h"

extern const uint32_t bc_sm3_iv[8];
/* The portable compression of whole blocks (src/hash/sm3_generic.c). */
void bc_sm3_compress_generic(uint32_t st[8], const uint8_t *p, size_t nblocks);
/* T_j <<< (j mod 32) for every round, so a round adds one constant. Static
 * here, not extern: rounds unrolled over it then take immediates. */
static const uint32_t bc_sm3_t[64] = {
#define T0(j) (uint32_t)(0x79cc4519u << (j) | 0x79cc4519u >> ((32 - (j)) & 31))
#define T1(j) (uint32_t)(0x7a879d8au << ((j) % 32) | 0x7a879d8au >> ((32 - (j) % 32) & 31))
	T0(0), T0(1), T0(2), T0(3), T0(4), T0(5), T0(6), T0(7),
	T0(8), T0(9), T0(10), T0(11), T0(12), T0(13), T0(14), T0(15),
	T1(16), T1(17), T1(18), T1(19), T1(20), T1(21), T1(22), T1(23),
	T1(24), T1(25), T1(26), T1(27), T1(28), T1(29), T1(30), T1(31),
	T1(32), T1(33), T1(34), T1(35), T1(36), T1(37), T1(38), T1(39),
	T1(40), T1(41), T1(42), T1(43), T1(44), T1(45), T1(46), T1(47),
	T1(48), T1(49), T1(50), T1(51), T1(52), T1(53), T1(54), T1(55),
	T1(56), T1(57), T1(58), T1(59), T1(60), T1(61), T1(62), T1(63),
#undef T0
#undef T1
};

static inline uint32_t bc_rol32(uint32_t x, unsigned n)
{
	return x << n | x >> ((32 - n) & 31);
}

#define BC_SM3_P0(x) ((x) ^ bc_rol32(x, 9) ^ bc_rol32(x, 17))
#define BC_SM3_P1(x) ((x) ^ bc_rol32(x, 15) ^ bc_rol32(x, 23))
#define BC_SM3_FF0(x, y, z) ((x) ^ (y) ^ (z))
#define BC_SM3_GG0(x, y, z) ((x) ^ (y) ^ (z))
#define BC_SM3_FF1(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))
#define BC_SM3_GG1(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))

/* Message expansion (5.3.2): W_j of w[] from the 16 words before it. */
#define BC_SM3_EXPAND(w, j) ((w)[j] = BC_SM3_P1((w)[(j) - 16] ^ (w)[(j) - 9] ^ bc_rol32((w)[(j) - 3], 15)) ^ \
                                      bc_rol32((w)[(j) - 13], 7) ^ (w)[(j) - 6])

/* One round (5.3.3) with the registers renamed rather than shifted along:
 * B, D, F and H are the ones that change, and the caller rotates the names.
 * W(j) is W_j, WP(j) is W'_j = W_j ^ W_(j+4); EXP(j) runs before the round
 * (a message expansion step interleaved with the rounds, or nothing).
 * The critical path runs from E through SS1 and TT2 to P0: A <<< 12 plus
 * T_j is fixed on its own (bc_opaque32), or gcc adds E in the same
 * three-operand LEA, which takes 2 cycles where an ADD takes 1. */
#define BC_SM3_ROUND(a, b, c, d, e, f, g, h, j, FF, GG, EXP, W, WP) do {          \
		EXP((j) + 4);                                                      \
		uint32_t a12_ = bc_rol32(a, 12);                                   \
		uint32_t k_ = bc_opaque32(a12_ + bc_sm3_t[j]);                     \
		uint32_t ss1_ = bc_rol32(k_ + (e), 7);                             \
		(d) += FF(a, b, c) + (ss1_ ^ a12_) + WP(j);                        \
		(h) += GG(e, f, g) + ss1_ + W(j);                                  \
		(h) = BC_SM3_P0(h);                                                \
		(b) = bc_rol32(b, 9);                                              \
		(f) = bc_rol32(f, 19);                                             \
	} while (0)

/* Rounds j..j+3 over the eight variables a..h of the caller. */
#define BC_SM3_ROUNDS4(j, FF, GG, EXP, W, WP)                                     \
	BC_SM3_ROUND(a, b, c, d, e, f, g, h, (j) + 0, FF, GG, EXP, W, WP);        \
	BC_SM3_ROUND(d, a, b, c, h, e, f, g, (j) + 1, FF, GG, EXP, W, WP);        \
	BC_SM3_ROUND(c, d, a, b, g, h, e, f, (j) + 2, FF, GG, EXP, W, WP);        \
	BC_SM3_ROUND(b, c, d, a, f, g, h, e, (j) + 3, FF, GG, EXP, W, WP)

/* EXP for the rounds that expand nothing. */
#define BC_SM3_NOEXPAND(j) ((void)0)

#endif
