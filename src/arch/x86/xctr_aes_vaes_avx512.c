/* blockcrypt x86-64: xctr over AES with VAES on 512-bit registers, 32 blocks in flight (xctr-aes-vaes-avx512).
 * XCTR of the HCTR2 paper (ia.cr/2021/1441) as Linux crypto/xctr.c. Needs AVX-512 F and BW, VAES (and AES-NI for short messages). */
#include "aes_vaes_avx512.h"
#include "drivers.h"

#if defined(__x86_64__)

/* Up to 32 bytes the one- or two-block AES-NI code is quicker (as ctr). */
#define ZXCTR_MIN 33

/* One batch of regs registers: counter blocks IV ^ le128(c + j), four per
 * register, through ctr's pass (zctr_aes); with masked, only the first
 * `bytes` bytes are read and written. The counter is the low 64 bits of
 * each block, which no message is long enough to carry out of. */
BC_X86_INLINE BC_X86_AVX512 void zxctr_batch(const uint8_t (*rk)[16], const unsigned nr, __m512i iv, uint64_t c,
                                             const uint8_t *src, uint8_t *dst, const unsigned regs, const int masked,
                                             size_t bytes)
{
	const __m512i four = _mm512_set_epi64(0, 4, 0, 4, 0, 4, 0, 4);
	__m512i x[Z_REGS], n = _mm512_add_epi64(_mm512_set1_epi64((long long)c), _mm512_set_epi64(0, 3, 0, 2, 0, 1, 0, 0));
	unsigned i;

	n = _mm512_maskz_mov_epi64(0x55, n);
	_Pragma("GCC unroll 8")
	for (i = 0; i < regs; i++) {
		x[i] = _mm512_xor_si512(iv, n);
		n = _mm512_add_epi64(n, four);
	}
	zctr_aes(rk, nr, x, src, dst, regs, masked ? Z_EACH : Z_ALL, bytes);
}

BC_X86_INLINE BC_X86_AVX512 void zxctr(const struct bc_aes_x86_ek *k, const unsigned nr, const uint8_t *ivp,
                                       const uint8_t *src, uint8_t *dst, size_t len)
{
	const __m512i iv = _mm512_broadcast_i32x4(bc_aes_x86_load(ivp));
	uint64_t c = 1;

	for (; len >= 16 * Z_BLOCKS; len -= 16 * Z_BLOCKS, src += 16 * Z_BLOCKS, dst += 16 * Z_BLOCKS, c += Z_BLOCKS)
		zxctr_batch(k->rk, nr, iv, c, src, dst, Z_REGS, 0, 16 * Z_BLOCKS);
	if (len > 8 * Z_BLOCKS)
		zxctr_batch(k->rk, nr, iv, c, src, dst, Z_REGS, 1, len);
	else if (len)
		zxctr_batch(k->rk, nr, iv, c, src, dst, Z_REGS / 2, 1, len);
}

static BC_X86_AVX512 int zxctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_aes_x86_ek *k = ctx;

	if (len < ZXCTR_MIN)
		return bc_aes_x86_xctr(k, iv, 1, src, dst, len);
	switch (k->rounds) {
	case 10: zxctr(k, 10, iv, src, dst, len); break;
	case 12: zxctr(k, 12, iv, src, dst, len); break;
	default: zxctr(k, 14, iv, src, dst, len); break;
	}
	return 0;
}

const struct bc_skcipher_alg bc_xctr_aes_vaes_avx512 = {
	.name = "xctr(aes)", .driver = "xctr-aes-vaes-avx512", .priority = 600,
	.cpu = BC_CPU_AVX512 | BC_CPU_VAES | BC_CPU_AVX2 | BC_CPU_AESNI,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 16, .blocksize = 1, .min_len = 0, .len_align = 1,
	.ctxsize = sizeof(struct bc_aes_x86_ek), .setkey = bc_aes_x86_ctr_setkey,
	.encrypt = zxctr_crypt, .decrypt = zxctr_crypt,
};

#endif
