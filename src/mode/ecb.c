/* blockcrypt: the ecb template over any block cipher driver (Linux crypto/ecb.c).
 * NIST SP 800-38A section 6.1. */
#include "mode.h"

static void tmpl_init(void *ctx, const struct bc_skcipher_alg *self)
{
	((struct bc_cipher_tctx *)ctx)->cipher = self->cipher;
}

static int tmpl_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	const struct bc_cipher_tctx *t = ctx;

	(void)flags;
	return t->cipher->setkey(bc_tctx_cipher(ctx), key, keylen);
}

void bc_fill_skcipher_over_cipher(struct bc_skcipher_alg *alg)
{
	alg->min_keysize = alg->cipher->min_keysize;
	alg->max_keysize = alg->cipher->max_keysize;
	alg->ctxsize = BC_CIPHER_TCTX_OFF + alg->cipher->ctxsize;
	alg->init = tmpl_init;
	alg->setkey = tmpl_setkey;
}

/* The cipher driver takes all the blocks in one call: a multi-block driver
 * runs at full width and nothing here is per block. */
static int ecb_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_cipher_tctx *t = ctx;

	(void)iv;
	t->cipher->encrypt(bc_tctx_cipher(ctx), dst, src, len / BC_BLOCK);
	return 0;
}

static int ecb_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_cipher_tctx *t = ctx;

	(void)iv;
	t->cipher->decrypt(bc_tctx_cipher(ctx), dst, src, len / BC_BLOCK);
	return 0;
}

static void fill(struct bc_skcipher_alg *alg)
{
	bc_fill_skcipher_over_cipher(alg);
	alg->ivsize = 0;
	alg->blocksize = BC_BLOCK;
	alg->min_len = 0;
	alg->len_align = BC_BLOCK;
	alg->encrypt = ecb_encrypt;
	alg->decrypt = ecb_decrypt;
}

const struct bc_template bc_tmpl_ecb = {
	.name = "ecb", .driver_name = "ecb", .type = BC_TYPE_SKCIPHER, .args = BC_ARGS_CIPHER,
	.fill_skcipher = fill,
};
