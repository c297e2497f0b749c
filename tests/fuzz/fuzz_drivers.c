/* libFuzzer harness: every driver against the generic one, with splits, in-place and misaligned buffers.
 * The checks of Linux crypto/testmgr.c's fuzz tests, on the contract of include/blockcrypt.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

#define FILL 0xa5
#define MAX_LEN 8191
#define MAX_CUTS 3

static int all_are(const uint8_t *p, size_t n, uint8_t v)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

/* Up to MAX_CUTS sorted cut points inside [0, len], each a multiple of align (0: no cuts, one call). */
static size_t read_cuts(struct fz *f, size_t len, size_t align, size_t cuts[MAX_CUTS + 2])
{
	size_t n = fz_u8(f) % (MAX_CUTS + 1), k = 1;

	cuts[0] = 0;
	if (!align)
		n = 0;
	for (size_t i = 0; i < n; i++) {
		size_t c = len ? fz_u16(f) % (len + 1) / align * align : 0;
		size_t j = k++;

		while (j > 1 && cuts[j - 1] > c) {
			cuts[j] = cuts[j - 1];
			j--;
		}
		cuts[j] = c;
	}
	cuts[k] = len;
	return k;
}

/* A key of a length the algorithm takes, or (flag) of any length up to 80 bytes. */
static size_t read_key(struct fz *f, const struct fz_alg *a, int any, uint8_t key[80])
{
	size_t nks = 0, keylen;

	while (nks < 4 && a->keysizes[nks])
		nks++;
	keylen = any || !nks ? fz_u8(f) % 81 : a->keysizes[fz_u8(f) % nks];
	fz_bytes(f, key, keylen);
	return keylen;
}

