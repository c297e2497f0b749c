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
#define chx_lanes() _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

/* One 64-byte block is one zmm: whole ones with plain loads and stores, a
 * last partial one under a byte mask (the length is public). */
static inline __attribute__((target(CHX_TARGET), always_inline)) void out_block(__m512i ks, uint8_t *dst, const uint8_t *src,
										size_t off, size_t n)
{
	if (off + 64 <= n) {
		_mm512_storeu_si512(dst + off, _mm512_xor_si512(ks, _mm512_loadu_si512(src + off)));
	} else if (off < n) {
		__mmask64 m = (1ull << (n - off)) - 1;

		_mm512_mask_storeu_epi8(dst + off, m, _mm512_xor_si512(ks, _mm512_maskz_loadu_epi8(m, src + off)));
	}
}

/* The 16 x 16 word transposition: dwords, then qwords within 128-bit lanes
 * give, for j = 0..3, b[g][j] holding words 4g..4g+3 of block 4k + j in
 * lane k; the 128-bit lanes are then gathered across the four b[.][j]. */
static inline __attribute__((target(CHX_TARGET), always_inline)) void chx_store(__m512i x[16], uint8_t *dst,
										const uint8_t *src, size_t n)
{
	for (int g = 0; g < 4; g++) {
		__m512i t0 = _mm512_unpacklo_epi32(x[4 * g], x[4 * g + 1]);
		__m512i t1 = _mm512_unpackhi_epi32(x[4 * g], x[4 * g + 1]);
		__m512i t2 = _mm512_unpacklo_epi32(x[4 * g + 2], x[4 * g + 3]);
		__m512i t3 = _mm512_unpackhi_epi32(x[4 * g + 2], x[4 * g + 3]);

		x[4 * g] = _mm512_unpacklo_epi64(t0, t2);
		x[4 * g + 1] = _mm512_unpackhi_epi64(t0, t2);
		x[4 * g + 2] = _mm512_unpacklo_epi64(t1, t3);
		x[4 * g + 3] = _mm512_unpackhi_epi64(t1, t3);
	}
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

#include "chacha_x86.h"

BC_CHACHA_DRIVERS(avx512, "avx512", 400, BC_CPU_AVX | BC_CPU_AVX2 | BC_CPU_AVX512, chx_stream_xor);
#endif
