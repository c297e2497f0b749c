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

#define CHX_TAIL_MAX BC_CHACHA_BLOCK
#define chx_tail bc_chacha_xor_rows

#include "../../cipher/chacha_lanes.h"

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

/* One block per pass, row-wise: rows 1..3 turned by one, two and three words
 * put each diagonal in a column, and turned back after the round. */
static __attribute__((target(CHX_TARGET), noinline)) void rows_xor(uint32_t st[16], uint8_t *dst, const uint8_t *src,
								      size_t len, int nrounds)
{
	__m128i s0 = _mm_loadu_si128((const __m128i *)st), s1 = _mm_loadu_si128((const __m128i *)(st + 4));
	__m128i s2 = _mm_loadu_si128((const __m128i *)(st + 8)), s3 = _mm_loadu_si128((const __m128i *)(st + 12));

	while (len) {
		size_t n = len < BC_CHACHA_BLOCK ? len : BC_CHACHA_BLOCK;
		__m128i x[4] = { s0, s1, s2, s3 };

		for (int r = 0; r < nrounds; r += 2) {
			CHX_QR(x[0], x[1], x[2], x[3]);
			x[1] = _mm_shuffle_epi32(x[1], 0x39);
			x[2] = _mm_shuffle_epi32(x[2], 0x4e);
			x[3] = _mm_shuffle_epi32(x[3], 0x93);
			CHX_QR(x[0], x[1], x[2], x[3]);
			x[1] = _mm_shuffle_epi32(x[1], 0x93);
			x[2] = _mm_shuffle_epi32(x[2], 0x4e);
			x[3] = _mm_shuffle_epi32(x[3], 0x39);
		}
		x[0] = _mm_add_epi32(x[0], s0);
		x[1] = _mm_add_epi32(x[1], s1);
		x[2] = _mm_add_epi32(x[2], s2);
		x[3] = _mm_add_epi32(x[3], s3);
		for (int g = 0; g < 4; g++)
			out_quarter(x[g], dst, src, (size_t)g * 16, n);
		s3 = _mm_add_epi32(s3, _mm_setr_epi32(1, 0, 0, 0));
		src += n;
		dst += n;
		len -= n;
	}
	st[12] = (uint32_t)_mm_cvtsi128_si32(s3);
}

/* Out of line, so that the stack the state words spilled to can be burnt after it. */
void bc_chacha_xor_rows(uint32_t st[16], uint8_t *dst, const uint8_t *src, size_t len, int nrounds)
{
	rows_xor(st, dst, src, len, nrounds);
	bc_burn_stack();
}

BC_CHACHA_DRIVERS(ssse3, "ssse3", 200, BC_CPU_SSSE3, bc_hchacha, chx_stream_xor);
#endif
