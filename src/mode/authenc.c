/* blockcrypt: the authenc(M,E) and authencesn(M,E) templates, encrypt-then-MAC over any MAC and skcipher (Linux crypto/authenc.c, authencesn.c).
 * RFC 4303 (ESP) with RFC 3602 / RFC 4868 ciphers and MACs: tag = MAC(assoc || ciphertext); ESN moves seq_hi behind the text. */
#include "mode.h"

/* The context: header, the MAC's context, then the cipher mode's. The
 * MAC's running state lives on each operation's stack, so one keyed tfm
 * serves many threads, as every aead does. */
struct authenc_ctx {
	const struct bc_shash_alg *mac;
	const struct bc_skcipher_alg *enc;
	size_t enc_off;
};
#define MAC_OFF bc_ctx_round(sizeof(struct authenc_ctx))

static const void *mac_ctx(const struct authenc_ctx *t)
{
	return bc_ctx_at(t, MAC_OFF);
}
static const void *enc_ctx(const struct authenc_ctx *t)
{
	return bc_ctx_at(t, t->enc_off);
}

static void authenc_init(void *ctx, const struct bc_aead_alg *self)
{
	struct authenc_ctx *t = ctx;

	t->mac = self->hash;
	t->enc = self->inner;
	t->enc_off = MAC_OFF + bc_ctx_round(self->hash->ctxsize);
	if (self->hash->init_tfm)
		self->hash->init_tfm(bc_ctx_at(ctx, MAC_OFF), self->hash);
	bc_init_inner(self->inner, bc_ctx_at(ctx, t->enc_off));
}

/* crypto_authenc_extractkeys: struct rtattr { u16 rta_len, rta_type } in
 * host byte order, rta_type CRYPTO_AUTHENC_KEYA_PARAM (1), whose payload is
 * exactly the be32 enckeylen; then the MAC key, then the last enckeylen
 * bytes, the cipher key. Anything else is -EINVAL. The cipher key goes in
 * first: its setkey is the only one that can refuse (the MAC takes any
 * length), so a refused blob changes nothing. */
static int authenc_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	const struct authenc_ctx *t = ctx;
	uint16_t rta_len, rta_type;
	size_t enckeylen, authkeylen;
	int err;

	if (keylen < 4)
		return -EINVAL;
	memcpy(&rta_len, key, 2);
	memcpy(&rta_type, key + 2, 2);
	if (rta_len != 8 || rta_len > keylen || rta_type != 1)
		return -EINVAL;
	enckeylen = bc_load_be32(key + 4);
	key += 8;
	keylen -= 8;
	if (keylen < enckeylen)
		return -EINVAL;
	authkeylen = keylen - enckeylen;
	err = t->enc->setkey(bc_ctx_at(ctx, t->enc_off), key + authkeylen, enckeylen, 0);
	if (err)
		return err;
	return t->mac->setkey(bc_ctx_at(ctx, MAC_OFF), key, authkeylen);
}

/* MAC(assoc || text) into out (the MAC's full digest). authencesn: the
 * associated data is SPI || seq_hi || seq_lo || ..., and the MAC covers
 * SPI || seq_lo || ... || text || seq_hi, the ESN ICV of RFC 4303 2.2.1. */
static void authenc_mac(const struct authenc_ctx *t, int esn, const uint8_t *ad, size_t adlen, const uint8_t *text,
			size_t len, uint8_t *out)
{
	_Alignas(BC_CTX_ALIGN) uint8_t desc[BC_DESC_MAX];
	const struct bc_shash_alg *m = t->mac;

	m->init(mac_ctx(t), desc);
	if (esn) {
		m->update(mac_ctx(t), desc, ad, 4);
		m->update(mac_ctx(t), desc, ad + 8, adlen - 8);
	} else {
		m->update(mac_ctx(t), desc, ad, adlen);
	}
	m->update(mac_ctx(t), desc, text, len);
	if (esn)
		m->update(mac_ctx(t), desc, ad + 4, 4);
	m->final(mac_ctx(t), desc, out);
	bc_wipe(desc, m->descsize);
}

/* The cipher runs on a copy of the IV: the caller's stays as it was (the
 * operations take it const), where the kernel leaves req->iv undefined. */
static void crypt_encrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			  const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag, size_t taglen, int esn)
{
	const struct authenc_ctx *t = ctx;
	uint8_t ivbuf[BC_BLOCK], full[BC_MAX_AUTHSIZE];

	memcpy(ivbuf, iv, ivlen);
	t->enc->encrypt(enc_ctx(t), ivbuf, src, dst, len);
	if (taglen) {
		authenc_mac(t, esn, ad, adlen, dst, len, full);
		memcpy(tag, full, taglen);
		bc_wipe(full, sizeof(full));
	}
}

