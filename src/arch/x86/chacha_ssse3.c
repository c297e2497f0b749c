/* blockcrypt x86-64: ChaCha20, XChaCha20 and XChaCha12 on xmm registers, 4 blocks per pass (drivers chacha20-ssse3,
 * xchacha20-ssse3, xchacha12-ssse3). RFC 8439 section 2. Needs SSSE3 (PSHUFB): CPUs without AVX2, such as Atom-class cores. */
#include <immintrin.h>

#include "drivers.h"

#if defined(__x86_64__)
#define CHX_TARGET "ssse3"
#define CHX_V __m128i
#define CHX_N 4
#define chx_set1(w) _mm_set1_epi32((int)(w))
#define chx_add _mm_add_epi32
#define chx_xor _mm_xor_si128
#define chx_unpack32(lo, a, b) (lo ? _mm_unpacklo_epi32(a, b) : _mm_unpackhi_epi32(a, b))
#define chx_unpack64(lo, a, b) (lo ? _mm_unpacklo_epi64(a, b) : _mm_unpackhi_epi64(a, b))
#define chx_lanes() _mm_setr_epi32(0, 1, 2, 3)
/* As on ymm: rotations by 16 and 8 are one PSHUFB, 12 and 7 two shifts and an OR. */
#define chx_rol(v, n)                                                                                            \
	((n) == 16 ? _mm_shuffle_epi8(v, _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13))     \
	 : (n) == 8 ? _mm_shuffle_epi8(v, _mm_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14))    \
	 : _mm_or_si128(_mm_slli_epi32(v, n), _mm_srli_epi32(v, 32 - (n))))

#include "chacha_x86.h"

/* A quarter block per xmm register: whole quarters directly, the last partial
 * one through a buffer (the length is public). */
CHX_INLINE void out_quarter(__m128i ks, uint8_t *dst, const uint8_t *src, size_t off, size_t n)
{
	if (off + 16 <= n) {
		_mm_storeu_si128((__m128i *)(dst + off), _mm_xor_si128(ks, _mm_loadu_si128((const __m128i *)(src + off))));
	} else if (off < n) {
		uint8_t buf[16];

		_mm_storeu_si128((__m128i *)buf, ks);
		bc_xor(dst + off, src + off, buf, n - off);
		bc_wipe(buf, sizeof(buf));
	}
}

/* With one 128-bit lane, chx_transpose4 leaves x[4g + j] holding words 4g..4g+3 of block j: block order already. */
CHX_INLINE void chx_store(__m128i x[16], uint8_t *dst, const uint8_t *src, size_t n)
{
	chx_transpose4(x);
	for (int j = 0; j < 4; j++)
		for (int g = 0; g < 4; g++)
			out_quarter(x[4 * g + j], dst, src, (size_t)j * 64 + (size_t)g * 16, n);
}

BC_CHACHA_DRIVERS(ssse3, "ssse3", 200, BC_CPU_SSSE3, chx_stream_xor);
#endif
