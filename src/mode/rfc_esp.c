/* blockcrypt: the IPsec ESP wrappers rfc3686(ctr(X)), rfc4106(gcm(X)), rfc4543(gcm(X)), rfc4309(ccm(X)) (Linux crypto/ctr.c, gcm.c, ccm.c).
 * RFC 3686 (AES-CTR), RFC 4106 (GCM), RFC 4543 (GMAC), RFC 4309 (CCM): a salt from the key's end, an 8-byte IV per packet. */
#include "mode.h"

/* Each wrapper hands a packet to the algorithm it wraps in one call, on the
 * caller's buffers: the fused GCM drivers serve it at their own speed. The
 * context is the salt, then the inner algorithm's context. */
struct esp_ctx {
	union {
		const struct bc_skcipher_alg *ctr;
		const struct bc_aead_alg *aead;
	} in;
	uint8_t salt[4];            /* rfc3686's nonce; rfc4309 uses 3 bytes */
};
#define INNER_OFF bc_ctx_round(sizeof(struct esp_ctx))
#define ESP_IV 8

static const void *inner_ctx(const void *ctx)
{
	return bc_ctx_at(ctx, INNER_OFF);
}

/* ---- rfc3686(ctr(X)): counter block = nonce || IV || 32-bit 1 ---- */
static void rfc3686_init(void *ctx, const struct bc_skcipher_alg *self)
{
	((struct esp_ctx *)ctx)->in.ctr = self->inner;
	bc_init_inner(self->inner, bc_ctx_at(ctx, INNER_OFF));
}

static int rfc3686_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	struct esp_ctx *t = ctx;
	int err;

	if (keylen < 4)
		return -EINVAL;
	err = t->in.ctr->setkey(bc_ctx_at(ctx, INNER_OFF), key, keylen - 4, flags);
	if (!err)
		memcpy(t->salt, key + keylen - 4, 4);
	return err;
}

/* The caller's IV stays as it was, as the kernel's rfc3686 leaves req->iv:
 * the counter block is the wrapper's own. */
static int rfc3686_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct esp_ctx *t = ctx;
	uint8_t blk[BC_BLOCK];

	memcpy(blk, t->salt, 4);
	memcpy(blk + 4, iv, ESP_IV);
	bc_store_be32(blk + 12, 1);
	return t->in.ctr->encrypt(inner_ctx(ctx), blk, src, dst, len);
}

static void rfc3686_fill(struct bc_skcipher_alg *alg)
{
	alg->min_keysize = alg->inner->min_keysize + 4;
	alg->max_keysize = alg->inner->max_keysize + 4;
	alg->ctxsize = INNER_OFF + alg->inner->ctxsize;
	alg->ivsize = ESP_IV;
	alg->blocksize = 1;
	alg->min_len = 0;
	alg->len_align = 1;
	alg->init = rfc3686_init;
	alg->setkey = rfc3686_setkey;
	alg->encrypt = rfc3686_crypt;
	alg->decrypt = rfc3686_crypt;
}

const struct bc_template bc_tmpl_rfc3686 = {
	.name = "rfc3686", .driver_name = "rfc3686", .type = BC_TYPE_SKCIPHER, .args = BC_ARGS_SKCIPHER,
	.over = "ctr", .fill_skcipher = rfc3686_fill,
};

/* ---- the AEAD wrappers ---- */
static void esp_aead_init(void *ctx, const struct bc_aead_alg *self)
{
	((struct esp_ctx *)ctx)->in.aead = self->aead;
	if (self->aead->init)
		self->aead->init(bc_ctx_at(ctx, INNER_OFF), self->aead);
}

static int esp_aead_setkey(void *ctx, const uint8_t *key, size_t keylen, size_t saltlen)
{
	struct esp_ctx *t = ctx;
	int err;

	if (keylen < saltlen)
		return -EINVAL;
	err = t->in.aead->setkey(bc_ctx_at(ctx, INNER_OFF), key, keylen - saltlen);
	if (!err)
		memcpy(t->salt, key + keylen - saltlen, saltlen);
	return err;
}

