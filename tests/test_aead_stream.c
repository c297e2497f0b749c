/* Tests of the incremental aead calls (bc_aead_start/update_ad/update/final) against the one-shot ones, and of
 * state copies (bc_aead_req_copy, bc_shash_dup): every gcm driver, IVs of 12 and other lengths, every split. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static int piece(bc_aead_req *r, int ad, const uint8_t *src, uint8_t *dst, size_t n)
{
	return ad ? bc_aead_update_ad(r, src, n) : bc_aead_update(r, src, dst, n);
}

/* Feeds len bytes in two pieces cut at cut (empty pieces too) or, when
 * cut > len, in random pieces of 0 to 40 bytes (0 to 2600 for texts past
 * 300 bytes, so pieces hold a driver's widest strides). */
static int feed(bc_aead_req *r, int ad, const uint8_t *src, uint8_t *dst, size_t len, size_t cut)
{
	int err = 0;

	if (cut <= len)
		return piece(r, ad, src, dst, cut) | piece(r, ad, src + cut, dst ? dst + cut : NULL, len - cut);
	for (size_t off = 0, n; !err && off < len; off += n) {
		n = rng_below(len > 300 ? 2601 : 41);
		n = n < len - off ? n : len - off;
		err = piece(r, ad, src + off, dst ? dst + off : NULL, n);
	}
	return err;
}

/* One message: one-shot reference, then the incremental form with the AD cut
 * at adcut and the text at tcut (a cut past the length: random pieces),
 * encrypting and decrypting, out of place and in place. */
static void one(bc_aead *tfm, bc_aead_req *r, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
		const uint8_t *pt, size_t len, size_t adcut, size_t tcut)
{
	uint8_t *ct = tmp_alloc(len + 1), *out = tmp_alloc(len + 1), tag[16], tag2[16];

	CHECK(bc_aead_encrypt(tfm, iv, ivlen, ad, adlen, pt, ct, len, tag) == 0, "one-shot encrypt");
	for (int inplace = 0; inplace < 2; inplace++)
		for (int enc = 1; enc >= 0; enc--) {
			const uint8_t *in = enc ? pt : ct, *want = enc ? ct : pt;

			if (inplace)
				memcpy(out, in, len);
			CHECK(bc_aead_start(r, enc, iv, ivlen) == 0, "start");
			CHECK(feed(r, 1, ad, NULL, adlen, adcut) == 0, "ad");
			CHECK(feed(r, 0, inplace ? out : in, out, len, tcut) == 0, "update");
			CHECK(bc_aead_final(r, tag2) == 0, "final");
			CHECK(!memcmp(out, want, len), "%s differs (ad %zu/%zu, text %zu/%zu, in place %d)",
			      enc ? "ciphertext" : "plaintext", adcut, adlen, tcut, len, inplace);
			CHECK(!bc_memneq(tag, tag2, bc_aead_authsize(tfm)), "tag differs (%s, ad %zu/%zu, text %zu/%zu)",
			      enc ? "encrypt" : "decrypt", adcut, adlen, tcut, len);
		}
}

/* A copy taken at every point of a message finishes it as the original does. */
static void copies(bc_aead *tfm, bc_aead_req *r)
{
	uint8_t iv[12], ad[21], pt[83], ct[83], out[83], out2[83], tag[16], tag2[16], tag3[16];
	bc_aead_req *c;

	rng_fill(iv, sizeof(iv));
	rng_fill(ad, sizeof(ad));
	rng_fill(pt, sizeof(pt));
	CHECK(bc_aead_encrypt(tfm, iv, 12, ad, sizeof(ad), pt, ct, sizeof(pt), tag) == 0, "one-shot");
	CHECK(bc_aead_req_alloc(&c, tfm) == 0, "alloc");
	for (size_t cut = 0; cut <= sizeof(ad) + sizeof(pt); cut++) {
		size_t adcut = cut < sizeof(ad) ? cut : sizeof(ad), tcut = cut - adcut;

		bc_aead_start(r, 1, iv, 12);
		bc_aead_update_ad(r, ad, adcut);
		bc_aead_update(r, pt, out, tcut);
		CHECK(bc_aead_req_copy(c, r) == 0, "copy");
		memcpy(out2, out, tcut);
		bc_aead_update_ad(r, ad + adcut, sizeof(ad) - adcut);
		bc_aead_update(r, pt + tcut, out + tcut, sizeof(pt) - tcut);
		bc_aead_update_ad(c, ad + adcut, sizeof(ad) - adcut);
		bc_aead_update(c, pt + tcut, out2 + tcut, sizeof(pt) - tcut);
		CHECK(bc_aead_final(r, tag2) == 0 && bc_aead_final(c, tag3) == 0, "final");
		CHECK(!memcmp(out, ct, sizeof(ct)) && !memcmp(out2, ct, sizeof(ct)), "copy at %zu: text differs", cut);
		CHECK(!memcmp(tag2, tag, 16) && !memcmp(tag3, tag, 16), "copy at %zu: tag differs", cut);
	}
	bc_aead_req_free(c);
}

