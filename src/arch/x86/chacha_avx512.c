/* blockcrypt x86-64: ChaCha20, XChaCha20 and XChaCha12 on zmm registers, 16 blocks per pass (drivers chacha20-avx512,
 * xchacha20-avx512, xchacha12-avx512). RFC 8439 section 2. Needs AVX-512 F and BW (VPROLD, byte-masked loads and stores). */
#include <immintrin.h>

#include "drivers.h"

#if defined(__x86_64__)
#define CHX_TARGET "avx2,avx512f,avx512bw,avx512vl"
#define CHX_V __m512i
#define CHX_N 16
#define chx_set1(w) _mm512_set1_epi32((int)(w))
#define chx_add _mm512_add_epi32
#define chx_xor _mm512_xor_si512
#define chx_rol(v, n) _mm512_rol_epi32(v, n)
#define chx_unpack32(lo, a, b) (lo ? _mm512_unpacklo_epi32(a, b) : _mm512_unpackhi_epi32(a, b))
#define chx_unpack64(lo, a, b) (lo ? _mm512_unpacklo_epi64(a, b) : _mm512_unpackhi_epi64(a, b))
#define chx_lanes() _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

#define CHX_TAIL_MAX BC_CHACHA_BLOCK
#define chx_tail bc_chacha_xor_rows

#include "../../cipher/chacha_lanes.h"

/* One 64-byte block is one zmm: whole ones with plain loads and stores, a
 * last partial one under a byte mask (the length is public). */
CHX_INLINE void out_block(__m512i ks, uint8_t *dst, const uint8_t *src, size_t off, size_t n)
{
	if (off + 64 <= n) {
		_mm512_storeu_si512(dst + off, _mm512_xor_si512(ks, _mm512_loadu_si512(src + off)));
	} else if (off < n) {
		__mmask64 m = (1ull << (n - off)) - 1;

		_mm512_mask_storeu_epi8(dst + off, m, _mm512_xor_si512(ks, _mm512_maskz_loadu_epi8(m, src + off)));
	}
}

/* After chx_transpose4, block 4k + j is lane k of x[j], x[4 + j], x[8 + j],
 * x[12 + j]: two rounds of 128-bit lane shuffles gather them. */
CHX_INLINE void chx_store(__m512i x[16], uint8_t *dst, const uint8_t *src, size_t n)
{
	chx_transpose4(x);
	for (int j = 0; j < 4; j++) {
		__m512i u0 = _mm512_shuffle_i32x4(x[j], x[4 + j], 0x44);
		__m512i u1 = _mm512_shuffle_i32x4(x[j], x[4 + j], 0xee);
		__m512i u2 = _mm512_shuffle_i32x4(x[8 + j], x[12 + j], 0x44);
		__m512i u3 = _mm512_shuffle_i32x4(x[8 + j], x[12 + j], 0xee);

		out_block(_mm512_shuffle_i32x4(u0, u2, 0x88), dst, src, (size_t)j * 64, n);
		out_block(_mm512_shuffle_i32x4(u0, u2, 0xdd), dst, src, (size_t)(4 + j) * 64, n);
		out_block(_mm512_shuffle_i32x4(u1, u3, 0x88), dst, src, (size_t)(8 + j) * 64, n);
		out_block(_mm512_shuffle_i32x4(u1, u3, 0xdd), dst, src, (size_t)(12 + j) * 64, n);
	}
}


BC_CHACHA_DRIVERS(avx512, "avx512", 400, BC_CPU_AVX | BC_CPU_AVX2 | BC_CPU_AVX512, bc_hchacha, chx_stream_xor);
#endif