static int salt4_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	return esp_aead_setkey(ctx, key, keylen, 4);
}

static int salt3_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	return esp_aead_setkey(ctx, key, keylen, 3);
}

/* crypto_ipsec_check_assoclen: ESP's associated data is SPI and sequence
 * number (8 bytes, or 12 with extended sequence numbers), then the IV. */
static int esp_check(const struct bc_aead_alg *self, const uint8_t *iv, size_t ivlen, size_t adlen, size_t len)
{
	(void)self;
	(void)iv;
	(void)len;
	return ivlen == ESP_IV && (adlen == 16 || adlen == 20) ? 0 : -EINVAL;
}

/* ESP's rules and GCM's length limits: the text (rfc4106), or the text as
 * part of the AAD (rfc4543). */
static int rfc4106_check(const struct bc_aead_alg *self, const uint8_t *iv, size_t ivlen, size_t adlen, size_t len)
{
	return bc_gcm_too_long(12, adlen, len) ? -EINVAL : esp_check(self, iv, ivlen, adlen, len);
}

static int rfc4543_check(const struct bc_aead_alg *self, const uint8_t *iv, size_t ivlen, size_t adlen, size_t len)
{
	return bc_gcm_too_long(12, (uint64_t)adlen + len, 0) ? -EINVAL : esp_check(self, iv, ivlen, adlen, len);
}

static int esp_authsize(size_t taglen)
{
	return taglen == 8 || taglen == 12 || taglen == 16 ? 0 : -EINVAL;
}

/* The GCM nonce of rfc4106 and rfc4543: salt || IV. */
static const uint8_t *gcm_nonce(const struct esp_ctx *t, const uint8_t *iv, uint8_t nonce[12])
{
	memcpy(nonce, t->salt, 4);
	memcpy(nonce + 4, iv, ESP_IV);
	return nonce;
}

/* rfc4106: the AAD is what precedes the IV copy at the end of the
 * associated data (which the kernel skips, not authenticates). */
static void rfc4106_encrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			    const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag, size_t taglen)
{
	const struct esp_ctx *t = ctx;
	uint8_t nonce[12];

	(void)ivlen;
	t->in.aead->encrypt(inner_ctx(ctx), gcm_nonce(t, iv, nonce), sizeof(nonce), ad, adlen - ESP_IV, src, dst, len, tag, taglen);
}

static int rfc4106_decrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			   const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag, size_t taglen)
{
	const struct esp_ctx *t = ctx;
	uint8_t nonce[12];

	(void)ivlen;
	return t->in.aead->decrypt(inner_ctx(ctx), gcm_nonce(t, iv, nonce), sizeof(nonce), ad, adlen - ESP_IV, src, dst, len, tag,
				   taglen);
}

/* rfc4543: GMAC over the whole associated data (the IV copy included) and
 * the payload, which passes through unencrypted. The front end gives both
 * as one buffer (joined_ad), so the inner GCM sees one AAD and no text. */
static void rfc4543_encrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			    const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag, size_t taglen)
{
	const struct esp_ctx *t = ctx;
	uint8_t nonce[12];

	(void)ivlen;
	t->in.aead->encrypt(inner_ctx(ctx), gcm_nonce(t, iv, nonce), sizeof(nonce), ad, adlen + len, src, dst, 0, tag, taglen);
	if (dst != src && len)
		memmove(dst, src, len);
}

static int rfc4543_decrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			   const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag, size_t taglen)
{
	const struct esp_ctx *t = ctx;
	uint8_t nonce[12];
	int err;

	(void)ivlen;
	err = t->in.aead->decrypt(inner_ctx(ctx), gcm_nonce(t, iv, nonce), sizeof(nonce), ad, adlen + len, src, dst, 0, tag, taglen);
	if (err)
		memset(dst, 0, len);
	else if (dst != src && len)
		memmove(dst, src, len);
	return err;
}

static int rfc4543_authsize(size_t taglen)
{
	return taglen == 16 ? 0 : -EINVAL;
}

