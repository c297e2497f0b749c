/* blockcrypt: self-tests of the templates over whole algorithms where no published vector exists for the name.
 * Each instance is checked against its definition (RFC 3686, 4106, 4543, 4309; authenc as Linux crypto/authenc.c;
 * lrw as the IEEE P1619 draft) over its parts. */
#include <stdlib.h>

#include "selftest.h"

/* The parts were handed out by the registry only after their own known
 * answers passed, so agreeing with them on a few messages ties the
 * instance to those answers: authenc(hmac(sha384),cbc(sm4)) has no vector of
 * its own, hmac(sha384) and cbc(sm4) have. */
#define TEXT 80

static void ctx_del(void *p, size_t size)
{
	if (p)
		bc_wipe(p, size);
	free(p);
}

static void pattern(uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seed + i * 29 + (i >> 3));
}

/* A context of the inner skcipher, initialised as the API does. */
static void *inner_new(const struct bc_skcipher_alg *inner)
{
	void *in = bc_selftest_ctx_new(inner->ctxsize);

	if (in && inner->init)
		inner->init(in, inner);
	return in;
}

/* The instance encrypts pt to ref and decrypts it back (TEXT bytes). */
static int agrees(const struct bc_skcipher_alg *a, void *ctx, uint8_t *iv, const uint8_t *pt, const uint8_t *ref)
{
	uint8_t ct[TEXT];
	int err;

	a->encrypt(ctx, iv, pt, ct, TEXT);
	err = memcmp(ct, ref, TEXT) ? -EBADMSG : 0;
	a->decrypt(ctx, iv, ct, ct, TEXT);
	if (!err && memcmp(ct, pt, TEXT))
		err = -EBADMSG;
	return err;
}

/* rfc3686: E over the inner ctr from nonce || IV || 1. */
static int rfc3686_definition(const struct bc_skcipher_alg *a, void *ctx)
{
	const struct bc_skcipher_alg *ctr = a->inner;
	uint8_t key[BC_MAX_KEY + 4], iv[8], blk[BC_BLOCK], pt[TEXT], ref[TEXT];
	size_t kl = ctr->min_keysize;
	void *in = inner_new(ctr);
	int err = -ENOMEM;

	if (!in)
		return err;
	pattern(key, kl + 4, 1);
	pattern(iv, sizeof(iv), 2);
	pattern(pt, sizeof(pt), 3);
	err = -EINVAL;
	if (a->setkey(ctx, key, kl + 4, 0) || ctr->setkey(in, key, kl, 0))
		goto out;
	memcpy(blk, key + kl, 4);
	memcpy(blk + 4, iv, 8);
	bc_store_be32(blk + 12, 1);
	ctr->encrypt(in, blk, pt, ref, sizeof(pt));
	err = agrees(a, ctx, iv, pt, ref);
out:
	ctx_del(in, ctr->ctxsize);
	return err;
}

/* lrw: T = K2 (x) I computed bit by bit (the template uses tables of
 * K2 * x^j), C = E(P ^ T) ^ T through the inner ecb, from an index whose
 * low 64 bits carry within the message. */
static void lrw_mul(const uint8_t k2[16], const uint8_t idx[16], uint8_t t[16])
{
	uint8_t v[16];

	memcpy(v, k2, 16);
	memset(t, 0, 16);
	for (int bit = 0; bit < 128; bit++) {
		uint8_t on = (uint8_t)(0 - (idx[15 - bit / 8] >> (bit % 8) & 1)), top = (uint8_t)(0 - (v[0] >> 7));

		for (int i = 0; i < 16; i++)
			t[i] ^= v[i] & on;
		for (int i = 0; i < 15; i++)
			v[i] = (uint8_t)(v[i] << 1 | v[i + 1] >> 7);
		v[15] = (uint8_t)(v[15] << 1 ^ (top & 0x87));
	}
	bc_wipe(v, sizeof(v));
}

