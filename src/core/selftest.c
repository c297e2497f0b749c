/* blockcrypt: known-answer self-tests run on each driver before its first use (as Linux crypto/testmgr.c).
 * The vectors are src/core/selftest_vectors.txt (format: tests/vectors/FORMAT.md), embedded at build time. */
#include <stdlib.h>

#include "selftest.h"

/* The vector file goes into the library as it is: the assembler's .incbin
 * (gcc and clang alike) copies it into .rodata, NUL-terminated, so the data
 * stays a data file and no generator runs at build time. */
__asm__(".section .rodata\n"
	".global bc_selftest_text\n"
	".hidden bc_selftest_text\n"
	"bc_selftest_text:\n"
	".incbin \"src/core/selftest_vectors.txt\"\n"
	".byte 0\n"
	".previous\n");
extern const char bc_selftest_text[];

#define FIELD_MAX 2048   /* nhpoly1305: a 1088-byte key */

struct vec {
	char alg[64];
	uint8_t key[FIELD_MAX], iv[FIELD_MAX], ptext[FIELD_MAX], ctext[FIELD_MAX], assoc[FIELD_MAX],
		tag[BC_MAX_AUTHSIZE], iv_out[BC_BLOCK];
	size_t keylen, ivlen, plen, clen, alen, taglen, iv_outlen;
	unsigned long iterations;
	int full, invalid;
};

static int unhex(const char *s, size_t n, uint8_t *out, size_t max, size_t *len)
{
	if (n % 2 || n / 2 > max)
		return -1;
	for (size_t i = 0; i < n; i += 2) {
		int v = 0;

		for (int k = 0; k < 2; k++) {
			char c = s[i + k];
			int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;

			if (d < 0)
				return -1;
			v = v << 4 | d;
		}
		out[i / 2] = (uint8_t)v;
	}
	*len = n / 2;
	return 0;
}

/* Reads the record starting at *p into v and moves *p past it; 0 at the end
 * of the text, -1 on a malformed record (a broken build, not a broken driver). */
static int next_record(const char **p, struct vec *v)
{
	const char *s = *p;
	int got = 0;

	memset(v, 0, sizeof(*v));
	v->iterations = 1;
	while (*s) {
		const char *eol = strchr(s, '\n'), *eq, *k, *val;
		size_t klen, vlen;
		int err = 0;

		if (!eol)
			eol = s + strlen(s);
		if (s == eol) {                     /* blank line: end of a record */
			s++;
			if (got)
				break;
			continue;
		}
		if (*s == '#' || !(eq = memchr(s, '=', (size_t)(eol - s)))) {
			s = *eol ? eol + 1 : eol;
			continue;
		}
		k = s;
		klen = (size_t)(eq - s);
		while (klen && k[klen - 1] == ' ')
			klen--;
		val = eq + 1;
		while (*val == ' ')
			val++;
		vlen = (size_t)(eol - val);
		while (vlen && val[vlen - 1] == ' ')
			vlen--;
#define IS(name) (klen == sizeof(name) - 1 && !memcmp(k, name, klen))
		if (IS("alg")) {
			if (vlen >= sizeof(v->alg))
				return -1;
			memcpy(v->alg, val, vlen);
			got = 1;
		} else if (IS("key")) {
			err = unhex(val, vlen, v->key, sizeof(v->key), &v->keylen);
		} else if (IS("iv")) {
			err = unhex(val, vlen, v->iv, sizeof(v->iv), &v->ivlen);
		} else if (IS("ptext") || IS("msg")) {
			err = unhex(val, vlen, v->ptext, sizeof(v->ptext), &v->plen);
		} else if (IS("ctext") || IS("mac")) {
			err = unhex(val, vlen, v->ctext, sizeof(v->ctext), &v->clen);
		} else if (IS("assoc")) {
			err = unhex(val, vlen, v->assoc, sizeof(v->assoc), &v->alen);
		} else if (IS("tag")) {
			err = unhex(val, vlen, v->tag, sizeof(v->tag), &v->taglen);
		} else if (IS("iv_out")) {
			err = unhex(val, vlen, v->iv_out, sizeof(v->iv_out), &v->iv_outlen);
		} else if (IS("iterations")) {
			v->iterations = strtoul(val, NULL, 10);
		} else if (IS("selftest")) {
			v->full = vlen == 4 && !memcmp(val, "full", 4);
		} else if (IS("result")) {
			v->invalid = vlen == 7 && !memcmp(val, "invalid", 7);
		}
#undef IS
		if (err)
			return -1;
		s = *eol ? eol + 1 : eol;
	}
	*p = s;
	return got;
}