/* rfc4309: the CCM IV is L' = 3 (a 4-byte length field), the 3-byte salt,
 * the packet's 8-byte IV, and the counter bytes at zero. */
static const uint8_t *rfc4309_iv(const struct esp_ctx *t, const uint8_t *iv, uint8_t ccm_iv[16])
{
	memset(ccm_iv, 0, 16);
	ccm_iv[0] = 3;
	memcpy(ccm_iv + 1, t->salt, 3);
	memcpy(ccm_iv + 4, iv, ESP_IV);
	return ccm_iv;
}

static void rfc4309_encrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			    const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag, size_t taglen)
{
	const struct esp_ctx *t = ctx;
	uint8_t ccm_iv[16];

	(void)ivlen;
	t->in.aead->encrypt(inner_ctx(ctx), rfc4309_iv(t, iv, ccm_iv), sizeof(ccm_iv), ad, adlen - ESP_IV, src, dst, len, tag, taglen);
}

static int rfc4309_decrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			   const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag, size_t taglen)
{
	const struct esp_ctx *t = ctx;
	uint8_t ccm_iv[16];

	(void)ivlen;
	return t->in.aead->decrypt(inner_ctx(ctx), rfc4309_iv(t, iv, ccm_iv), sizeof(ccm_iv), ad, adlen - ESP_IV, src, dst, len, tag,
				   taglen);
}

/* CCM with L = 4 counts the message length in 32 bits. */
static int rfc4309_check(const struct bc_aead_alg *self, const uint8_t *iv, size_t ivlen, size_t adlen, size_t len)
{
	return (uint64_t)len > UINT32_MAX ? -EINVAL : esp_check(self, iv, ivlen, adlen, len);
}

static void esp_fill(struct bc_aead_alg *alg, size_t saltlen)
{
	alg->min_keysize = alg->aead->min_keysize + (unsigned)saltlen;
	alg->max_keysize = alg->aead->max_keysize + (unsigned)saltlen;
	alg->ctxsize = INNER_OFF + alg->aead->ctxsize;
	alg->ivsize = ESP_IV;
	alg->maxauthsize = alg->aead->maxauthsize;
	alg->init = esp_aead_init;
	alg->setkey = saltlen == 4 ? salt4_setkey : salt3_setkey;
	alg->check = esp_check;
	alg->setauthsize = esp_authsize;
}

static void rfc4106_fill(struct bc_aead_alg *alg)
{
	esp_fill(alg, 4);
	alg->encrypt = rfc4106_encrypt;
	alg->decrypt = rfc4106_decrypt;
	alg->check = rfc4106_check;
}

static void rfc4543_fill(struct bc_aead_alg *alg)
{
	esp_fill(alg, 4);
	alg->encrypt = rfc4543_encrypt;
	alg->decrypt = rfc4543_decrypt;
	alg->setauthsize = rfc4543_authsize;
	alg->check = rfc4543_check;
	alg->joined_ad = 1;
}

static void rfc4309_fill(struct bc_aead_alg *alg)
{
	esp_fill(alg, 3);
	alg->encrypt = rfc4309_encrypt;
	alg->decrypt = rfc4309_decrypt;
	alg->check = rfc4309_check;
}

const struct bc_template bc_tmpl_rfc4106 = {
	.name = "rfc4106", .driver_name = "rfc4106", .type = BC_TYPE_AEAD, .args = BC_ARGS_AEAD,
	.over = "gcm", .fill_aead = rfc4106_fill,
};
const struct bc_template bc_tmpl_rfc4543 = {
	.name = "rfc4543", .driver_name = "rfc4543", .type = BC_TYPE_AEAD, .args = BC_ARGS_AEAD,
	.over = "gcm", .fill_aead = rfc4543_fill,
};
const struct bc_template bc_tmpl_rfc4309 = {
	.name = "rfc4309", .driver_name = "rfc4309", .type = BC_TYPE_AEAD, .args = BC_ARGS_AEAD,
	.over = "ccm", .fill_aead = rfc4309_fill,
};
