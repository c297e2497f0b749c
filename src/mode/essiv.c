/* blockcrypt: the essiv template: cbc whose IV is the sector IV encrypted under a key hashed from the data key
 * (Linux crypto/essiv.c, "Encrypted Salt-Sector IV"); for SM4 the SM3 digest is cut to 16 bytes. */
#include "mode.h"

struct essiv_ctx {
	const struct bc_skcipher_alg *cbc;
	const struct bc_cipher_alg *cipher;
	const struct bc_shash_alg *hash;
	size_t cipher_off, saltlen;
};
#define CBC_OFF bc_ctx_round(sizeof(struct essiv_ctx))

static void essiv_init(void *ctx, const struct bc_skcipher_alg *self)
{
	struct essiv_ctx *t = ctx;

	t->cbc = self->inner;
	t->cipher = self->cipher;
	t->hash = self->hash;
	t->cipher_off = CBC_OFF + bc_ctx_round(self->inner->ctxsize);
	bc_init_inner(self->inner, bc_ctx_at(ctx, CBC_OFF));
	/* The salt is the whole digest where the cipher takes a key that long
	 * (SHA-256 -> AES-256), else its first max_keysize bytes (SM3 -> SM4). */
	t->saltlen = self->hash->digestsize < self->cipher->max_keysize ? self->hash->digestsize
									  : self->cipher->max_keysize;
}

/* The cbc key is checked first (the only thing that can be refused); the
 * salt key follows from it. The salt is as secret as the key: the hash
 * branches only on the (public) key length, and the salt goes through the
 * cipher's own constant-time key schedule. */
static int essiv_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	const struct essiv_ctx *t = ctx;
	_Alignas(BC_CTX_ALIGN) uint8_t desc[BC_DESC_MAX];
	uint8_t salt[64];
	int err = t->cbc->setkey(bc_ctx_at(ctx, CBC_OFF), key, keylen, flags);

	if (err)
		return err;
	t->hash->init(NULL, desc);
	t->hash->update(NULL, desc, key, keylen);
	t->hash->final(NULL, desc, salt);
	err = t->cipher->setkey(bc_ctx_at(ctx, t->cipher_off), salt, t->saltlen);
	bc_wipe(desc, sizeof(desc));
	bc_wipe(salt, sizeof(salt));
	return err;
}

static int essiv_crypt(const void *ctx, int enc, const uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct essiv_ctx *t = ctx;
	uint8_t civ[BC_BLOCK];

	/* the sector IV is public, its encryption under the salt is not: civ is wiped */
	t->cipher->encrypt(bc_ctx_at(ctx, t->cipher_off), civ, iv, 1);
	(enc ? t->cbc->encrypt : t->cbc->decrypt)(bc_ctx_at(ctx, CBC_OFF), civ, src, dst, len);
	bc_wipe(civ, sizeof(civ));
	return 0;
}

static int essiv_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return essiv_crypt(ctx, 1, iv, src, dst, len);
}

static int essiv_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return essiv_crypt(ctx, 0, iv, src, dst, len);
}

static void fill(struct bc_skcipher_alg *alg)
{
	alg->min_keysize = alg->inner->min_keysize;
	alg->max_keysize = alg->inner->max_keysize;
	alg->ctxsize = CBC_OFF + bc_ctx_round(alg->inner->ctxsize) + alg->cipher->ctxsize;
	alg->ivsize = BC_BLOCK;
	alg->blocksize = BC_BLOCK;
	alg->min_len = 0;
	alg->len_align = BC_BLOCK;
	alg->init = essiv_init;
	alg->setkey = essiv_setkey;
	alg->encrypt = essiv_encrypt;
	alg->decrypt = essiv_decrypt;
}

const struct bc_template bc_tmpl_essiv = {
	.name = "essiv", .driver_name = "essiv", .type = BC_TYPE_SKCIPHER, .args = BC_ARGS_ESSIV,
	.fill_skcipher = fill,
};
