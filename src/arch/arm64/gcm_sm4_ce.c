/* blockcrypt arm64: gcm(sm4) with SM4-CE and PMULL in one pass (driver gcm-sm4-ce). CPU: SM4 and PMULL.
 * NIST SP 800-38D (GCM), GB/T 32907-2016 (SM4); Linux crypto/gcm.c semantics. */
#include "sm4_ce.h"
#include "gcm_ce.h"

struct gcm_sm4_ce_ctx {
	struct bc_sm4_ce_key sm4;
	struct bc_ghash_ce_key gh;
};

static int gcm_sm4_ce_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct gcm_sm4_ce_ctx *c = ctx;
	struct bc_sm4_ce_regs r;
	uint8_t h[16];

	if (keylen != 16)
		return -EINVAL;
	bc_sm4_ce_expand(&c->sm4, key);
	bc_sm4_ce_load(&r, c->sm4.rk);
	vst1q_u8(h, bc_sm4_ce_crypt1(&r, vdupq_n_u8(0)));
	bc_ghash_ce_setkey(&c->gh, h);
	bc_wipe(h, sizeof(h));
	return 0;
}

/* Out of line: it spills round keys and H powers, which the callers then
 * burn (bc_burn_stack). */
static __attribute__((noinline)) void gcm_sm4_ce_crypt(const struct gcm_sm4_ce_ctx *c, int dec, const uint8_t *iv,
						      size_t ivlen, const uint8_t *ad, size_t adlen, const uint8_t *src,
						      uint8_t *dst, size_t len, uint8_t full[16])
{
	struct bc_sm4_ce_regs r;

	bc_sm4_ce_load(&r, c->sm4.rk);
	bc_gcm_ce_crypt(&r, bc_sm4_ce_crypt4, bc_sm4_ce_crypt1, &c->gh, dec, iv, ivlen, ad, adlen, src, dst, len, full);
}

static void gcm_sm4_ce_encrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			       const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag, size_t taglen)
{
	uint8_t full[16];

	gcm_sm4_ce_crypt(ctx, 0, iv, ivlen, ad, adlen, src, dst, len, full);
	bc_burn_stack();
	bc_gcm_ce_finish_enc(full, tag, taglen);
}

static int gcm_sm4_ce_decrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			      const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag, size_t taglen)
{
	uint8_t full[16];

	gcm_sm4_ce_crypt(ctx, 1, iv, ivlen, ad, adlen, src, dst, len, full);
	bc_burn_stack();
	return bc_gcm_ce_finish_dec(full, tag, taglen, dst, len);
}

const struct bc_aead_alg bc_gcm_sm4_ce = {
	.name = "gcm(sm4)",
	.driver = "gcm-sm4-ce",
	.priority = 400,
	.cpu = BC_CPU_ARM_SM4 | BC_CPU_ARM_PMULL,
	.min_keysize = 16,
	.max_keysize = 16,
	.ivsize = 12,
	.maxauthsize = 16,
	.ctxsize = sizeof(struct gcm_sm4_ce_ctx),
	.setkey = gcm_sm4_ce_setkey,
	.encrypt = gcm_sm4_ce_encrypt,
	.decrypt = gcm_sm4_ce_decrypt,
};
