/* blockcrypt arm64: gcm(aes) with AES-CE and PMULL in one pass (driver gcm-aes-ce). CPU: AES and PMULL.
 * NIST SP 800-38D (GCM), FIPS-197 (AES); Linux crypto/gcm.c semantics. */
#include "aes_ce.h"
#include "gcm_ce.h"

struct gcm_aes_ce_ctx {
	struct bc_aes_ce_key aes;
	struct bc_ghash_ce_key gh;
};

static int gcm_aes_ce_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct gcm_aes_ce_ctx *c = ctx;
	struct bc_aes_ce_regs r;
	uint8_t h[16];

	if (!bc_aes_ce_keylen_ok(keylen))
		return -EINVAL;
	bc_aes_ce_expand(&c->aes, key, keylen);
	bc_aes_ce_load(&r, c->aes.rk, c->aes.rounds);
	vst1q_u8(h, bc_aes_ce_enc1(&r, vdupq_n_u8(0)));
	bc_ghash_ce_setkey(&c->gh, h);
	bc_wipe(h, sizeof(h));
	return 0;
}

/* Out of line: it spills round keys and H powers, which the callers then
 * burn (bc_burn_stack). */
static __attribute__((noinline)) void gcm_aes_ce_crypt(const struct gcm_aes_ce_ctx *c, int dec, const uint8_t *iv,
						      size_t ivlen, const uint8_t *ad, size_t adlen, const uint8_t *src,
						      uint8_t *dst, size_t len, uint8_t full[16])
{
	struct bc_aes_ce_regs r;

	bc_aes_ce_load(&r, c->aes.rk, c->aes.rounds);
	BC_AES_CE_PER_KEYSIZE(&r, bc_gcm_ce_crypt(&r, bc_aes_ce_enc4, bc_aes_ce_enc1, &c->gh, dec, iv, ivlen, ad, adlen,
						  src, dst, len, full));
}

static void gcm_aes_ce_encrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			       const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag, size_t taglen)
{
	uint8_t full[16];

	gcm_aes_ce_crypt(ctx, 0, iv, ivlen, ad, adlen, src, dst, len, full);
	bc_burn_stack();
	bc_gcm_ce_finish_enc(full, tag, taglen);
}

static int gcm_aes_ce_decrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			      const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag, size_t taglen)
{
	uint8_t full[16];

	gcm_aes_ce_crypt(ctx, 1, iv, ivlen, ad, adlen, src, dst, len, full);
	bc_burn_stack();
	return bc_gcm_ce_finish_dec(full, tag, taglen, dst, len);
}

const struct bc_aead_alg bc_gcm_aes_ce = {
	.name = "gcm(aes)",
	.driver = "gcm-aes-ce",
	.priority = 400,
	.cpu = BC_CPU_ARM_AES | BC_CPU_ARM_PMULL,
	.min_keysize = 16,
	.max_keysize = 32,
	.ivsize = 12,
	.maxauthsize = 16,
	.ctxsize = sizeof(struct gcm_aes_ce_ctx),
	.setkey = gcm_aes_ce_setkey,
	.encrypt = gcm_aes_ce_encrypt,
	.decrypt = gcm_aes_ce_decrypt,
};