void *bc_selftest_ctx_new(size_t size)
{
	size_t n = (size + BC_CTX_ALIGN - 1) / BC_CTX_ALIGN * BC_CTX_ALIGN + BC_CTX_ALIGN;
	void *p = aligned_alloc(BC_CTX_ALIGN, n);

	if (p)
		memset(p, 0, n);
	return p;
}

static int test_cipher(const struct bc_cipher_alg *a, void *ctx, const struct vec *v)
{
	uint8_t buf[FIELD_MAX], st[BC_BLOCK] = { 0 }, chain[BC_BLOCK] = { 0 };
	uint8_t lanes[3][BC_BLOCK] = { { 0 } };
	const uint8_t *src[3] = { v->ptext, v->ptext, v->ptext };
	size_t bs = bc_cipher_blocksize(a), n = v->plen / bs;

	if (a->setkey(ctx, v->key, v->keylen) || v->plen % bs || v->clen != v->plen)
		return -EINVAL;
	memcpy(buf, v->ptext, v->plen);
	for (unsigned long i = 0; i < v->iterations; i++)
		a->encrypt(ctx, buf, buf, n);
	if (memcmp(buf, v->ctext, v->plen))
		return -EBADMSG;
	for (unsigned long i = 0; i < v->iterations; i++)
		a->decrypt(ctx, buf, buf, n);
	if (memcmp(buf, v->ptext, v->plen))
		return -EBADMSG;
	/* The CBC-MAC step must agree with the (just verified) block encryption. */
	for (size_t i = 0; i < n; i++) {
		bc_xor(chain, chain, v->ptext + i * bs, bs);
		a->encrypt(ctx, chain, chain, 1);
	}
	a->mac(ctx, st, v->ptext, n);
	if (memcmp(st, chain, bs))
		return -EBADMSG;
	if (a->mac_many) {
		a->mac_many(ctx, 3, lanes, src, n);
		for (int i = 0; i < 3; i++)
			if (memcmp(lanes[i], chain, bs))
				return -EBADMSG;
	}
	return 0;
}

static int test_skcipher(const struct bc_skcipher_alg *a, void *ctx, const struct vec *v)
{
	uint8_t buf[FIELD_MAX], iv[BC_MAX_IV] = { 0 };

	if (v->invalid)
		return v->plen < a->min_len || v->plen % a->len_align ? 0 : -EINVAL;
	if (a->setkey(ctx, v->key, v->keylen, BC_ALLOW_WEAK_KEYS) || v->clen != v->plen ||
	    v->ivlen != a->ivsize || v->ivlen > sizeof(iv) || v->plen < a->min_len || v->plen % a->len_align)
		return -EINVAL;
	memcpy(iv, v->iv, v->ivlen);
	a->encrypt(ctx, iv, v->ptext, buf, v->plen);
	if (memcmp(buf, v->ctext, v->plen) || (v->iv_outlen && memcmp(iv, v->iv_out, v->iv_outlen)))
		return -EBADMSG;
	memcpy(iv, v->iv, v->ivlen);
	a->decrypt(ctx, iv, buf, buf, v->plen);          /* in place */
	if (memcmp(buf, v->ptext, v->plen) || (v->iv_outlen && memcmp(iv, v->iv_out, v->iv_outlen)))
		return -EBADMSG;
	return 0;
}