/* bc_shash_dup of every MAC and hash, at every point of a message. */
static void shash_dups(void)
{
	static const char *const names[] = { "cmac(aes)", "cmac(sm4)", "xcbc(aes)", "cbcmac(sm4)", "ghash", "sha256",
					     "sm3" };
	uint8_t key[32], msg[70], want[32], got[32];

	rng_fill(key, sizeof(key));
	rng_fill(msg, sizeof(msg));
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		bc_shash *t, *d;

		set_context("%s", names[i]);
		if (bc_shash_alloc(&t, names[i])) {
			CHECK(0, "cannot allocate");
			continue;
		}
		bc_shash_setkey(t, key, 16);   /* refused by the hashes, which need none */
		CHECK(bc_shash_digest(t, msg, sizeof(msg), want) == 0, "digest");
		for (size_t cut = 0; cut <= sizeof(msg); cut++) {
			bc_shash_init(t);
			bc_shash_update(t, msg, cut);
			CHECK(bc_shash_dup(&d, t) == 0, "dup");
			bc_shash_update(d, msg + cut, sizeof(msg) - cut);
			CHECK(bc_shash_final(d, got) == 0 && !memcmp(got, want, bc_shash_digestsize(t)), "dup at %zu", cut);
			bc_shash_update(t, msg + cut, sizeof(msg) - cut);
			CHECK(bc_shash_final(t, got) == 0 && !memcmp(got, want, bc_shash_digestsize(t)), "original at %zu",
			      cut);
			bc_shash_free(d);
		}
		bc_shash_free(t);
	}
	{
		bc_shash *none;

		CHECK(bc_shash_dup(&none, NULL) == -EINVAL && none == NULL, "dup of NULL");
	}
}

static void errors(bc_aead *tfm)
{
	bc_aead_req *r;
	uint8_t iv[12] = { 0 }, b[32] = { 0 }, tag[16];

	CHECK(bc_aead_req_alloc(&r, tfm) == 0, "alloc");
	CHECK(bc_aead_update(r, b, b, 16) == -EINVAL, "update before start");
	CHECK(bc_aead_final(r, tag) == -EINVAL, "final before start");
	CHECK(bc_aead_start(r, 1, iv, 0) == -EINVAL, "empty IV");
	CHECK(bc_aead_start(r, 1, iv, 12) == 0, "start");
	CHECK(bc_aead_update(r, b, b, 5) == 0, "update");
	CHECK(bc_aead_update_ad(r, b, 5) == -EINVAL, "ad after text");
	CHECK(bc_aead_final(r, tag) == 0, "final");
	CHECK(bc_aead_update(r, b, b, 5) == -EINVAL, "update after final");
	bc_aead_req_free(r);
	CHECK(bc_aead_req_alloc(&r, NULL) == -EINVAL && r == NULL, "alloc without tfm");
}

static void unkeyed(const char *drv)
{
	bc_aead *tfm;
	bc_aead_req *r;
	uint8_t iv[12] = { 0 };

	if (bc_aead_alloc(&tfm, drv))
		return;
	CHECK(bc_aead_req_alloc(&r, tfm) == 0, "alloc on an unkeyed tfm");
	CHECK(bc_aead_start(r, 1, iv, 12) == -ENOKEY, "start without a key");
	bc_aead_req_free(r);
	bc_aead_free(tfm);
}

