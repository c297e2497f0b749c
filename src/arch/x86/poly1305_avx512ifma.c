/* blockcrypt x86-64: Poly1305's long runs of whole blocks, eight at a time on zmm registers with 52-bit multiply-adds
 * (for the rfc7539 AEADs). RFC 8439 section 2.5; the split by powers of r of Goll and Gueron, "Vectorization of Poly1305".
 * Needs AVX-512 F and IFMA (VPMADD52LUQ/HUQ). */
#include <immintrin.h>

#include "../../hash/poly1305.h"

#if defined(BC_POLY1305_WIDE)
#define IFMA_TARGET __attribute__((target("avx512f,avx512ifma")))
#define M44 0xfffffffffffull
#define M42 0x3ffffffffffull

/* Lane by lane h = h * r modulo 2^130 - 5 in the portable code's 44/44/42-bit
 * limbs; s1, s2 = 20 r1, 20 r2 (2^132 = 20). Each product's low 52 bits and
 * its high part add up apart: d = lo + hi * 2^52, split at 44 (42) bits.
 * With h below 2^46 and r as made by the portable code every sum fits 64
 * bits; out, the limbs are below 2^44, 2^44 + 2^10 and 2^42. */
static inline IFMA_TARGET void mul8(__m512i h[3], const __m512i r[5])
{
	const __m512i z = _mm512_setzero_si512(), m44 = _mm512_set1_epi64(M44), m42 = _mm512_set1_epi64(M42);
	__m512i l0, l1, l2, u0, u1, u2, c;

	l0 = _mm512_madd52lo_epu64(z, h[0], r[0]);
	u0 = _mm512_madd52hi_epu64(z, h[0], r[0]);
	l1 = _mm512_madd52lo_epu64(z, h[0], r[1]);
	u1 = _mm512_madd52hi_epu64(z, h[0], r[1]);
	l2 = _mm512_madd52lo_epu64(z, h[0], r[2]);
	u2 = _mm512_madd52hi_epu64(z, h[0], r[2]);
	l0 = _mm512_madd52lo_epu64(l0, h[1], r[4]);
	u0 = _mm512_madd52hi_epu64(u0, h[1], r[4]);
	l1 = _mm512_madd52lo_epu64(l1, h[1], r[0]);
	u1 = _mm512_madd52hi_epu64(u1, h[1], r[0]);
	l2 = _mm512_madd52lo_epu64(l2, h[1], r[1]);
	u2 = _mm512_madd52hi_epu64(u2, h[1], r[1]);
	l0 = _mm512_madd52lo_epu64(l0, h[2], r[3]);
	u0 = _mm512_madd52hi_epu64(u0, h[2], r[3]);
	l1 = _mm512_madd52lo_epu64(l1, h[2], r[4]);
	u1 = _mm512_madd52hi_epu64(u1, h[2], r[4]);
	l2 = _mm512_madd52lo_epu64(l2, h[2], r[0]);
	u2 = _mm512_madd52hi_epu64(u2, h[2], r[0]);

	c = _mm512_add_epi64(_mm512_srli_epi64(l0, 44), _mm512_slli_epi64(u0, 8));
	h[0] = _mm512_and_si512(l0, m44);
	l1 = _mm512_add_epi64(l1, c);
	c = _mm512_add_epi64(_mm512_srli_epi64(l1, 44), _mm512_slli_epi64(u1, 8));
	h[1] = _mm512_and_si512(l1, m44);
	l2 = _mm512_add_epi64(l2, c);
	c = _mm512_add_epi64(_mm512_srli_epi64(l2, 42), _mm512_slli_epi64(u2, 10));
	h[2] = _mm512_and_si512(l2, m42);
	h[0] = _mm512_add_epi64(h[0], _mm512_add_epi64(c, _mm512_slli_epi64(c, 2)));
	h[1] = _mm512_add_epi64(h[1], _mm512_srli_epi64(h[0], 44));
	h[0] = _mm512_and_si512(h[0], m44);
}

/* Blocks 0-7 of m, block j into lane j's limbs, plus the 2^128 bit. */
static inline IFMA_TARGET void load8(__m512i t[3], const uint8_t *m)
{
	const __m512i even = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), odd = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
	const __m512i m44 = _mm512_set1_epi64(M44), a = _mm512_loadu_si512(m), b = _mm512_loadu_si512(m + 64);
	__m512i lo = _mm512_permutex2var_epi64(a, even, b), hi = _mm512_permutex2var_epi64(a, odd, b);

	t[0] = _mm512_and_si512(lo, m44);
	t[1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(lo, 44), _mm512_slli_epi64(hi, 20)), m44);
	t[2] = _mm512_or_si512(_mm512_srli_epi64(hi, 24), _mm512_set1_epi64(1ll << 40));
}

static inline IFMA_TARGET void add8(__m512i h[3], const uint8_t *m)
{
	__m512i t[3];

	load8(t, m);
	for (int k = 0; k < 3; k++)
		h[k] = _mm512_add_epi64(h[k], t[k]);
}

/* Two accumulators a and b (blocks 0-7 and 8-15 of every 16) each gather
 * their lanes by Horner's rule in r^16, so two chains of products overlap;
 * p->h enters lane 0 of a with block 0. Then a r^8 + b holds blocks that
 * lane j must multiply by r^(8 - j) (with a last eight blocks by Horner's
 * rule in r^8 again), and the lanes' sum is what one block at a time gives. */
IFMA_TARGET void bc_poly1305_blocks_ifma(struct bc_poly1305 *p, const uint8_t *m, size_t n)
{
	__m512i pw[5], r8[5], r16[5], a[3], b[3];
	uint64_t g[3];

	/* r^8 and the lanes' powers read only when needed: in registers
	 * throughout, with the loop's, they would spill to the stack */
	for (int k = 0; k < 5; k++)
		r16[k] = _mm512_set1_epi64((long long)p->r16[k]);
	load8(a, m);
	load8(b, m + 128);
	for (int k = 0; k < 3; k++)
		a[k] = _mm512_add_epi64(a[k], _mm512_maskz_set1_epi64(1, (long long)p->h[k]));
	for (m += 256, n -= 16; n >= 16; n -= 16, m += 256) {
		mul8(a, r16);
		mul8(b, r16);
		add8(a, m);
		add8(b, m + 128);
	}
	for (int k = 0; k < 5; k++)
		r8[k] = _mm512_set1_epi64((long long)p->pw[k][0]);
	mul8(a, r8);
	for (int k = 0; k < 3; k++)
		a[k] = _mm512_add_epi64(a[k], b[k]);
	if (n) {
		mul8(a, r8);
		add8(a, m);
	}
	for (int k = 0; k < 5; k++)
		pw[k] = _mm512_loadu_si512(p->pw[k]);
	mul8(a, pw);
	for (int k = 0; k < 3; k++)
		g[k] = (uint64_t)_mm512_reduce_add_epi64(a[k]);
	/* eight lanes' limbs: below 2^47; back to the portable code's bounds */
	g[1] += g[0] >> 44; g[0] &= M44;
	g[2] += g[1] >> 44; g[1] &= M44;
	g[0] += (g[2] >> 42) * 5; g[2] &= M42;
	g[1] += g[0] >> 44; g[0] &= M44;
	memcpy(p->h, g, sizeof(g));
	bc_wipe(g, sizeof(g));
}
#endif