static int test_aead(const struct bc_aead_alg *a, void *ctx, const struct vec *v)
{
	uint8_t buf[FIELD_MAX], tag[BC_MAX_AUTHSIZE], joined[2 * FIELD_MAX], key[FIELD_MAX];
	const uint8_t *ad = v->assoc, *pt = v->ptext, *ct = v->ctext;

	/* authenc key blobs are written as the kernel's testmgr writes them, for
	 * a little-endian host: the rtattr header goes to this host's order. */
	memcpy(key, v->key, v->keylen);
	if (!strncmp(a->name, "authenc", 7) && v->keylen >= 4) {
		uint16_t hdr[2] = { (uint16_t)(key[0] | key[1] << 8), (uint16_t)(key[2] | key[3] << 8) };

		memcpy(key, hdr, sizeof(hdr));
	}
	if (a->setkey(ctx, key, v->keylen) || v->clen != v->plen || !v->taglen || !v->ivlen ||
	    (a->check && a->check(a, v->iv, v->ivlen, v->alen, v->plen)))
		return -EINVAL;
	if (a->joined_ad) {                   /* rfc4543: the text right after the data, as the front end gives it */
		memcpy(joined, v->assoc, v->alen);
		memcpy(joined + v->alen, v->ptext, v->plen);
		ad = joined;
		pt = ct = joined + v->alen;       /* the text passes through: ctext is ptext */
	}
	a->encrypt(ctx, v->iv, v->ivlen, ad, v->alen, pt, buf, v->plen, tag, v->taglen);
	if (memcmp(buf, v->ctext, v->plen) || memcmp(tag, v->tag, v->taglen))
		return -EBADMSG;
	if (a->joined_ad)
		memcpy(buf, pt, v->plen);
	if (a->decrypt(ctx, v->iv, v->ivlen, ad, v->alen, a->joined_ad ? ct : buf, buf, v->plen, v->tag, v->taglen) ||
	    memcmp(buf, v->ptext, v->plen))
		return -EBADMSG;
	tag[0] ^= 1;
	if (a->decrypt(ctx, v->iv, v->ivlen, ad, v->alen, a->joined_ad ? ct : v->ctext, buf, v->plen, tag,
		       v->taglen) != -EBADMSG)
		return -EBADMSG;
	bc_wipe(key, v->keylen);
	return 0;
}

static int test_shash(const struct bc_shash_alg *a, void *ctx, const struct vec *v)
{
	_Alignas(BC_CTX_ALIGN) uint8_t desc[BC_DESC_MAX];
	uint8_t out[BC_MAX_AUTHSIZE], out2[BC_MAX_AUTHSIZE];
	const uint8_t *msgs[2] = { v->ptext, v->ptext };
	size_t lens[2] = { v->plen, v->plen };
	uint8_t *outs[2] = { out, out2 };
	size_t half = v->plen / 2;

	if (v->clen != a->digestsize || (a->setkey ? a->setkey(ctx, v->key, v->keylen) : v->keylen != 0))
		return -EINVAL;
	a->init(ctx, desc);
	a->update(ctx, desc, v->ptext, v->plen);
	a->final(ctx, desc, out);
	if (memcmp(out, v->ctext, v->clen))
		return -EBADMSG;
	a->init(ctx, desc);                               /* split input must not matter */
	a->update(ctx, desc, v->ptext, half);
	a->update(ctx, desc, v->ptext + half, v->plen - half);
	a->final(ctx, desc, out);
	if (memcmp(out, v->ctext, v->clen))
		return -EBADMSG;
	if (a->digest_many) {
		memset(out, 0, sizeof(out));
		a->digest_many(ctx, 2, msgs, lens, outs);
		if (memcmp(out, v->ctext, v->clen) || memcmp(out2, v->ctext, v->clen))
			return -EBADMSG;
	}
	return 0;
}

/* essiv(cbc(sm4),sm3) has no published vector: check the instance against
 * its own definition, over parts that have passed their known answers:
 * cbc under the IV E_{H(key)}(iv). */
