/* blockcrypt x86-64: NH-Poly1305 with NH on ymm registers, two strides per register (driver nhpoly1305-avx2).
 * Crowley and Biggers, "Adiantum" (ia.cr/2018/720), sections 6.3-6.4. Needs AVX2. */
#include "drivers.h"

#if defined(__x86_64__)
#include "nh_x86.h"

/* Two strides x and pass i: the key words of the pair run on 4i further, so
 * one unaligned load of eight gives both strides their keys. */
BC_X86_INLINE BC_X86_AVX2 __m256i nh_pass256(__m256i s, __m256i x, const uint32_t *kw)
{
	__m256i t = _mm256_add_epi32(x, _mm256_loadu_si256((const __m256i *)kw));

	return _mm256_add_epi64(s, _mm256_mul_epu32(_mm256_shuffle_epi32(t, 0x10), _mm256_shuffle_epi32(t, 0x32)));
}

/* A pass's sums of the two strides added lane by lane. */
BC_X86_INLINE BC_X86_AVX2 __m128i fold(__m256i w)
{
	return _mm_add_epi64(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
}

static BC_X86_AVX2 void nh_strides_avx2(const uint32_t *kw, uint64_t sums[BC_NH_PASSES], const uint8_t *m, size_t n)
{
	__m256i w0 = _mm256_setzero_si256(), w1 = w0, w2 = w0, w3 = w0;

	for (; n >= 2; n -= 2, m += 32, kw += 8) {
		__m256i x = _mm256_loadu_si256((const __m256i *)m);

		w0 = nh_pass256(w0, x, kw);
		w1 = nh_pass256(w1, x, kw + 4);
		w2 = nh_pass256(w2, x, kw + 8);
		w3 = nh_pass256(w3, x, kw + 12);
	}
	__m128i s[BC_NH_PASSES] = { fold(w0), fold(w1), fold(w2), fold(w3) };

	if (n)
		bc_nh_stride128(s, kw, m);
	bc_nh_sums_add128(sums, s);
}

BC_NHPOLY1305_SHASH(bc_nhpoly1305_avx2, "nhpoly1305-avx2", 300, BC_CPU_AVX2, nh_strides_avx2);
#endif
