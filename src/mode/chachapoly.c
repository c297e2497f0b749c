/* blockcrypt: the AEAD templates rfc7539(chacha20,poly1305) and rfc7539esp(chacha20,poly1305) (Linux crypto/chacha20poly1305.c).
 * RFC 8439 section 2.8 (AEAD_CHACHA20_POLY1305), RFC 7634 (its use in IPsec ESP: a 4-byte salt, an 8-byte IV). */
#include "mode.h"
#include "../cipher/chacha.h"
#include "../hash/poly1305.h"

/* The context: the chacha20 skcipher under the template and the ESP salt,
 * then the skcipher's own context. */
struct cp_ctx {
	const struct bc_skcipher_alg *chacha;
	uint8_t salt[4];
	int poly_wide;   /* bc_poly1305_wide(), asked once at allocation */
};
#define CP_OFF bc_ctx_round(sizeof(struct cp_ctx))
#define CP_SALT 4
#define ESP_IV 8
/* The text goes through the skcipher and Poly1305 in pieces this long
 * (whole ChaCha blocks), so each piece is still in cache for the second pass. */
#define CP_PIECE 4096

static const void *chacha_ctx(const void *ctx)
{
	return bc_ctx_at(ctx, CP_OFF);
}

static void cp_init(void *ctx, const struct bc_aead_alg *self)
{
	((struct cp_ctx *)ctx)->chacha = self->inner;
	((struct cp_ctx *)ctx)->poly_wide = bc_poly1305_wide();
	bc_init_inner(self->inner, bc_ctx_at(ctx, CP_OFF));
}

static int cp_setkey_salt(void *ctx, const uint8_t *key, size_t keylen, size_t saltlen)
{
	struct cp_ctx *t = ctx;
	int err;

	if (keylen != BC_CHACHA_KEY + saltlen)
		return -EINVAL;
	err = t->chacha->setkey(bc_ctx_at(ctx, CP_OFF), key, BC_CHACHA_KEY, 0);
	if (!err && saltlen)
		memcpy(t->salt, key + BC_CHACHA_KEY, saltlen);
	return err;
}

static int rfc7539_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	return cp_setkey_salt(ctx, key, keylen, 0);
}

static int rfc7539esp_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	return cp_setkey_salt(ctx, key, keylen, CP_SALT);
}

/* The kernel's tag is Poly1305's 16 bytes, never shortened. */
static int cp_authsize(size_t taglen)
{
	return taglen == BC_POLY1305_TAG ? 0 : -EINVAL;
}

static int rfc7539_check(const struct bc_aead_alg *self, const uint8_t *iv, size_t ivlen, size_t adlen, size_t len)
{
	(void)self;
	(void)iv;
	(void)adlen;
	(void)len;
	return ivlen == 12 ? 0 : -EINVAL;
}

/* ESP hands the IV over at the end of the associated data too, where it is
 * not authenticated: the associated data holds at least those 8 bytes. */
static int rfc7539esp_check(const struct bc_aead_alg *self, const uint8_t *iv, size_t ivlen, size_t adlen, size_t len)
{
	(void)self;
	(void)iv;
	(void)len;
	return ivlen == ESP_IV && adlen >= ESP_IV ? 0 : -EINVAL;
}

/* The chacha20 IV of block 0 (the one-time Poly1305 key): counter 0, then
 * the nonce, the salt first for ESP. */
static void cp_iv(const struct cp_ctx *t, const uint8_t *iv, size_t ivlen, uint8_t civ[BC_CHACHA_IV])
{
	size_t saltlen = 12 - ivlen;

	memset(civ, 0, 4);
	memcpy(civ + 4, t->salt, saltlen);
	memcpy(civ + 4 + saltlen, iv, ivlen);
}

/* Poly1305 keyed by block 0's keystream, over the AAD. */
static void cp_keyed(const struct cp_ctx *t, const uint8_t blk[BC_POLY1305_KEY], const uint8_t *ad, size_t adlen,
		     struct bc_poly1305 *p)
{
	bc_poly1305_init(p, blk, t->poly_wide);
	bc_poly1305_update(p, ad, adlen);
	bc_poly1305_pad16(p);
}

static void cp_start(const struct cp_ctx *t, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
		     uint8_t civ[BC_CHACHA_IV], struct bc_poly1305 *p)
{
	static const uint8_t zero[BC_CHACHA_BLOCK];
	uint8_t blk[BC_CHACHA_BLOCK];

	cp_iv(t, iv, ivlen, civ);
	t->chacha->encrypt(chacha_ctx(t), civ, zero, blk, sizeof(blk));
	cp_keyed(t, blk, ad, adlen, p);
	bc_wipe(blk, sizeof(blk));
}

static void cp_finish(struct bc_poly1305 *p, size_t adlen, size_t len, uint8_t tag[BC_POLY1305_TAG])
{
	uint8_t lens[16];

	bc_poly1305_pad16(p);
	bc_store_le64(lens, adlen);
	bc_store_le64(lens + 8, len);
	bc_poly1305_update(p, lens, sizeof(lens));
	bc_poly1305_final(p, tag);
}

/* The text's keystream from block 1 on, piece by piece, and Poly1305 (p
 * not NULL: encryption) over each ciphertext piece just written. */
