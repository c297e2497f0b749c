/* blockcrypt x86-64: ChaCha20, XChaCha20 and XChaCha12 on ymm registers, 8 blocks per pass (drivers chacha20-avx2,
 * xchacha20-avx2, xchacha12-avx2). RFC 8439 section 2. Needs AVX2. */
#include <immintrin.h>

#include "drivers.h"

#if defined(__x86_64__)
#define CHX_TARGET "avx2"
#define CHX_V __m256i
#define CHX_N 8
#define chx_set1(w) _mm256_set1_epi32((int)(w))
#define chx_add _mm256_add_epi32
#define chx_xor _mm256_xor_si256
#define chx_unpack32(lo, a, b) (lo ? _mm256_unpacklo_epi32(a, b) : _mm256_unpackhi_epi32(a, b))
#define chx_unpack64(lo, a, b) (lo ? _mm256_unpacklo_epi64(a, b) : _mm256_unpackhi_epi64(a, b))
#define chx_lanes() _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
/* Rotations by 16 and 8 move whole bytes: one VPSHUFB; 12 and 7 take two
 * shifts and an OR. n is a literal, so the choice folds away. */
#define chx_rol(v, n)                                                                                            \
	((n) == 16 ? _mm256_shuffle_epi8(v, _mm256_broadcastsi128_si256(_mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10,   \
			11, 8, 9, 14, 15, 12, 13)))                                                              \
	 : (n) == 8 ? _mm256_shuffle_epi8(v, _mm256_broadcastsi128_si256(_mm_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11,  \
			8, 9, 10, 15, 12, 13, 14)))                                                              \
	 : _mm256_or_si256(_mm256_slli_epi32(v, n), _mm256_srli_epi32(v, 32 - (n))))

#define CHX_TAIL_MAX BC_CHACHA_BLOCK
#define chx_tail bc_chacha_xor_generic

#include "../../cipher/chacha_lanes.h"

/* Half a block (32 bytes) per ymm: whole halves directly, the last partial
 * one through a buffer (the length is public). */
CHX_INLINE void out_half(__m256i ks, uint8_t *dst, const uint8_t *src, size_t off, size_t n)
{
	if (off + 32 <= n) {
		_mm256_storeu_si256((__m256i *)(dst + off),
				    _mm256_xor_si256(ks, _mm256_loadu_si256((const __m256i *)(src + off))));
	} else if (off < n) {
		uint8_t buf[32];

		_mm256_storeu_si256((__m256i *)buf, ks);
		bc_xor(dst + off, src + off, buf, n - off);
		bc_wipe(buf, sizeof(buf));
	}
}

/* After chx_transpose4, one lane exchange joins words 0..7 and 8..15 of each block. */
CHX_INLINE void chx_store(__m256i x[16], uint8_t *dst, const uint8_t *src, size_t n)
{
	chx_transpose4(x);
	for (int j = 0; j < 4; j++) {
		size_t lo = (size_t)j * 64, hi = (size_t)(4 + j) * 64;

		out_half(_mm256_permute2x128_si256(x[j], x[4 + j], 0x20), dst, src, lo, n);
		out_half(_mm256_permute2x128_si256(x[8 + j], x[12 + j], 0x20), dst, src, lo + 32, n);
		out_half(_mm256_permute2x128_si256(x[j], x[4 + j], 0x31), dst, src, hi, n);
		out_half(_mm256_permute2x128_si256(x[8 + j], x[12 + j], 0x31), dst, src, hi + 32, n);
	}
}


BC_CHACHA_DRIVERS(avx2, "avx2", 300, BC_CPU_AVX | BC_CPU_AVX2, bc_hchacha, chx_stream_xor);
#endif