static void fuzz_skcipher(struct fz *f, const struct fz_alg *a, const char *drv)
{
	/* IVs up to hctr2's and xchacha's 32 bytes */
	uint8_t flags = fz_u8(f), key[80], iv0[32], giv[32], tiv[32], *msg, *gout, *src, *dst;
	size_t keylen = read_key(f, a, flags & 0x80, key), len = fz_u16(f) % (MAX_LEN + 1), ivsize;
	size_t cuts[MAX_CUTS + 2], ncuts;
	int inplace = flags & 1, chain = !strncmp(a->name, "ecb(", 4) || !strncmp(a->name, "cbc(", 4) ||
					 !strncmp(a->name, "ctr(", 4);
	unsigned fl = flags & 0x20 ? BC_ALLOW_WEAK_KEYS : 0;
	bc_skcipher *g, *t;
	struct fz_buf sb, db;
	int eg, et;

	if ((flags & 0x40) && !strncmp(a->name, "xts(", 4) && keylen % 2 == 0)
		memcpy(key + keylen / 2, key, keylen / 2);   /* equal halves */
	if (bc_skcipher_alloc(&g, a->generic) || bc_skcipher_alloc(&t, drv))
		fz_fail("alloc", a->name, drv, len);
	bc_skcipher_set_flags(g, fl);
	bc_skcipher_set_flags(t, fl);
	eg = bc_skcipher_setkey(g, key, keylen);
	et = bc_skcipher_setkey(t, key, keylen);
	if (eg != et || (eg && eg != -EINVAL))
		fz_fail("setkey result differs from generic", a->name, drv, keylen);
	ivsize = bc_skcipher_ivsize(t);
	if (ivsize != bc_skcipher_ivsize(g) || ivsize > sizeof(iv0))
		fz_fail("ivsize", a->name, drv, ivsize);
	fz_bytes(f, iv0, ivsize);
	if ((flags & 0x40) && (!strncmp(a->name, "chacha20", 8) || !strncmp(a->name, "xchacha", 7))) {
		/* the 32-bit LE block counter (xchacha's at byte 24) about to wrap inside the text */
		uint8_t *ctr = iv0 + (a->name[0] == 'x' ? 24 : 0);

		ctr[0] |= 0xf8;
		memset(ctr + 1, 0xff, 3);
	}
	msg = malloc(len + 1);
	gout = malloc(len + 1);
	fz_bytes(f, msg, len);
	src = fz_buf_new(&sb, len, fz_u8(f));
	dst = inplace ? src : fz_buf_new(&db, len, fz_u8(f));
	ncuts = read_cuts(f, len, chain ? 16 : 0, cuts);
	memcpy(src, msg, len);
	if (!inplace)
		memset(dst, FILL, len);

	memcpy(giv, iv0, ivsize);
	eg = bc_skcipher_encrypt(g, giv, msg, gout, len);   /* -ENOKEY after a refused key */
	memcpy(tiv, iv0, ivsize);
	if (eg) {
		/* refused: the same error, and nothing written */
		et = bc_skcipher_encrypt(t, tiv, src, dst, len);
		if (et != eg)
			fz_fail("refusal differs from generic", a->name, drv, len);
		if (memcmp(tiv, iv0, ivsize) || (inplace ? memcmp(src, msg, len) != 0 : !all_are(dst, len, FILL)))
			fz_fail("a refused call changed dst or iv", a->name, drv, len);
		goto out;
	}
	for (size_t i = 0; i < ncuts; i++)
		if (bc_skcipher_encrypt(t, tiv, src + cuts[i], dst + cuts[i], cuts[i + 1] - cuts[i]))
			fz_fail("encrypt refused", a->name, drv, cuts[i + 1] - cuts[i]);
	if (memcmp(dst, gout, len) || memcmp(tiv, giv, ivsize))
		fz_fail("encrypt differs from generic", a->name, drv, len);

	/* decryption inverts, chained the same way, ending with the generic's iv */
	memcpy(giv, iv0, ivsize);
	if (bc_skcipher_decrypt(g, giv, gout, gout, len) || memcmp(gout, msg, len))
		fz_fail("generic decrypt does not invert", a->name, drv, len);
	memcpy(tiv, iv0, ivsize);
	if (!inplace)
		memcpy(src, dst, len);
	for (size_t i = 0; i < ncuts; i++)
		if (bc_skcipher_decrypt(t, tiv, src + cuts[i], src + cuts[i], cuts[i + 1] - cuts[i]))
			fz_fail("decrypt refused", a->name, drv, cuts[i + 1] - cuts[i]);
	if (memcmp(src, msg, len) || memcmp(tiv, giv, ivsize))
		fz_fail("decrypt does not invert", a->name, drv, len);
out:
	fz_buf_free(&sb);
	if (!inplace)
		fz_buf_free(&db);
	free(msg);
	free(gout);
	bc_skcipher_free(g);
	bc_skcipher_free(t);
}

static const size_t gcm_tags[] = { 4, 8, 12, 13, 14, 15, 16 };
static const size_t ccm_tags[] = { 4, 6, 8, 10, 12, 14, 16 };

