/* blockcrypt: the ecb template over any block cipher driver (Linux crypto/ecb.c).
 * NIST SP 800-38A section 6.1. */
#include "mode.h"

static void tmpl_init(void *ctx, const struct bc_skcipher_alg *self)
{
	((struct bc_cipher_tctx *)ctx)->cipher = self->cipher;
}

/* A weak key (des, des3_ede) is refused before the cipher sees it, so the
 * previous key stays. */
static int tmpl_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	const struct bc_cipher_tctx *t = ctx;

	if (t->cipher->weak_key && !(flags & BC_ALLOW_WEAK_KEYS) && keylen >= t->cipher->min_keysize &&
	    keylen <= t->cipher->max_keysize && t->cipher->weak_key(key, keylen))
		return -EINVAL;
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
 * runs at full width and nothing here is per block. bs (16, or 8 for des
 * and des3_ede) is a constant in each caller. */
static inline int ecb_crypt(const void *ctx, const uint8_t *src, uint8_t *dst, size_t len, size_t bs, int enc)
{
	const struct bc_cipher_tctx *t = ctx;

	(enc ? t->cipher->encrypt : t->cipher->decrypt)(bc_tctx_cipher(ctx), dst, src, len / bs);
	return 0;
}

static int ecb_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	return ecb_crypt(ctx, src, dst, len, BC_BLOCK, 1);
}

static int ecb_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	return ecb_crypt(ctx, src, dst, len, BC_BLOCK, 0);
}

static int ecb8_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	return ecb_crypt(ctx, src, dst, len, 8, 1);
}

static int ecb8_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	return ecb_crypt(ctx, src, dst, len, 8, 0);
}

static void fill(struct bc_skcipher_alg *alg)
{
	int b8 = bc_cipher_blocksize(alg->cipher) == 8;

	bc_fill_skcipher_over_cipher(alg);
	alg->ivsize = 0;
	alg->blocksize = bc_cipher_blocksize(alg->cipher);
	alg->min_len = 0;
	alg->len_align = alg->blocksize;
	alg->encrypt = b8 ? ecb8_encrypt : ecb_encrypt;
	alg->decrypt = b8 ? ecb8_decrypt : ecb_decrypt;
}

const struct bc_template bc_tmpl_ecb = {
	.name = "ecb", .driver_name = "ecb", .type = BC_TYPE_SKCIPHER, .args = BC_ARGS_CIPHER,
	.fill_skcipher = fill, .any_block = 1,
};
