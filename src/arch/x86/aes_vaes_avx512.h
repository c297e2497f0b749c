/* blockcrypt x86-64: what the AES drivers on 512-bit registers share: the target set, the batch shape, the
 * counter-mode pass (ctr, xctr). FIPS-197 (AES), NIST SP 800-38A (CTR); XCTR of the HCTR2 paper (ia.cr/2021/1441). */
#ifndef BC_AES_VAES_AVX512_H
#define BC_AES_VAES_AVX512_H

#include "aes_x86.h"

#if defined(__x86_64__)

#define BC_X86_AVX512 __attribute__((target("vaes,vpclmulqdq,aes,pclmul,avx512f,avx512bw")))
#define Z_REGS 8                      /* registers of four blocks per batch */
#define Z_BLOCKS (4 * Z_REGS)

BC_X86_INLINE BC_X86_AVX512 __m512i z_rk(const uint8_t (*rk)[16], unsigned r)
{
	return _mm512_broadcast_i32x4(_mm_load_si128((const __m128i *)rk[r]));
}

/* Which bytes of register i are among the message's first `bytes` (public).
 * Selects, not branches: branches here made gcc duplicate the whole batch
 * per case and spill a counter register across the split (~8 cycles). */
BC_X86_INLINE BC_X86_AVX512 __mmask64 zctr_mask(size_t bytes, unsigned i)
{
	size_t d = bytes > 64 * i ? bytes - 64 * i : 0;
	__mmask64 part = ((__mmask64)1 << (d & 63)) - 1;

	return d >= 64 ? ~(__mmask64)0 : part;
}

/* Counter blocks x (regs registers) through AES, the keystream XORed onto
 * src into dst, the source folded into the last round key. mask (a
 * constant): Z_ALL, every byte of every register; Z_EACH, only the first
 * `bytes` bytes, each register masked (a batch's tail); Z_LAST, only the
 * last register masked, to its bytes - 64 (regs - 1) bytes, and not at all
 * when it is whole (one pass of a short message, whose other registers are
 * full; see z_masked for why). */
enum { Z_ALL, Z_EACH, Z_LAST };

BC_X86_INLINE BC_X86_AVX512 void zctr_aes(const uint8_t (*rk)[16], const unsigned nr, __m512i *x, const uint8_t *src,
                                          uint8_t *dst, const unsigned regs, const int mask, size_t bytes)
{
	__m512i key;
	__mmask64 m[Z_REGS];
	unsigned i, r;

	BC_X86_OPAQUE(rk);
	key = z_rk(rk, 0);
	_Pragma("GCC unroll 8")
	for (i = 0; i < regs; i++) {
		m[i] = mask == Z_EACH ? zctr_mask(bytes, i)
		       : mask == Z_LAST && i + 1 == regs ? ~(__mmask64)0 >> (64 * regs - bytes) : ~(__mmask64)0;
		x[i] = _mm512_xor_si512(x[i], key);
	}
	_Pragma("GCC unroll 14")
	for (r = 1; r < nr; r++) {
		key = z_rk(rk, r);
		_Pragma("GCC unroll 8")
		for (i = 0; i < regs; i++)
			x[i] = _mm512_aesenc_epi128(x[i], key);
	}
	key = z_rk(rk, nr);
	_Pragma("GCC unroll 8")
	for (i = 0; i < regs; i++) {
		if (mask == Z_EACH || (mask == Z_LAST && i + 1 == regs && bytes % 64)) {
			x[i] = _mm512_aesenclast_epi128(x[i], _mm512_xor_si512(key, _mm512_maskz_loadu_epi8(m[i], src + 64 * i)));
			_mm512_mask_storeu_epi8(dst + 64 * i, m[i], x[i]);
		} else {
			x[i] = _mm512_aesenclast_epi128(x[i], _mm512_xor_si512(key, _mm512_loadu_si512(src + 64 * i)));
			_mm512_storeu_si512(dst + 64 * i, x[i]);
		}
	}
}

#endif
#endif
