/* blockcrypt x86: SHA-512 and SHA-384 with the message schedule of two blocks in AVX2 and the rounds in BMI2
 * (drivers sha512-avx2, sha384-avx2). CPU: AVX2, BMI2. FIPS 180-4 section 6.4.2; the schedule as sha256-avx2's. */
#include <immintrin.h>

#include "drivers.h"
#include "sha_avx2.h"
#include "../../hash/md32.h"
#include "../../hash/sha512.h"

#define BC_X86_AVX2_BMI2 __attribute__((target("avx2,bmi2")))
#define INLINE static inline __attribute__((always_inline))

/* AVX2 has no 64-bit rotate: two shifts and an OR. */
INLINE BC_X86_AVX2_BMI2 __m256i ror256(__m256i x, int n)
{
	return _mm256_or_si256(_mm256_srli_epi64(x, n), _mm256_slli_epi64(x, 64 - n));
}

INLINE BC_X86_AVX2_BMI2 __m256i ssig0_256(__m256i x)
{
	return _mm256_xor_si256(_mm256_xor_si256(ror256(x, 1), ror256(x, 8)), _mm256_srli_epi64(x, 7));
}

INLINE BC_X86_AVX2_BMI2 __m256i ssig1_256(__m256i x)
{
	return _mm256_xor_si256(_mm256_xor_si256(ror256(x, 19), ror256(x, 61)), _mm256_srli_epi64(x, 6));
}

/* W[t], W[t+1] of both blocks (one per 128-bit lane) from the sixteen words
 * before, x[k % 8] holding W[2k], W[2k+1]: sigma1 needs W[t-2], W[t-1], the
 * vector just made, so no step waits on its own result (SHA-256's does). */
INLINE BC_X86_AVX2_BMI2 __m256i sched2(const __m256i x[8], int i)
{
	__m256i w = _mm256_add_epi64(x[i % 8], _mm256_alignr_epi8(x[(i + 5) % 8], x[(i + 4) % 8], 8)); /* + W[t-7..t-6] */

	w = _mm256_add_epi64(w, ssig0_256(_mm256_alignr_epi8(x[(i + 1) % 8], x[i % 8], 8)));         /* + s0(W[t-15..]) */
	return _mm256_add_epi64(w, ssig1_256(x[(i + 7) % 8]));                                         /* + s1(W[t-2..]) */
}

/* W[t] + K[t] of a pair of blocks: words t, t+1 of the first block, then the
 * same of the second, for each t = 0, 2, ... 78. */
struct wk_pair {
	uint64_t v[160];
};

INLINE BC_X86_AVX2_BMI2 void store_wk(struct wk_pair *wk, int i, __m256i w)
{
	__m256i k = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(bc_sha512_k + 2 * i)));

	_mm256_storeu_si256((__m256i *)(wk->v + 4 * i), _mm256_add_epi64(w, k));
}

/* Words 0..15 of blocks p0 and p1 into x[0..7] and wk. */
INLINE BC_X86_AVX2_BMI2 void sched_load(__m256i x[8], struct wk_pair *wk, const uint8_t *p0, const uint8_t *p1)
{
	const __m256i bswap = _mm256_broadcastsi128_si256(
		_mm_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));

	for (int i = 0; i < 8; i++) {
		__m256i m = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(p0 + 16 * i))),
		                                    _mm_loadu_si128((const __m128i *)(p1 + 16 * i)), 1);
		x[i] = _mm256_shuffle_epi8(m, bswap);
		store_wk(wk, i, x[i]);
	}
}

/* Words 2i, 2i+1 (8 <= i < 40); x[i % 8] held words 2i-16, 2i-15. */
INLINE BC_X86_AVX2_BMI2 void sched_step(__m256i x[8], struct wk_pair *wk, int i)
{
	x[i % 8] = sched2(x, i);
	store_wk(wk, i, x[i % 8]);
}

/* The 80 rounds of one block from wk (a wk_pair's v or v + 2). With next,
 * the schedule of the next pair (p0, p1) is made in between, four steps
 * after each of the first eight groups of eight rounds. */
INLINE BC_X86_AVX2_BMI2 void rounds(uint64_t st[8], const uint64_t *wk, struct wk_pair *next,
                                    const uint8_t *p0, const uint8_t *p1)
{
	uint64_t a = st[0], b = st[1], c = st[2], d = st[3];
	uint64_t e = st[4], f = st[5], g = st[6], h = st[7], bc = b ^ c;
	__m256i x[8];

	if (next)
		sched_load(x, next, p0, p1);
#define WK(i) wk[((i) >> 1) * 4 + ((i) & 1)]
#pragma GCC unroll 10
	for (int i = 0; i < 10; i++) {
		BC_SHA512_ROUNDS8(8 * i, WK);
		if (next && i < 8)
			for (int j = 0; j < 4; j++)
				sched_step(x, next, 8 + 4 * i + j);
	}
#undef WK
	st[0] += a; st[1] += b; st[2] += c; st[3] += d;
	st[4] += e; st[5] += f; st[6] += g; st[7] += h;
}

/* compress: pairs of blocks through the rounds above (sha_avx2.h). */
BC_SHA_AVX2_PAIRS(sha512_avx2_compress, uint64_t, 128, 8, 8, 40, 2, bc_sha512_compress_generic)

BC_SHA512_SHASH(sha512_avx2, sha384_avx2, "sha512-avx2", "sha384-avx2", 300, BC_CPU_AVX2 | BC_CPU_BMI2,
                sha512_avx2_compress);
