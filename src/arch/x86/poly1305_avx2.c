/* blockcrypt x86-64: Poly1305's long runs of whole blocks, four at a time on ymm registers in 26-bit limbs with 32x32-bit
 * products (VPMULUDQ), for the rfc7539 AEADs where AVX-512 IFMA is missing. RFC 8439 section 2.5; powers of r as
 * Goll and Gueron, "Vectorization of Poly1305". Needs AVX2. */
#include <immintrin.h>

#include "../../hash/poly1305.h"
#include "x86_util.h"

#if defined(BC_POLY1305_WIDE)
#define M26 0x3ffffffull
#define M44 0xfffffffffffull

/* Lane by lane h = h * r modulo 2^130 - 5; r[0..4] the limbs of r, r[5..8]
 * 5 times limbs 1-4 (2^130 = 5). With h below 2^27 and r below 2^26 (+ 1)
 * every product is below 2^56 and each sum of five below 2^59; out, the
 * limbs are below 2^26 but limb 1, below 2^26 + 2^11. */
BC_X86_INLINE BC_X86_AVX2 void mul4(__m256i h[5], const __m256i r[9])
{
	const __m256i m26 = _mm256_set1_epi64x(M26);
#define P(a, b) _mm256_mul_epu32(h[a], r[b])
#define S(x, y) _mm256_add_epi64(x, y)
	__m256i d0 = S(S(S(P(0, 0), P(1, 8)), S(P(2, 7), P(3, 6))), P(4, 5));
	__m256i d1 = S(S(S(P(0, 1), P(1, 0)), S(P(2, 8), P(3, 7))), P(4, 6));
	__m256i d2 = S(S(S(P(0, 2), P(1, 1)), S(P(2, 0), P(3, 8))), P(4, 7));
	__m256i d3 = S(S(S(P(0, 3), P(1, 2)), S(P(2, 1), P(3, 0))), P(4, 8));
	__m256i d4 = S(S(S(P(0, 4), P(1, 3)), S(P(2, 2), P(3, 1))), P(4, 0));
#undef P
	__m256i c;

	c = _mm256_srli_epi64(d0, 26); h[0] = _mm256_and_si256(d0, m26); d1 = S(d1, c);
	c = _mm256_srli_epi64(d1, 26); h[1] = _mm256_and_si256(d1, m26); d2 = S(d2, c);
	c = _mm256_srli_epi64(d2, 26); h[2] = _mm256_and_si256(d2, m26); d3 = S(d3, c);
	c = _mm256_srli_epi64(d3, 26); h[3] = _mm256_and_si256(d3, m26); d4 = S(d4, c);
	c = _mm256_srli_epi64(d4, 26); h[4] = _mm256_and_si256(d4, m26);
	h[0] = S(h[0], S(c, _mm256_slli_epi64(c, 2)));
	h[1] = S(h[1], _mm256_srli_epi64(h[0], 26));
	h[0] = _mm256_and_si256(h[0], m26);
#undef S
}

/* Blocks 0-3 of m into h's limbs, blocks 0, 2, 1, 3 in lanes 0-3, with the 2^128 bit. */
BC_X86_INLINE BC_X86_AVX2 void add4(__m256i h[5], const uint8_t *m)
{
	const __m256i m26 = _mm256_set1_epi64x(M26);
	const __m256i a = _mm256_loadu_si256((const __m256i *)m), b = _mm256_loadu_si256((const __m256i *)(m + 32));
	const __m256i lo = _mm256_unpacklo_epi64(a, b), hi = _mm256_unpackhi_epi64(a, b);

	h[0] = _mm256_add_epi64(h[0], _mm256_and_si256(lo, m26));
	h[1] = _mm256_add_epi64(h[1], _mm256_and_si256(_mm256_srli_epi64(lo, 26), m26));
	h[2] = _mm256_add_epi64(h[2], _mm256_and_si256(_mm256_or_si256(_mm256_srli_epi64(lo, 52),
	                                                               _mm256_slli_epi64(hi, 12)), m26));
	h[3] = _mm256_add_epi64(h[3], _mm256_and_si256(_mm256_srli_epi64(hi, 14), m26));
	h[4] = _mm256_add_epi64(h[4], _mm256_or_si256(_mm256_srli_epi64(hi, 40), _mm256_set1_epi64x(1ll << 24)));
}

BC_X86_INLINE BC_X86_AVX2 uint64_t sum4(__m256i v)
{
	__m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));

	return (uint64_t)_mm_cvtsi128_si64(_mm_add_epi64(s, _mm_unpackhi_epi64(s, s)));
}

/* One accumulator gathers each lane's blocks by Horner's rule in r^4;
 * p->h enters lane 0 with block 0. The last multiplication is by the power
 * each lane's last block needs (r^4, r^2, r^3, r^1 for blocks 0, 2, 1, 3 of
 * the last four), and the lanes' sum is what one block at a time gives. */
BC_X86_AVX2 void bc_poly1305_blocks_avx2(struct bc_poly1305 *p, const uint8_t *m, size_t n)
{
	__m256i r4[9], h[5], pw[9];
	uint64_t g[5], l0 = p->h[0], l1 = p->h[1] & M44, l2 = p->h[2] + (p->h[1] >> 44);

	g[0] = l0 & M26;
	g[1] = (l0 >> 26 | l1 << 18) & M26;
	g[2] = l1 >> 8 & M26;
	g[3] = (l1 >> 34 | l2 << 10) & M26;
	g[4] = l2 >> 16;
	for (int k = 0; k < 5; k++)
		h[k] = _mm256_set_epi64x(0, 0, 0, (long long)g[k]);
	for (int k = 0; k < 9; k++)
		r4[k] = _mm256_set1_epi64x((long long)p->pw26[k][0]);
	add4(h, m);
	for (m += 64, n -= 4; n; n -= 4, m += 64) {
		mul4(h, r4);
		add4(h, m);
	}
	for (int k = 0; k < 9; k++)
		pw[k] = _mm256_loadu_si256((const __m256i *)p->pw26[k]);
	mul4(h, pw);
	for (int k = 0; k < 5; k++)
		g[k] = sum4(h[k]);
	/* four lanes' limbs: below 2^28; carried to 26 bits, then the portable limbs */
	for (int k = 0; k < 4; k++) {
		g[k + 1] += g[k] >> 26;
		g[k] &= M26;
	}
	g[0] += (g[4] >> 26) * 5; g[4] &= M26;
	g[1] += g[0] >> 26; g[0] &= M26;
	p->h[0] = (g[0] | g[1] << 26) & M44;
	p->h[1] = (g[1] >> 18 | g[2] << 8 | g[3] << 34) & M44;
	p->h[2] = g[3] >> 10 | g[4] << 16;
	bc_wipe(g, sizeof(g));
}
#endif
