/* blockcrypt x86-64: the SM3 compression of the drivers that expand the message in vectors (sm3-avx, sm3-avx512).
 * GB/T 32905-2016 (SM3 cryptographic hash algorithm), sections 5.3.2 (expansion) and 5.3.3 (compression). */
#ifndef BC_SM3_X86_H
#define BC_SM3_X86_H

/* A template, included once by each driver: the drivers differ only in the
 * vector instructions of the expansion, which the includer defines first,
 * under its own target attribute SM3_X86_TARGET:
 *   sm3x_rol(x, n)        each 32-bit lane of x rotated left by n (a constant)
 *   sm3x_xor3(a, b, c)    a ^ b ^ c
 * This file defines sm3x_compress(st, p, nblocks) over them: the rounds in
 * fixed BMI2 instructions, the next block's expansion interleaved. */
#include <immintrin.h>

#include "../../hash/sm3.h"

#define SM3_X86_INLINE static inline __attribute__((always_inline))

SM3_X86_INLINE SM3_X86_TARGET __m128i sm3x_p1(__m128i x)
{
	return sm3x_xor3(x, sm3x_rol(x, 15), sm3x_rol(x, 23));
}

/* The expanded message of one block: W_0..W_67 and W'_j = W_j ^ W_(j+4). */
struct sm3x_w {
	uint32_t w[68];
	uint32_t wp[64];
};

/* Words 0..15 of block p into x[0..3] and m, with W'_0..W'_11. */
SM3_X86_INLINE SM3_X86_TARGET void sm3x_expand_load(__m128i x[17], struct sm3x_w *m, const uint8_t *p)
{
	const __m128i bswap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);

	for (int i = 0; i < 4; i++) {
		x[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
		_mm_storeu_si128((__m128i *)(m->w + 4 * i), x[i]);
		if (i)
			_mm_storeu_si128((__m128i *)(m->wp + 4 * (i - 1)), _mm_xor_si128(x[i - 1], x[i]));
	}
}

/* W_j..W_(j+3) for j = 4i (4 <= i < 17), and W'_(j-4)..W'_(j-1). They need
 * W_(j-3)..W_j, the last of which is being made: the four lanes are
 * computed with 0 in place of W_j, then, P1 being linear over XOR, lane 3
 * gets P1(W_j <<< 15) XORed in once lane 0 is known. */
SM3_X86_INLINE SM3_X86_TARGET void sm3x_expand_step(__m128i x[17], struct sm3x_w *m, int i)
{
	/* Word offsets j-16, j-13, j-9, j-6 and j-3 from x[i-4..i-1]. */
	__m128i w16 = x[i - 4];
	__m128i w13 = _mm_alignr_epi8(x[i - 3], x[i - 4], 12);
	__m128i w9 = _mm_alignr_epi8(x[i - 2], x[i - 3], 12);
	__m128i w6 = _mm_alignr_epi8(x[i - 1], x[i - 2], 8);
	__m128i w3 = _mm_srli_si128(x[i - 1], 4);             /* W_(j-3..j-1), 0 */
	__m128i t = sm3x_p1(sm3x_xor3(w16, w9, sm3x_rol(w3, 15)));

	t = sm3x_xor3(t, sm3x_rol(w13, 7), w6);
	x[i] = _mm_xor_si128(t, sm3x_p1(sm3x_rol(_mm_slli_si128(t, 12), 15)));
	_mm_storeu_si128((__m128i *)(m->w + 4 * i), x[i]);
	_mm_storeu_si128((__m128i *)(m->wp + 4 * (i - 1)), _mm_xor_si128(x[i - 1], x[i]));
}

/* One round (5.3.3) in fixed instructions, with the registers renamed
 * rather than shifted along (B, D, F and H change). The round's critical
 * path runs from E through SS1 and TT2 to P0; written in C, gcc's grouping
 * of the sums and its three-operand LEA (2 cycles on Zen) make it about a
 * cycle and a half longer than this order: A <<< 12 plus T_j first, then
 * + E and <<< 7 (SS1); H + W_j + GG before SS1 is added; P0 as two RORX
 * and two XORs. GG and FF leave their value in t3 (FF may use t2). */
