/* blockcrypt: the ccm template, ccm_base(ctr(X),cbcmac(X)) over any ctr and cbcmac drivers (Linux crypto/ccm.c).
 * NIST SP 800-38C / RFC 3610: the kernel's 16-byte IV (iv[0] = L - 1, then the nonce), tags of 4..16 even bytes. */
#include "mode.h"

/* Tags of 4, 6, ..., 16 bytes (SP 800-38C A.1, the kernel's crypto_ccm_setauthsize). */
int bc_ccm_setauthsize(size_t taglen)
{
	return taglen >= 4 && taglen <= 16 && !(taglen & 1) ? 0 : -EINVAL;
}

/* The IV is the kernel's counter block: iv[0] = L - 1 with L (the size of
 * the length field) from 2 to 8, so the nonce has 15 - L bytes. The message
 * length must fit in L bytes: -EOVERFLOW otherwise, as the kernel's
 * set_msg_len answers. Associated data of any size_t length is encodable
 * (SP 800-38C A.2.2 goes to 2^64 bytes). */
int bc_ccm_check(const struct bc_aead_alg *self, const uint8_t *iv, size_t ivlen, size_t adlen, size_t len)
{
	unsigned l;

	(void)self;
	(void)adlen;
	if (ivlen != BC_BLOCK || iv[0] < 1 || iv[0] > 7)
		return -EINVAL;
	l = iv[0] + 1u;
	if (l < sizeof(uint64_t) && (uint64_t)len >> (8 * l))
		return -EOVERFLOW;
	return 0;
}

/* B0 (flags, nonce, message length), the counter block A0 whose keystream
 * masks the tag, and the encoded length of the associated data that starts
 * the MAC's second block: 0, 2, 6 or 10 bytes in hdr (SP 800-38C A.2.1-A.2.2).
 * The IV was checked by bc_ccm_check. */
size_t bc_ccm_format(const uint8_t iv[16], size_t adlen, size_t len, size_t taglen, uint8_t b0[16],
		     uint8_t a0[16], uint8_t hdr[BC_CCM_HDR_MAX])
{
	unsigned l = iv[0] + 1u;
	uint64_t n = len;

	memcpy(b0, iv, BC_BLOCK);
	b0[0] = (uint8_t)((adlen ? 0x40 : 0) | ((taglen - 2) / 2) << 3 | (l - 1));
	for (unsigned i = 0; i < l; i++, n >>= 8)
		b0[15 - i] = (uint8_t)n;
	memcpy(a0, iv, BC_BLOCK);
	memset(a0 + 16 - l, 0, l);   /* the kernel ignores what the caller left in the counter field */
	if (!adlen)
		return 0;
	if (adlen < 0xff00) {
		hdr[0] = (uint8_t)(adlen >> 8);
		hdr[1] = (uint8_t)adlen;
		return 2;
	}
	hdr[0] = 0xff;
	if ((uint64_t)adlen >> 32 == 0) {
		hdr[1] = 0xfe;
		bc_store_be32(hdr + 2, (uint32_t)adlen);
		return 6;
	}
	hdr[1] = 0xff;
	bc_store_be64(hdr + 2, (uint64_t)adlen);
	return 10;
}

/* ---- the template ------------------------------------------------------------------ */
struct ccm_ctx {
	const struct bc_skcipher_alg *ctr;
	const struct bc_shash_alg *mac;
	size_t mac_off;
};
#define CTR_OFF bc_ctx_round(sizeof(struct ccm_ctx))

static const void *ctr_ctx(const struct ccm_ctx *t)
{
	return bc_ctx_at(t, CTR_OFF);
}
static const void *mac_ctx(const struct ccm_ctx *t)
{
	return bc_ctx_at(t, t->mac_off);
}

static void ccm_init(void *ctx, const struct bc_aead_alg *self)
{
	struct ccm_ctx *t = ctx;

	t->ctr = self->inner;
	t->mac = self->hash;
	t->mac_off = CTR_OFF + bc_ctx_round(self->inner->ctxsize);
	bc_init_inner(self->inner, bc_ctx_at(ctx, CTR_OFF));
	if (self->hash->init_tfm)
		self->hash->init_tfm(bc_ctx_at(ctx, t->mac_off), self->hash);
}

/* Both inner drivers take the same key; the ctr's setkey checks it first,
 * so a refused key leaves both as they were. */
static int ccm_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	const struct ccm_ctx *t = ctx;
	int err = t->ctr->setkey(bc_ctx_at(ctx, CTR_OFF), key, keylen, 0);

	if (err)
		return err;
	return t->mac->setkey(bc_ctx_at(ctx, t->mac_off), key, keylen);
}

