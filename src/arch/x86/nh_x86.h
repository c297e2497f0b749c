/* blockcrypt x86-64: the NH pass on xmm registers shared by nhpoly1305-sse2 and nhpoly1305-avx2.
 * Crowley and Biggers, "Adiantum" (ia.cr/2018/720), section 6.3 (NH); SSE2 is part of x86-64. */
#ifndef BC_NH_X86_H
#define BC_NH_X86_H

#include <immintrin.h>

#include "../../hash/nhpoly1305.h"
#include "x86_util.h"

#define BC_X86_SSE2 __attribute__((target("sse2")))

/* One stride x (four message words) and one pass's key words kw[0..3]:
 * t = x + k, then (t0 t2, t1 t3) as two 64-bit products added to s. */
BC_X86_INLINE BC_X86_SSE2 __m128i bc_nh_pass128(__m128i s, __m128i x, const uint32_t *kw)
{
	__m128i t = _mm_add_epi32(x, _mm_loadu_si128((const __m128i *)kw));

	return _mm_add_epi64(s, _mm_mul_epu32(_mm_shuffle_epi32(t, 0x10), _mm_shuffle_epi32(t, 0x32)));
}

/* The four passes of one stride of m into s[0..3]. */
BC_X86_INLINE BC_X86_SSE2 void bc_nh_stride128(__m128i s[BC_NH_PASSES], const uint32_t *kw, const uint8_t *m)
{
	__m128i x = _mm_loadu_si128((const __m128i *)m);

	s[0] = bc_nh_pass128(s[0], x, kw);
	s[1] = bc_nh_pass128(s[1], x, kw + 4);
	s[2] = bc_nh_pass128(s[2], x, kw + 8);
	s[3] = bc_nh_pass128(s[3], x, kw + 12);
}

/* A pass's two 64-bit lanes added into its sum. */
BC_X86_INLINE BC_X86_SSE2 void bc_nh_sum_add128(uint64_t *sum, __m128i s)
{
	*sum += (uint64_t)_mm_cvtsi128_si64(s) + (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(s, s));
}

BC_X86_INLINE BC_X86_SSE2 void bc_nh_sums_add128(uint64_t sums[BC_NH_PASSES], const __m128i s[BC_NH_PASSES])
{
	bc_nh_sum_add128(&sums[0], s[0]);
	bc_nh_sum_add128(&sums[1], s[1]);
	bc_nh_sum_add128(&sums[2], s[2]);
	bc_nh_sum_add128(&sums[3], s[3]);
}

#endif