#define SM3X_GG0 "mov %[Rf], %[t3]\n\txor %[Rg], %[t3]\n\txor %[Re], %[t3]\n\t"
#define SM3X_GG1 "mov %[Rf], %[t3]\n\txor %[Rg], %[t3]\n\tand %[Re], %[t3]\n\txor %[Rg], %[t3]\n\t"
#define SM3X_FF0 "mov %[Ra], %[t3]\n\txor %[Rb], %[t3]\n\txor %[Rc], %[t3]\n\t"
#define SM3X_FF1 "mov %[Ra], %[t3]\n\tor %[Rb], %[t3]\n\tand %[Rc], %[t3]\n\t" \
            "mov %[Ra], %[t2]\n\tand %[Rb], %[t2]\n\tor %[t2], %[t3]\n\t"
#define SM3X_ROUND(a, b, c, d, e, f, g, h, j, GG, FF) do {                                                   \
		uint32_t t1_, t2_, t3_;                                                                  \
		__asm__("rorx $20, %[Ra], %[t1]\n\t"          /* A <<< 12 */                            \
		        "mov %[t1], %[t2]\n\t"                                                           \
		        "add %[T], %[t2]\n\t"                                                            \
		        "add %[Re], %[t2]\n\t"                                                           \
		        "rorx $25, %[t2], %[t2]\n\t"          /* SS1 */                                 \
		        "add %[W], %[Rh]\n\t"                                                            \
		        GG                                                                               \
		        "add %[t3], %[Rh]\n\t"                                                           \
		        "add %[t2], %[Rh]\n\t"                /* TT2 */                                 \
		        "xor %[t2], %[t1]\n\t"                /* SS2 */                                 \
		        "rorx $23, %[Rh], %[t2]\n\t"                                                     \
		        "rorx $15, %[Rh], %[t3]\n\t"                                                     \
		        "xor %[t2], %[Rh]\n\t"                                                           \
		        "xor %[t3], %[Rh]\n\t"                /* P0(TT2) */                             \
		        "add %[WP], %[Rd]\n\t"                                                           \
		        FF                                                                               \
		        "add %[t3], %[Rd]\n\t"                                                           \
		        "add %[t1], %[Rd]\n\t"                /* TT1 */                                 \
		        "rorx $23, %[Rb], %[Rb]\n\t"          /* B <<< 9 */                             \
		        "rorx $13, %[Rf], %[Rf]"               /* F <<< 19 */                            \
		        : [Rb] "+r"(b), [Rd] "+r"(d), [Rf] "+r"(f), [Rh] "+r"(h),                        \
		          [t1] "=&r"(t1_), [t2] "=&r"(t2_), [t3] "=&r"(t3_)                              \
		        : [Ra] "r"(a), [Rc] "r"(c), [Re] "r"(e), [Rg] "r"(g),                            \
		          [W] "m"(m->w[j]), [WP] "m"(m->wp[j]), [T] "m"(bc_sm3_t[j]));                   \
	} while (0)

#define SM3X_ROUNDS4(j, GG, FF)                                      \
	SM3X_ROUND(a, b, c, d, e, f, g, h, (j) + 0, GG, FF);         \
	SM3X_ROUND(d, a, b, c, h, e, f, g, (j) + 1, GG, FF);         \
	SM3X_ROUND(c, d, a, b, g, h, e, f, (j) + 2, GG, FF);         \
	SM3X_ROUND(b, c, d, a, f, g, h, e, (j) + 3, GG, FF)

/* One block, expanded inside its own rounds: each 4-word step is made
 * three groups of four rounds before its first use, long enough for its
 * vector stores to reach the cache before the rounds' 4-byte loads (the
 * store buffer does not forward to those at every offset). */