static void fuzz_aead(struct fz *f, const struct fz_alg *a, const char *drv)
{
	uint8_t flags = fz_u8(f), key[80], iv[128], gtag[16], *msg, *gout, *ad, *src, *dst, *tag;
	size_t keylen = read_key(f, a, flags & 0x80, key);
	int ccm = !strncmp(a->name, "ccm(", 4), esp = !strncmp(a->name, "rfc7539esp(", 11);
	size_t taglen = flags & 0x40 ? fz_u8(f) % 20 : (ccm ? ccm_tags : gcm_tags)[fz_u8(f) % 7];
	uint8_t ivb = fz_u8(f);
	/* gcm's fast-path 12 bytes or any length; ccm's 16-byte counter block, rfc7539's 12-byte nonce, the ESP
	 * form's 8-byte IV, or any length to be refused */
	size_t ivlen = ivb & 0x80 ? (ccm ? 16 : esp ? 8 : 12) : ivb & 0x7f, adlen = fz_u16(f) % 1024;
	size_t len = fz_u16(f) % (MAX_LEN + 1);
	/* the ESP form's AD ends with a copy of the IV, which the tag does not cover (as in the kernel) */
	size_t adauth = esp ? (adlen < 8 ? 0 : adlen - 8) : adlen;
	int inplace = flags & 1;
	bc_aead *g, *t;
	struct fz_buf sb, db, ab, tb;
	int eg, et;

	if (bc_aead_alloc(&g, a->generic) || bc_aead_alloc(&t, drv))
		fz_fail("alloc", a->name, drv, len);
	eg = bc_aead_setauthsize(g, taglen);
	et = bc_aead_setauthsize(t, taglen);
	if (eg != et || (eg && eg != -EINVAL) || bc_aead_authsize(g) != bc_aead_authsize(t))
		fz_fail("setauthsize result differs from generic", a->name, drv, taglen);
	taglen = bc_aead_authsize(t);
	eg = bc_aead_setkey(g, key, keylen);
	et = bc_aead_setkey(t, key, keylen);
	if (eg != et || (eg && eg != -EINVAL))
		fz_fail("setkey result differs from generic", a->name, drv, keylen);
	fz_bytes(f, iv, ivlen);
	if (ccm && (ivb & 0x80))
		iv[0] = (uint8_t)(1 + iv[0] % 7);   /* a valid L = 2..8 (otherwise both must refuse the IV) */
	msg = malloc(len + 1);
	gout = malloc(len + 1);
	fz_bytes(f, msg, len);
	ad = fz_buf_new(&ab, adlen, fz_u8(f));
	fz_bytes(f, ad, adlen);
	src = fz_buf_new(&sb, len, fz_u8(f));
	dst = inplace ? src : fz_buf_new(&db, len, fz_u8(f));
	tag = fz_buf_new(&tb, taglen, fz_u8(f));
	memcpy(src, msg, len);
	if (!inplace)
		memset(dst, FILL, len);
	memset(tag, FILL, taglen);

	eg = bc_aead_encrypt(g, iv, ivlen, ad, adlen, msg, gout, len, gtag);   /* -ENOKEY after a refused key */
	et = bc_aead_encrypt(t, iv, ivlen, ad, adlen, src, dst, len, tag);
	if (et != eg)
		fz_fail("encrypt result differs from generic", a->name, drv, len);
	if (eg) {
		if (!all_are(tag, taglen, FILL) || (inplace ? memcmp(src, msg, len) != 0 : !all_are(dst, len, FILL)))
			fz_fail("a refused call changed dst or tag", a->name, drv, len);
		goto out;
	}
	if (memcmp(dst, gout, len) || memcmp(tag, gtag, taglen))
		fz_fail("encrypt differs from generic", a->name, drv, len);

	/* decryption inverts; then one flipped bit (tag, ciphertext or AAD) must fail with dst zeroed */
	if (!inplace)
		memcpy(src, dst, len);
	if (bc_aead_decrypt(t, iv, ivlen, ad, adlen, src, src, len, tag) || memcmp(src, msg, len))
		fz_fail("decrypt does not invert", a->name, drv, len);
	memcpy(src, gout, len);
	if (!inplace)
		memset(dst, FILL, len);
	uint8_t where = fz_u8(f), bit = fz_u8(f);
	uint8_t *flip = (where % 3 == 1 && len) ? src + bit % len : (where % 3 == 2 && adauth) ? ad + bit % adauth
											  : tag + bit % taglen;
	*flip ^= (uint8_t)(1u << (where >> 5));
	et = bc_aead_decrypt(t, iv, ivlen, ad, adlen, src, dst, len, tag);
	if (et != -EBADMSG || !all_are(dst, len, 0))
		fz_fail("a forged message was not refused with dst zeroed", a->name, drv, len);
out:
	fz_buf_free(&sb);
	if (!inplace)
		fz_buf_free(&db);
	fz_buf_free(&ab);
	fz_buf_free(&tb);
	free(msg);
	free(gout);
	bc_aead_free(g);
	bc_aead_free(t);
}

