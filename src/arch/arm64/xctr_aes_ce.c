/* blockcrypt arm64: xctr over AES with the Crypto Extensions, four blocks in flight (xctr-aes-ce). CPU: AES (Crypto Extensions).
 * XCTR of the HCTR2 paper (ia.cr/2021/1441, section 3) as Linux crypto/xctr.c: block i = E_K(IV ^ le128(i)), i from 1. */
#include "aes_ce.h"

/* Counter block i is the IV with le64(i) XORed into its low half: no call
 * is long enough to carry into the high half. */
BC_A64_INLINE uint8x16_t xctr_block(uint64x2_t iv, uint64_t i)
{
	return vreinterpretq_u8_u64(veorq_u64(iv, vcombine_u64(vcreate_u64(i), vcreate_u64(0))));
}

/* The counter restarts at 1 on every call and the IV is left as it was,
 * as in the kernel's xctr. */
BC_A64_INLINE void xctr(const struct bc_aes_ce_regs *r, const uint8_t iv[16], const uint8_t *src, uint8_t *dst,
			size_t len)
{
	const uint64x2_t v = vreinterpretq_u64_u8(vld1q_u8(iv));
	uint64_t c = 1;

	for (; len >= 64; len -= 64, src += 64, dst += 64, c += 4) {
		uint8x16_t x[4];

		BC_A64_UNROLL
		for (int i = 0; i < 4; i++)
			x[i] = xctr_block(v, c + (uint64_t)i);
		bc_aes_ce_enc4(r, x);
		BC_A64_UNROLL
		for (int i = 0; i < 4; i++)
			bc_a64_st(dst + 16 * i, veorq_u8(x[i], bc_a64_ld(src + 16 * i)));
	}
	for (size_t n; len; len -= n, src += n, dst += n, c++)
		n = bc_a64_ks_xor(dst, src, bc_aes_ce_enc1(r, xctr_block(v, c)), len);
}

static int xctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_aes_ce_key *k = ctx;
	struct bc_aes_ce_regs r;

	bc_aes_ce_load(&r, k->rk, k->rounds);
	BC_AES_CE_PER_KEYSIZE(&r, xctr(&r, iv, src, dst, len));
	return 0;
}

const struct bc_skcipher_alg bc_xctr_aes_ce = {
	.name = "xctr(aes)", .driver = "xctr-aes-ce", .priority = 400, .cpu = BC_CPU_ARM_AES,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 16, .blocksize = 1, .min_len = 0, .len_align = 1,
	.ctxsize = sizeof(struct bc_aes_ce_key), .setkey = bc_aes_ce_sk_setkey, .encrypt = xctr_crypt,
	.decrypt = xctr_crypt,
};