static int test_essiv_definition(const struct bc_skcipher_alg *a, void *ctx)
{
	static const uint8_t key[16] = "blockcrypt essiv", ivin[16] = "sector 0x123456";
	_Alignas(BC_CTX_ALIGN) uint8_t desc[BC_DESC_MAX];
	uint8_t pt[64], ct[64], ref[64], salt[64], iv[BC_BLOCK];
	size_t saltlen = a->hash->digestsize < a->cipher->max_keysize ? a->hash->digestsize : a->cipher->max_keysize;
	void *cbc = bc_selftest_ctx_new(a->inner->ctxsize), *cip = bc_selftest_ctx_new(a->cipher->ctxsize);
	int err = -ENOMEM;

	if (!cbc || !cip)
		goto out;
	for (size_t i = 0; i < sizeof(pt); i++)
		pt[i] = (uint8_t)(i * 7);
	if (a->inner->init)
		a->inner->init(cbc, a->inner);
	err = -EINVAL;
	if (a->setkey(ctx, key, sizeof(key), 0) || a->inner->setkey(cbc, key, sizeof(key), 0))
		goto out;
	a->hash->init(NULL, desc);
	a->hash->update(NULL, desc, key, sizeof(key));
	a->hash->final(NULL, desc, salt);
	if (a->cipher->setkey(cip, salt, saltlen))
		goto out;
	a->cipher->encrypt(cip, iv, ivin, 1);
	a->inner->encrypt(cbc, iv, pt, ref, sizeof(pt));
	memcpy(iv, ivin, sizeof(iv));
	a->encrypt(ctx, iv, pt, ct, sizeof(pt));
	err = memcmp(ct, ref, sizeof(ct)) || memcmp(iv, ivin, sizeof(iv)) ? -EBADMSG : 0;
out:
	if (cbc)
		bc_wipe(cbc, a->inner->ctxsize);
	if (cip)
		bc_wipe(cip, a->cipher->ctxsize);
	free(cbc);
	free(cip);
	return err;
}

static const char *alg_name(enum bc_type type, const void *alg)
{
	switch (type) {
	case BC_TYPE_CIPHER: return ((const struct bc_cipher_alg *)alg)->name;
	case BC_TYPE_SKCIPHER: return ((const struct bc_skcipher_alg *)alg)->name;
	case BC_TYPE_AEAD: return ((const struct bc_aead_alg *)alg)->name;
	default: return ((const struct bc_shash_alg *)alg)->name;
	}
}

static size_t ctx_size(enum bc_type type, const void *alg)
{
	switch (type) {
	case BC_TYPE_CIPHER: return ((const struct bc_cipher_alg *)alg)->ctxsize;
	case BC_TYPE_SKCIPHER: return ((const struct bc_skcipher_alg *)alg)->ctxsize;
	case BC_TYPE_AEAD: return ((const struct bc_aead_alg *)alg)->ctxsize;
	default: return ((const struct bc_shash_alg *)alg)->ctxsize;
	}
}

int bc_selftest_run(enum bc_type type, const void *alg, int full)
{
	const char *name = alg_name(type, alg), *p = bc_selftest_text;
	size_t size = ctx_size(type, alg);
	struct vec *v = malloc(sizeof(*v));
	void *ctx = bc_selftest_ctx_new(size);
	int err = 0, tested = 0, r;

	if (!v || !ctx) {
		err = -ENOMEM;
		goto out;
	}
	/* A fresh, initialised context per algorithm: templates record their
	 * inner algorithms in init. */
	if (type == BC_TYPE_SKCIPHER && ((const struct bc_skcipher_alg *)alg)->init)
		((const struct bc_skcipher_alg *)alg)->init(ctx, alg);
	if (type == BC_TYPE_AEAD && ((const struct bc_aead_alg *)alg)->init)
		((const struct bc_aead_alg *)alg)->init(ctx, alg);
	if (type == BC_TYPE_SHASH && ((const struct bc_shash_alg *)alg)->init_tfm)
		((const struct bc_shash_alg *)alg)->init_tfm(ctx, alg);
	while (!err && (r = next_record(&p, v)) != 0) {
		if (r < 0) {
			err = -EINVAL;
			break;
		}
		if (strcmp(v->alg, name) || (v->full && !full))
			continue;
		tested++;
		switch (type) {
		case BC_TYPE_CIPHER: err = test_cipher(alg, ctx, v); break;
		case BC_TYPE_SKCIPHER: err = test_skcipher(alg, ctx, v); break;
		case BC_TYPE_AEAD: err = test_aead(alg, ctx, v); break;
		case BC_TYPE_SHASH: err = test_shash(alg, ctx, v); break;
		}
	}
	if (!err && type == BC_TYPE_SKCIPHER && !strncmp(name, "essiv(", 6)) {
		err = test_essiv_definition(alg, ctx);
		tested++;
	}
	if (!err && !tested) {
		err = bc_selftest_definition(type, alg, ctx);
		tested = err != -ENOENT;
	}
	if (!err && !tested)
		err = -ENOENT;                      /* no known answer: never trusted */
out:
	if (ctx)
		bc_wipe(ctx, size);
	free(ctx);
	free(v);
	return err;
}