/* The tag is checked before anything is decrypted (bc_memneq reads every
 * byte), so a forgery releases no plaintext: dst is only zero-filled. */
static int crypt_decrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			 const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag, size_t taglen, int esn)
{
	const struct authenc_ctx *t = ctx;
	uint8_t ivbuf[BC_BLOCK], full[BC_MAX_AUTHSIZE];
	int bad = 0;

	if (taglen) {
		authenc_mac(t, esn, ad, adlen, src, len, full);
		bad = bc_memneq(full, tag, taglen);
		bc_wipe(full, sizeof(full));
	}
	if (bad) {
		memset(dst, 0, len);
		return -EBADMSG;
	}
	memcpy(ivbuf, iv, ivlen);
	return t->enc->decrypt(enc_ctx(t), ivbuf, src, dst, len);
}

static void authenc_encrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			    const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag, size_t taglen)
{
	crypt_encrypt(ctx, iv, ivlen, ad, adlen, src, dst, len, tag, taglen, 0);
}

static int authenc_decrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			   const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag, size_t taglen)
{
	return crypt_decrypt(ctx, iv, ivlen, ad, adlen, src, dst, len, tag, taglen, 0);
}

static void esn_encrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag, size_t taglen)
{
	crypt_encrypt(ctx, iv, ivlen, ad, adlen, src, dst, len, tag, taglen, 1);
}

static int esn_decrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
		       const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag, size_t taglen)
{
	return crypt_decrypt(ctx, iv, ivlen, ad, adlen, src, dst, len, tag, taglen, 1);
}

/* The cipher's own rules (cbc: whole blocks), its IV size, as the kernel's
 * skcipher would refuse the request. */
static int authenc_check(const struct bc_aead_alg *self, const uint8_t *iv, size_t ivlen, size_t adlen, size_t len)
{
	const struct bc_skcipher_alg *e = self->inner;

	(void)iv;
	(void)adlen;
	if (ivlen != e->ivsize || ivlen > BC_BLOCK || len < e->min_len || (len & (e->len_align - 1)))
		return -EINVAL;
	return 0;
}

/* authencesn moves the 4-byte seq_hi: the associated data holds at least SPI and seq_hi. */
static int esn_check(const struct bc_aead_alg *self, const uint8_t *iv, size_t ivlen, size_t adlen, size_t len)
{
	return adlen < 8 ? -EINVAL : authenc_check(self, iv, ivlen, adlen, len);
}

/* Any tag length up to the digest (the kernel's authenc has no rule of its own). */
static int authenc_authsize(size_t taglen)
{
	(void)taglen;
	return 0;
}

/* crypto_authenc_esn_setauthsize: 0, or at least the 4 bytes seq_hi passes through. */
static int esn_authsize(size_t taglen)
{
	return taglen > 0 && taglen < 4 ? -EINVAL : 0;
}

static void fill(struct bc_aead_alg *alg)
{
	alg->min_keysize = 8 + alg->inner->min_keysize;
	alg->max_keysize = BC_KEYSIZE_ANY;
	alg->ctxsize = MAC_OFF + bc_ctx_round(alg->hash->ctxsize) + alg->inner->ctxsize;
	alg->ivsize = alg->inner->ivsize;
	alg->maxauthsize = alg->hash->digestsize;
	alg->init = authenc_init;
	alg->setkey = authenc_setkey;
	alg->encrypt = authenc_encrypt;
	alg->decrypt = authenc_decrypt;
	alg->check = authenc_check;
	alg->setauthsize = authenc_authsize;
}

static void fill_esn(struct bc_aead_alg *alg)
{
	fill(alg);
	alg->encrypt = esn_encrypt;
	alg->decrypt = esn_decrypt;
	alg->check = esn_check;
	alg->setauthsize = esn_authsize;
}

const struct bc_template bc_tmpl_authenc = {
	.name = "authenc", .driver_name = "authenc", .type = BC_TYPE_AEAD, .args = BC_ARGS_AUTHENC,
	.fill_aead = fill,
};
const struct bc_template bc_tmpl_authencesn = {
	.name = "authencesn", .driver_name = "authencesn", .type = BC_TYPE_AEAD, .args = BC_ARGS_AUTHENC,
	.fill_aead = fill_esn,
};