/* T = CBC-MAC(B0 || encoded a || A || 0-pad || P || 0-pad): cbcmac's own
 * zero padding of the last block is CCM's, so only the AD needs padding here. */
static void ccm_mac(const struct ccm_ctx *t, const uint8_t b0[16], const uint8_t *hdr, size_t hlen,
		    const uint8_t *ad, size_t adlen, const uint8_t *pt, size_t len, uint8_t mac[16])
{
	static const uint8_t zeros[BC_BLOCK];
	_Alignas(BC_CTX_ALIGN) uint8_t desc[BC_DESC_MAX];

	t->mac->init(mac_ctx(t), desc);
	t->mac->update(mac_ctx(t), desc, b0, BC_BLOCK);
	if (hlen) {
		t->mac->update(mac_ctx(t), desc, hdr, hlen);
		t->mac->update(mac_ctx(t), desc, ad, adlen);
		if ((hlen + adlen) % BC_BLOCK)
			t->mac->update(mac_ctx(t), desc, zeros, BC_BLOCK - (hlen + adlen) % BC_BLOCK);
	}
	t->mac->update(mac_ctx(t), desc, pt, len);
	t->mac->final(mac_ctx(t), desc, mac);
	bc_wipe(desc, t->mac->descsize);
}

/* S0 = E(A0) through the ctr driver, which leaves the counter at A1 for the text. */
static void ccm_s0(const struct ccm_ctx *t, uint8_t ctr[16], uint8_t s0[16])
{
	static const uint8_t zeros[BC_BLOCK];

	t->ctr->encrypt(ctr_ctx(t), ctr, zeros, s0, BC_BLOCK);
}

static void ccm_encrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag, size_t taglen)
{
	const struct ccm_ctx *t = ctx;
	uint8_t b0[BC_BLOCK], ctr[BC_BLOCK], hdr[BC_CCM_HDR_MAX], mac[BC_BLOCK], s0[BC_BLOCK];
	size_t hlen = bc_ccm_format(iv, adlen, len, taglen, b0, ctr, hdr);

	(void)ivlen;
	ccm_mac(t, b0, hdr, hlen, ad, adlen, src, len, mac);
	ccm_s0(t, ctr, s0);
	t->ctr->encrypt(ctr_ctx(t), ctr, src, dst, len);
	bc_xor(mac, mac, s0, BC_BLOCK);
	memcpy(tag, mac, taglen);
	bc_wipe(mac, sizeof(mac));
	bc_wipe(s0, sizeof(s0));
}

/* The MAC is over the plaintext, so the text is decrypted first; a tag that
 * does not verify zero-fills dst before the call returns, so no
 * unauthenticated plaintext is released. bc_memneq reads every byte; the
 * verdict itself is public. */
static int ccm_decrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
		       const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag, size_t taglen)
{
	const struct ccm_ctx *t = ctx;
	uint8_t b0[BC_BLOCK], ctr[BC_BLOCK], hdr[BC_CCM_HDR_MAX], mac[BC_BLOCK], s0[BC_BLOCK];
	size_t hlen = bc_ccm_format(iv, adlen, len, taglen, b0, ctr, hdr);
	int err = 0;

	(void)ivlen;
	ccm_s0(t, ctr, s0);
	t->ctr->decrypt(ctr_ctx(t), ctr, src, dst, len);
	ccm_mac(t, b0, hdr, hlen, ad, adlen, dst, len, mac);
	bc_xor(mac, mac, s0, BC_BLOCK);
	if (bc_memneq(mac, tag, taglen)) {
		memset(dst, 0, len);
		err = -EBADMSG;
	}
	bc_wipe(mac, sizeof(mac));   /* on a forgery, the right tag for its ciphertext */
	bc_wipe(s0, sizeof(s0));
	return err;
}

static void fill(struct bc_aead_alg *alg)
{
	alg->min_keysize = alg->inner->min_keysize;
	alg->max_keysize = alg->inner->max_keysize;
	alg->ctxsize = CTR_OFF + bc_ctx_round(alg->inner->ctxsize) + alg->hash->ctxsize;
	alg->ivsize = BC_BLOCK;
	alg->maxauthsize = BC_BLOCK;
	alg->init = ccm_init;
	alg->setkey = ccm_setkey;
	alg->encrypt = ccm_encrypt;
	alg->decrypt = ccm_decrypt;
	alg->setauthsize = bc_ccm_setauthsize;
	alg->check = bc_ccm_check;
}

const struct bc_template bc_tmpl_ccm = {
	.name = "ccm", .driver_name = "ccm_base", .type = BC_TYPE_AEAD, .args = BC_ARGS_CCM,
	.fill_aead = fill,
};