static void fuzz_shash(struct fz *f, const struct fz_alg *a, const char *drv)
{
	uint8_t flags = fz_u8(f), key[80], gd[64], td[64];
	int keyed = a->keysizes[0] != 0;
	size_t keylen = read_key(f, a, flags & 0x80, key), len = fz_u16(f) % (MAX_LEN + 1), ds;
	size_t cuts[MAX_CUTS + 2], ncuts;
	bc_shash *g, *t;
	struct fz_buf mb, ob;
	uint8_t *msg, *out;
	int eg, et;

	if (bc_shash_alloc(&g, a->generic) || bc_shash_alloc(&t, drv))
		fz_fail("alloc", a->name, drv, len);
	ds = bc_shash_digestsize(t);
	if (ds != bc_shash_digestsize(g) || ds > sizeof(gd))
		fz_fail("digestsize", a->name, drv, ds);
	eg = keyed || (flags & 0x80) ? bc_shash_setkey(g, key, keylen) : 0;
	et = keyed || (flags & 0x80) ? bc_shash_setkey(t, key, keylen) : 0;
	if (eg != et)
		fz_fail("setkey result differs from generic", a->name, drv, keylen);
	msg = fz_buf_new(&mb, len, fz_u8(f));
	fz_bytes(f, msg, len);
	out = fz_buf_new(&ob, ds, fz_u8(f));
	ncuts = read_cuts(f, len, 1, cuts);
	eg = bc_shash_digest(g, msg, len, gd);
	memset(out, FILL, ds);
	et = bc_shash_digest(t, msg, len, out);
	if (eg != et)
		fz_fail("digest result differs from generic", a->name, drv, len);
	if (eg) {
		if (eg != -ENOKEY || !all_are(out, ds, FILL))
			fz_fail("a refused digest wrote its output", a->name, drv, len);
		goto out;
	}
	if (memcmp(out, gd, ds))
		fz_fail("digest differs from generic", a->name, drv, len);

	/* the same message in split updates, twice (final starts the state afresh) */
	for (int round = 0; round < 2; round++) {
		if (bc_shash_init(t))
			fz_fail("init", a->name, drv, len);
		for (size_t i = 0; i < ncuts; i++)
			if (bc_shash_update(t, msg + cuts[i], cuts[i + 1] - cuts[i]))
				fz_fail("update", a->name, drv, len);
		if (bc_shash_final(t, out) || memcmp(out, gd, ds))
			fz_fail("split updates differ from one digest", a->name, drv, len);
	}

	/* digest_many over the pieces between the cuts: each equals its own generic digest */
	const uint8_t *msgs[MAX_CUTS + 1];
	size_t lens[MAX_CUTS + 1];
	uint8_t outs_store[MAX_CUTS + 1][64], *outs[MAX_CUTS + 1];

	for (size_t i = 0; i < ncuts; i++) {
		msgs[i] = msg + cuts[i];
		lens[i] = cuts[i + 1] - cuts[i];
		outs[i] = outs_store[i];
	}
	if (bc_shash_digest_many(t, ncuts, msgs, lens, outs))
		fz_fail("digest_many", a->name, drv, len);
	for (size_t i = 0; i < ncuts; i++)
		if (bc_shash_digest(g, msgs[i], lens[i], td) || memcmp(td, outs[i], ds))
			fz_fail("digest_many differs from generic", a->name, drv, lens[i]);
out:
	fz_buf_free(&mb);
	fz_buf_free(&ob);
	bc_shash_free(g);
	bc_shash_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;
	const struct fz_alg *a;
	const char *drv;

	fz_setup();
	fz_init(&f, data, size);
	a = &fz_algs[fz_u8(&f) % fz_nalgs];
	drv = a->cand[fz_u8(&f) % a->ncand];
	if (a->type == BC_TYPE_SKCIPHER)
		fuzz_skcipher(&f, a, drv);
	else if (a->type == BC_TYPE_AEAD)
		fuzz_aead(&f, a, drv);
	else
		fuzz_shash(&f, a, drv);
	return 0;
}