SM3_X86_INLINE SM3_X86_TARGET void sm3x_one(uint32_t st[8], const uint8_t *p)
{
	struct sm3x_w w, *m = &w;
	uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
	uint32_t e = st[4], f = st[5], g = st[6], h = st[7];
	__m128i x[17];

	sm3x_expand_load(x, m, p);
#pragma GCC unroll 16
	for (int j = 0; j < 64; j += 4) {
		if (j < 52)
			sm3x_expand_step(x, m, 4 + j / 4);
		if (j < 16) {
			SM3X_ROUNDS4(j, SM3X_GG0, SM3X_FF0);
		} else {
			SM3X_ROUNDS4(j, SM3X_GG1, SM3X_FF1);
		}
	}
	st[0] ^= a; st[1] ^= b; st[2] ^= c; st[3] ^= d;
	st[4] ^= e; st[5] ^= f; st[6] ^= g; st[7] ^= h;
	/* The message may be key material: its expanded words, stored and in vectors. */
	bc_wipe(&w, sizeof(w));
	bc_wipe(x, sizeof(x));
}

/* Whole blocks: the rounds of each block run while the next block is
 * expanded (the expansion is a chain of dependent vector steps, and run on
 * its own before the rounds it would add its latency to every block; run
 * inside the same block's rounds, each step must be made well before its
 * use, which delays the start of every block). The state stays in registers from block to block: through
 * memory, each block would start behind a store-to-load forwarding on both
 * of the rounds' dependency chains. Fewer than 8 blocks (every short
 * message, and every final) go through sm3x_one, block by block: the first
 * block's expansion here overlaps nothing (a few hundred cycles on Zen 5),
 * and this loop gains about 30 cycles a block after it (measured per call:
 * sm3x_one ahead up to 8 blocks, behind at 16). */
static SM3_X86_TARGET void sm3x_compress(uint32_t st[8], const uint8_t *p, size_t nblocks)
{
	/* What the last block's rounds expand, there being no next block. */
	static const uint8_t none[64];
	struct sm3x_w w[2], *m = &w[0], *next = &w[1];
	uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
	uint32_t e = st[4], f = st[5], g = st[6], h = st[7];
	__m128i x[17];

	if (nblocks < 8) {
		for (; nblocks; nblocks--, p += 64)
			sm3x_one(st, p);
		return;
	}
	sm3x_expand_load(x, m, p);
	for (int i = 4; i < 17; i++)
		sm3x_expand_step(x, m, i);
	for (; nblocks; nblocks--) {
		const uint32_t in[8] = { a, b, c, d, e, f, g, h };
		struct sm3x_w *t;

		p = nblocks > 1 ? p + 64 : none;
		/* The expansion's stores must reach memory: the rounds read the words there. */
		__asm__("" : : "r"(w) : "memory");
		sm3x_expand_load(x, next, p);
#pragma GCC unroll 16
		for (int j = 0; j < 64; j += 4) {
			if (j < 16) {
				SM3X_ROUNDS4(j, SM3X_GG0, SM3X_FF0);
			} else {
				SM3X_ROUNDS4(j, SM3X_GG1, SM3X_FF1);
			}
			if (j < 52)
				sm3x_expand_step(x, next, 4 + j / 4);
		}
		a ^= in[0]; b ^= in[1]; c ^= in[2]; d ^= in[3];
		e ^= in[4]; f ^= in[5]; g ^= in[6]; h ^= in[7];
		t = m;
		m = next;
		next = t;
	}
	st[0] = a; st[1] = b; st[2] = c; st[3] = d;
	st[4] = e; st[5] = f; st[6] = g; st[7] = h;
	/* The message may be key material: its expanded words, stored and in vectors. */
	bc_wipe(w, sizeof(w));
	bc_wipe(x, sizeof(x));
}

#endif