static int lrw_definition(const struct bc_skcipher_alg *a, void *ctx)
{
	const struct bc_skcipher_alg *ecb = a->inner;
	uint8_t key[BC_MAX_KEY + BC_BLOCK], iv[BC_BLOCK], idx[BC_BLOCK], t[BC_BLOCK], pt[TEXT], ref[TEXT];
	size_t kl = ecb->max_keysize;
	void *in = inner_new(ecb);
	int err = -ENOMEM;

	if (!in)
		return err;
	pattern(key, kl + BC_BLOCK, 7);
	memset(iv, 0, 8);
	memset(iv + 8, 0xff, 8);
	iv[15] = 0xfd;
	pattern(pt, sizeof(pt), 8);
	err = -EINVAL;
	if (a->setkey(ctx, key, kl + BC_BLOCK, 0) || ecb->setkey(in, key, kl, 0))
		goto out;
	memcpy(idx, iv, BC_BLOCK);
	for (size_t off = 0; off < TEXT; off += BC_BLOCK) {
		lrw_mul(key + kl, idx, t);
		bc_xor(ref + off, pt + off, t, BC_BLOCK);
		ecb->encrypt(in, NULL, ref + off, ref + off, BC_BLOCK);
		bc_xor(ref + off, ref + off, t, BC_BLOCK);
		for (int i = BC_BLOCK - 1; i >= 0 && ++idx[i] == 0; i--)
			;
	}
	err = agrees(a, ctx, iv, pt, ref);
out:
	bc_wipe(t, sizeof(t));
	ctx_del(in, ecb->ctxsize);
	return err;
}

/* rfc4106 / rfc4309: the inner AEAD under the salted nonce, on the
 * associated data without its IV copy; rfc4543: a GMAC over all of it and
 * the payload. */
static int esp_definition(const struct bc_aead_alg *a, void *ctx)
{
	const struct bc_aead_alg *g = a->aead;
	int gmac = !strncmp(a->name, "rfc4543(", 8), ccm = !strncmp(a->name, "rfc4309(", 8);
	size_t salt = ccm ? 3 : 4, kl = g->min_keysize, nlen = ccm ? 16 : 12, tl = BC_BLOCK;
	uint8_t key[BC_MAX_KEY + 4], iv[8], nonce[16] = { 0 }, buf[20 + TEXT], ct[TEXT], ref[TEXT];
	uint8_t tag[BC_BLOCK], reftag[BC_BLOCK];
	void *in = bc_selftest_ctx_new(g->ctxsize);
	int err = -ENOMEM;

	if (!in)
		return err;
	if (g->init)
		g->init(in, g);
	pattern(key, kl + salt, 4);
	pattern(iv, sizeof(iv), 5);
	pattern(buf, sizeof(buf), 6);                 /* 20 bytes of ad, then the payload */
	memcpy(buf + 12, iv, 8);
	err = -EINVAL;
	if (a->setkey(ctx, key, kl + salt) || g->setkey(in, key, kl))
		goto out;
	if (ccm) {
		nonce[0] = 3;
		memcpy(nonce + 1, key + kl, 3);
		memcpy(nonce + 4, iv, 8);
	} else {
		memcpy(nonce, key + kl, 4);
		memcpy(nonce + 4, iv, 8);
	}
	if (gmac) {
		g->encrypt(in, nonce, nlen, buf, sizeof(buf), buf, buf, 0, reftag, tl);   /* no text: never a NULL pointer */
		memcpy(ref, buf + 20, TEXT);
	} else {
		g->encrypt(in, nonce, nlen, buf, 12, buf + 20, ref, TEXT, reftag, tl);
	}
	a->encrypt(ctx, iv, 8, buf, 20, buf + 20, ct, TEXT, tag, tl);
	err = memcmp(ct, ref, TEXT) || memcmp(tag, reftag, tl) ? -EBADMSG : 0;
	if (!err && (a->decrypt(ctx, iv, 8, buf, 20, gmac ? buf + 20 : ct, ct, TEXT, tag, tl) ||
		     memcmp(ct, buf + 20, TEXT)))
		err = -EBADMSG;
out:
	ctx_del(in, g->ctxsize);
	return err;
}