static void cp_crypt(const struct cp_ctx *t, uint8_t civ[BC_CHACHA_IV], const uint8_t *src, uint8_t *dst, size_t len,
		     struct bc_poly1305 *p)
{
	for (size_t off = 0; off < len; off += CP_PIECE) {
		size_t n = len - off < CP_PIECE ? len - off : CP_PIECE;

		bc_store_le32(civ, (uint32_t)(1 + off / BC_CHACHA_BLOCK));
		t->chacha->encrypt(chacha_ctx(t), civ, src + off, dst + off, n);
		if (p)
			bc_poly1305_update(p, dst + off, n);
	}
}

/* A text of one piece goes with block 0 in one call, through a buffer: a
 * many-block chacha20 driver makes them in the same passes, where block 0
 * alone would cost a call of its own. A longer one would pay the copies
 * over more than it saves. */
static void cp_encrypt_ad(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			  const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag)
{
	const struct cp_ctx *t = ctx;
	uint8_t civ[BC_CHACHA_IV], buf[CP_PIECE];
	struct bc_poly1305 p;

	if (len > CP_PIECE - BC_CHACHA_BLOCK) {
		cp_start(t, iv, ivlen, ad, adlen, civ, &p);
		cp_crypt(t, civ, src, dst, len, &p);
	} else {
		cp_iv(t, iv, ivlen, civ);
		memset(buf, 0, BC_CHACHA_BLOCK);
		memcpy(buf + BC_CHACHA_BLOCK, src, len);
		t->chacha->encrypt(chacha_ctx(t), civ, buf, buf, BC_CHACHA_BLOCK + len);
		cp_keyed(t, buf, ad, adlen, &p);
		bc_wipe(buf, BC_CHACHA_BLOCK);
		memcpy(dst, buf + BC_CHACHA_BLOCK, len);
		bc_poly1305_update(&p, dst, len);
	}
	cp_finish(&p, adlen, len, tag);
}

/* Poly1305 over the ciphertext first: a forged message decrypts to
 * nothing, and dst is zero-filled, as the library's other AEADs leave it. */
static int cp_decrypt_ad(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			 const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag)
{
	uint8_t civ[BC_CHACHA_IV], full[BC_POLY1305_TAG];
	struct bc_poly1305 p;
	int bad;

	cp_start(ctx, iv, ivlen, ad, adlen, civ, &p);
	for (size_t off = 0; off < len; off += CP_PIECE)
		bc_poly1305_update(&p, src + off, len - off < CP_PIECE ? len - off : CP_PIECE);
	cp_finish(&p, adlen, len, full);
	bad = bc_memneq(full, tag, BC_POLY1305_TAG);
	bc_wipe(full, sizeof(full));
	if (bad) {
		memset(dst, 0, len);
		return -EBADMSG;
	}
	cp_crypt(ctx, civ, src, dst, len, NULL);
	return 0;
}

static void rfc7539_encrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			    const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag, size_t taglen)
{
	(void)taglen;
	cp_encrypt_ad(ctx, iv, ivlen, ad, adlen, src, dst, len, tag);
}

static int rfc7539_decrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			   const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag, size_t taglen)
{
	(void)taglen;
	return cp_decrypt_ad(ctx, iv, ivlen, ad, adlen, src, dst, len, tag);
}

/* ESP: the last 8 bytes of the associated data, the IV's copy, are left out. */
static void rfc7539esp_encrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			       const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag, size_t taglen)
{
	(void)taglen;
	cp_encrypt_ad(ctx, iv, ivlen, ad, adlen - ESP_IV, src, dst, len, tag);
}

static int rfc7539esp_decrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			      const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag, size_t taglen)
{
	(void)taglen;
	return cp_decrypt_ad(ctx, iv, ivlen, ad, adlen - ESP_IV, src, dst, len, tag);
}

static void cp_fill(struct bc_aead_alg *alg, size_t saltlen)
{
	alg->min_keysize = alg->max_keysize = (unsigned)(BC_CHACHA_KEY + saltlen);
	alg->ctxsize = CP_OFF + alg->inner->ctxsize;
	alg->maxauthsize = BC_POLY1305_TAG;
	alg->init = cp_init;
	alg->setauthsize = cp_authsize;
}

static void rfc7539_fill(struct bc_aead_alg *alg)
{
	cp_fill(alg, 0);
	alg->ivsize = 12;
	alg->setkey = rfc7539_setkey;
	alg->check = rfc7539_check;
	alg->encrypt = rfc7539_encrypt;
	alg->decrypt = rfc7539_decrypt;
}

static void rfc7539esp_fill(struct bc_aead_alg *alg)
{
	cp_fill(alg, CP_SALT);
	alg->ivsize = ESP_IV;
	alg->setkey = rfc7539esp_setkey;
	alg->check = rfc7539esp_check;
	alg->encrypt = rfc7539esp_encrypt;
	alg->decrypt = rfc7539esp_decrypt;
}

const struct bc_template bc_tmpl_rfc7539 = {
	.name = "rfc7539", .driver_name = "rfc7539", .type = BC_TYPE_AEAD, .args = BC_ARGS_CHACHAPOLY,
	.fill_aead = rfc7539_fill,
};
const struct bc_template bc_tmpl_rfc7539esp = {
	.name = "rfc7539esp", .driver_name = "rfc7539esp", .type = BC_TYPE_AEAD, .args = BC_ARGS_CHACHAPOLY,
	.fill_aead = rfc7539esp_fill,
};