/* Texts of several 1 KiB strides and more under the first nkeys key lengths, cut
 * around the stride and block edges, after AAD that ends inside a block,
 * and in random pieces up to 2600 bytes. */
static void long_texts(bc_aead *tfm, bc_aead_req *r, const uint8_t *key, size_t nkeys)
{
	static const size_t keylens[] = { 16, 24, 32 }, lens[] = { 1024, 2085, 4100 };
	static const size_t cuts[] = { 0, 1, 15, 16, 17, 1023, 1024, 1040, 2049, 3077 };
	uint8_t iv[16], ad[21], *pt = tmp_alloc(4100);

	rng_fill(iv, sizeof(iv));
	rng_fill(ad, sizeof(ad));
	rng_fill(pt, 4100);
	CHECK(bc_aead_setauthsize(tfm, 16) == 0, "setauthsize");
	for (size_t k = 0; k < nkeys; k++) {
		CHECK(bc_aead_setkey(tfm, key, keylens[k]) == 0, "setkey %zu", keylens[k]);
		for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
			for (size_t c = 0; c < sizeof(cuts) / sizeof(cuts[0]) && cuts[c] <= lens[l]; c++)
				one(tfm, r, iv, 12, ad, 21, pt, lens[l], 21, cuts[c]);
			for (size_t n = 0; n < 4; n++)
				one(tfm, r, iv, n & 1 ? 12 : 16, ad, n < 2 ? 21 : 0, pt, lens[l], 22, lens[l] + 1);
		}
	}
	CHECK(bc_aead_setkey(tfm, key, 16) == 0, "setkey");
	tmp_free_all();
}

static void driver(const char *drv)
{
	static const size_t ivlens[] = { 12, 1, 8, 16, 60 };
	static const size_t taglens[] = { 16, 12, 4 };
	bc_aead *tfm;
	bc_aead_req *r;
	uint8_t key[32], iv[60], ad[70], pt[300];
	size_t nrand = test_quick() ? 20 : 200;

	set_context("%s", drv);
	if (bc_aead_alloc(&tfm, drv)) {
		CHECK(0, "cannot allocate %s", drv);
		return;
	}
	rng_fill(key, sizeof(key));
	CHECK(bc_aead_setkey(tfm, key, 16) == 0, "setkey");
	CHECK(bc_aead_req_alloc(&r, tfm) == 0, "req alloc");
	rng_fill(ad, sizeof(ad));
	rng_fill(pt, sizeof(pt));
	for (size_t i = 0; i < sizeof(ivlens) / sizeof(ivlens[0]); i++) {
		rng_fill(iv, sizeof(iv));
		CHECK(bc_aead_setauthsize(tfm, taglens[i % 3]) == 0, "setauthsize");
		/* every two-way split of a 37-byte AD and of a 70-byte text */
		for (size_t cut = 0; cut <= 37; cut++)
			one(tfm, r, iv, ivlens[i], ad, 37, pt, 70, cut, 70);
		for (size_t cut = 0; cut <= 70; cut++)
			one(tfm, r, iv, ivlens[i], ad, 37, pt, 70, 37, cut);
		/* random lengths and random pieces */
		for (size_t k = 0; k < nrand; k++) {
			size_t adlen = rng_below(sizeof(ad) + 1), len = rng_below(sizeof(pt) + 1);

			one(tfm, r, iv, ivlens[i], ad, adlen, pt, len, adlen + 1, len + 1);
		}
		tmp_free_all();
	}
	long_texts(tfm, r, key, strstr(drv, "sm4") ? 1 : 3);
	bc_aead_setauthsize(tfm, 16);
	copies(tfm, r);
	errors(tfm);
	bc_aead_req_free(r);
	bc_aead_free(tfm);
	unkeyed(drv);
}

int main(void)
{
	static const char *const algs[] = { "gcm(aes)", "gcm(sm4)" };
	char buf[160];

	test_init();
	rng_seed(16);
	for (size_t a = 0; a < 2; a++) {
		struct drv_set s;

		drivers_for(algs[a], &s);
		for (size_t i = 0; i < s.n; i++)
			driver(s.info[i].driver);
		driver(generic_driver_name(algs[a], buf, sizeof(buf)));
		drv_set_free(&s);
	}
	shash_dups();
	return test_summary("test_aead_stream");
}