/* authenc: the cipher mode over the text, then the MAC over assoc ||
 * ciphertext (authencesn: SPI || seq_lo || ... || ciphertext || seq_hi). */
static int authenc_definition(const struct bc_aead_alg *a, void *ctx)
{
	const struct bc_skcipher_alg *e = a->inner;
	const struct bc_shash_alg *m = a->hash;
	int esn = !strncmp(a->name, "authencesn(", 11);
	size_t el = e->max_keysize, ml = 2 * m->blocksize + 3, len = TEXT / 16 * 16, tl = a->maxauthsize;
	_Alignas(BC_CTX_ALIGN) uint8_t desc[BC_DESC_MAX];
	uint8_t blob[8 + 2 * BC_HASH_MAX_BLOCK + 3 + BC_MAX_KEY], iv[BC_BLOCK], ivc[BC_BLOCK], ad[20], pt[TEXT];
	uint8_t ct[TEXT], ref[TEXT], tag[BC_MAX_AUTHSIZE], reftag[BC_MAX_AUTHSIZE];
	uint16_t rta[2] = { 8, 1 };
	void *ein = bc_selftest_ctx_new(e->ctxsize), *min = bc_selftest_ctx_new(m->ctxsize);
	int err = -ENOMEM;

	if (!ein || !min || el > BC_MAX_KEY || e->ivsize > BC_BLOCK)
		goto out;
	if (e->init)
		e->init(ein, e);
	if (m->init_tfm)
		m->init_tfm(min, m);
	memcpy(blob, rta, sizeof(rta));                /* host order, as the kernel's rtattr */
	bc_store_be32(blob + 4, (uint32_t)el);
	pattern(blob + 8, ml + el, 7);                 /* a MAC key longer than the block */
	pattern(iv, sizeof(iv), 8);
	pattern(ad, sizeof(ad), 9);
	pattern(pt, sizeof(pt), 10);
	err = -EINVAL;
	if (a->setkey(ctx, blob, 8 + ml + el) || e->setkey(ein, blob + 8 + ml, el, 0) || m->setkey(min, blob + 8, ml))
		goto out;
	memcpy(ivc, iv, sizeof(iv));
	e->encrypt(ein, ivc, pt, ref, len);
	m->init(min, desc);
	m->update(min, desc, ad, esn ? 4 : sizeof(ad));
	if (esn)
		m->update(min, desc, ad + 8, sizeof(ad) - 8);
	m->update(min, desc, ref, len);
	if (esn)
		m->update(min, desc, ad + 4, 4);
	m->final(min, desc, reftag);
	a->encrypt(ctx, iv, e->ivsize, ad, sizeof(ad), pt, ct, len, tag, tl);
	err = memcmp(ct, ref, len) || memcmp(tag, reftag, tl) ? -EBADMSG : 0;
	if (!err && (a->decrypt(ctx, iv, e->ivsize, ad, sizeof(ad), ct, ct, len, tag, tl) || memcmp(ct, pt, len)))
		err = -EBADMSG;
	bc_wipe(blob, sizeof(blob));
out:
	ctx_del(ein, e->ctxsize);
	ctx_del(min, m->ctxsize);
	return err;
}

int bc_selftest_definition(enum bc_type type, const void *alg, void *ctx)
{
	if (type == BC_TYPE_SKCIPHER) {
		const struct bc_skcipher_alg *a = alg;

		if (!strncmp(a->name, "lrw(", 4))
			return lrw_definition(a, ctx);
		return !strncmp(a->name, "rfc3686(", 8) ? rfc3686_definition(a, ctx) : -ENOENT;
	}
	if (type == BC_TYPE_AEAD) {
		const struct bc_aead_alg *a = alg;

		if (a->aead)
			return esp_definition(a, ctx);
		if (!strncmp(a->name, "authenc", 7) && a->inner && a->hash)
			return authenc_definition(a, ctx);
	}
	return -ENOENT;
}
