/* Error paths: every bad input is refused with the right errno and changes nothing (dst, IV, key state).
 * Contract: include/blockcrypt.h and the Linux crypto API (crypto/skcipher.c, aead.c, shash.c, xts.c, cts.c, gcm.c). */
#include "common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const size_t bad_key_lens[] = { 0, 1, 8, 15, 17, 20, 23, 24, 25, 31, 32, 33, 40, 47, 48, 49, 63, 64, 65, 128 };

/* A key whose halves differ (so xts accepts it). */
static void make_key(uint8_t *k, size_t n, uint8_t seed)
{
	for (size_t i = 0; i < n; i++)
		k[i] = (uint8_t)(seed + 7 * i + 1);
}

/* ---- skcipher ---------------------------------------------------------------------------- */
static void skcipher_errors(const struct bc_driver_info *info)
{
	const char *alg = info->name, *drv = info->driver;
	unsigned sizes[4];
	uint8_t key[160], key2[160], iv[16], iv0[16], src[96], dst[112], ref[96], ref2[96];
	bc_skcipher *tfm;
	int rc;

	alg_key_sizes(alg, sizes);
	set_context("%s [%s]", alg, drv);
	rc = bc_skcipher_alloc(&tfm, drv);
	CHECK(rc == 0, "alloc: %d", rc);
	if (rc)
		return;
	int xts = starts(alg, "xts("), ctr = starts(alg, "ctr(");
	int ecb = starts(alg, "ecb(");
	size_t ivsize = bc_skcipher_ivsize(tfm);
	int des = strstr(alg, "(des)") != NULL, des3 = strstr(alg, "(des3_ede)") != NULL;
	CHECK(ivsize == (ecb ? 0u : des || des3 ? 8u : 16u), "ivsize %zu", ivsize);
	CHECK(info->min_keysize == sizes[0], "min_keysize %u", info->min_keysize);

	rng_fill(src, sizeof(src));
	rng_fill(iv0, sizeof(iv0));

	/* no key yet: -ENOKEY, nothing written */
	memset(dst, 0xa5, sizeof(dst));
	memcpy(iv, iv0, 16);
	rc = bc_skcipher_encrypt(tfm, iv, src, dst, 32);
	CHECK(rc == -ENOKEY, "encrypt without key: %d", rc);
	rc = bc_skcipher_decrypt(tfm, iv, src, dst, 32);
	CHECK(rc == -ENOKEY, "decrypt without key: %d", rc);
	CHECK(untouched(dst, sizeof(dst), 0xa5) && !memcmp(iv, iv0, 16), "refused call wrote dst or IV");

	/* a bad key on a fresh tfm leaves it keyless */
	rc = bc_skcipher_setkey(tfm, key, 3);
	CHECK(rc == -EINVAL, "setkey(3): %d", rc);
	rc = bc_skcipher_encrypt(tfm, iv, src, dst, 32);
	CHECK(rc == -ENOKEY, "encrypt after a refused first key: %d", rc);

	/* every wrong key length is refused and the previous key keeps working */
	make_key(key, sizeof(key), 1);
	rc = bc_skcipher_setkey(tfm, key, sizes[0]);
	CHECK(rc == 0, "setkey(%u): %d", sizes[0], rc);
	memcpy(iv, iv0, 16);
	rc = bc_skcipher_encrypt(tfm, iv, src, ref, 64);
	CHECK(rc == 0, "encrypt: %d", rc);
	for (size_t i = 0; i < sizeof(bad_key_lens) / sizeof(bad_key_lens[0]); i++) {
		size_t kl = bad_key_lens[i];
		if (alg_key_ok(sizes, kl))
			continue;
		make_key(key2, sizeof(key2), 99);
		rc = bc_skcipher_setkey(tfm, key2, kl);
		CHECK(rc == -EINVAL, "setkey(%zu) should be refused: %d", kl, rc);
		memcpy(iv, iv0, 16);
		rc = bc_skcipher_encrypt(tfm, iv, src, dst, 64);
		CHECK(rc == 0 && !memcmp(dst, ref, 64), "old key lost after refused setkey(%zu)", kl);
	}
	for (int i = 0; i < 4 && sizes[i]; i++) {
		rc = bc_skcipher_setkey(tfm, key, sizes[i]);
		CHECK(rc == 0, "setkey(%u): %d", sizes[i], rc);
	}
	rc = bc_skcipher_setkey(tfm, key, sizes[0]);

	/* xts: equal halves refused unless BC_ALLOW_WEAK_KEYS */
	if (xts) {
		for (int i = 0; i < 4 && sizes[i]; i++) {
			size_t kl = sizes[i];
			bc_skcipher_setkey(tfm, key, sizes[0]);
			memcpy(key2, key, kl / 2);
			memcpy(key2 + kl / 2, key, kl / 2);
			rc = bc_skcipher_setkey(tfm, key2, kl);
			CHECK(rc == -EINVAL, "xts equal halves (%zu) accepted: %d", kl, rc);
			memcpy(iv, iv0, 16);
			rc = bc_skcipher_encrypt(tfm, iv, src, dst, 64);
			CHECK(rc == 0 && !memcmp(dst, ref, 64), "old key lost after refused weak key");
			key2[kl - 1] ^= 1;
			rc = bc_skcipher_setkey(tfm, key2, kl);
			CHECK(rc == 0, "xts halves differing in one bit refused: %d", rc);
		}
		bc_skcipher *weak;
		rc = bc_skcipher_alloc(&weak, drv);
		CHECK(rc == 0, "alloc: %d", rc);
		if (!rc) {
			memcpy(key2, key, sizes[0] / 2);
			memcpy(key2 + sizes[0] / 2, key, sizes[0] / 2);
			bc_skcipher_set_flags(weak, BC_ALLOW_WEAK_KEYS);
			rc = bc_skcipher_setkey(weak, key2, sizes[0]);
			CHECK(rc == 0, "equal halves with BC_ALLOW_WEAK_KEYS: %d", rc);
			memcpy(iv, iv0, 16);
			rc = bc_skcipher_encrypt(weak, iv, src, dst, 48);
			CHECK(rc == 0, "encrypt under a weak key: %d", rc);
			bc_skcipher_free(weak);
		}
		bc_skcipher_setkey(tfm, key, sizes[0]);
	}

	/* des: the four weak keys (any parity bits) refused unless BC_ALLOW_WEAK_KEYS, as the kernel
	 * does with CRYPTO_TFM_REQ_FORBID_WEAK_KEYS; semi-weak keys pass (the kernel checks only these) */
	if (des) {
		static const uint8_t weak[][8] = {
			{ 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01 }, { 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe },
			{ 0x1f, 0x1f, 0x1f, 0x1f, 0x0e, 0x0e, 0x0e, 0x0e }, { 0xe0, 0xe0, 0xe0, 0xe0, 0xf1, 0xf1, 0xf1, 0xf1 },
			{ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 }, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
			{ 0x1e, 0x1f, 0x1e, 0x1f, 0x0f, 0x0e, 0x0f, 0x0e }, { 0xe1, 0xe0, 0xe1, 0xe0, 0xf0, 0xf1, 0xf0, 0xf1 },
		};
		static const uint8_t semiweak[8] = { 0x01, 0xfe, 0x01, 0xfe, 0x01, 0xfe, 0x01, 0xfe };
		for (size_t w = 0; w < sizeof(weak) / sizeof(weak[0]); w++) {
			rc = bc_skcipher_setkey(tfm, weak[w], 8);
			CHECK(rc == -EINVAL, "des weak key %zu accepted: %d", w, rc);
			memcpy(iv, iv0, 16);
			rc = bc_skcipher_encrypt(tfm, iv, src, dst, 64);
			CHECK(rc == 0 && !memcmp(dst, ref, 64), "old key lost after a refused weak key");
		}
		memcpy(key2, weak[0], 8);
		key2[7] ^= 0x02;   /* one key bit away from a weak key */
		rc = bc_skcipher_setkey(tfm, key2, 8);
		CHECK(rc == 0, "a key next to a weak one refused: %d", rc);
		rc = bc_skcipher_setkey(tfm, semiweak, 8);
		CHECK(rc == 0, "semi-weak key refused: %d", rc);
		bc_skcipher *weak_ok;
		if (!bc_skcipher_alloc(&weak_ok, drv)) {
			bc_skcipher_set_flags(weak_ok, BC_ALLOW_WEAK_KEYS);
			rc = bc_skcipher_setkey(weak_ok, weak[0], 8);
			CHECK(rc == 0, "weak key with BC_ALLOW_WEAK_KEYS: %d", rc);
			bc_skcipher_free(weak_ok);
		}
		bc_skcipher_setkey(tfm, key, sizes[0]);
	}
	/* des3_ede: K1 == K2 or K2 == K3 (RFC 2451: single DES) refused unless BC_ALLOW_WEAK_KEYS;
	 * K1 == K3 (keying option 2) accepted, as by the kernel outside FIPS mode */
	if (des3) {
		static const struct { int a, b; } eq[] = { { 0, 1 }, { 1, 2 }, { 0, 2 } };
		for (size_t e = 0; e < 4; e++) {
			make_key(key2, 24, 42);
			if (e < 3)
				memcpy(key2 + 8 * eq[e].b, key2 + 8 * eq[e].a, 8);
			else
				memcpy(key2 + 16, memcpy(key2 + 8, key2, 8), 8);   /* K1 = K2 = K3 */
			int refuse = e != 2;
			bc_skcipher_setkey(tfm, key, sizes[0]);
			rc = bc_skcipher_setkey(tfm, key2, 24);
			CHECK(rc == (refuse ? -EINVAL : 0), "des3_ede equal parts (case %zu): %d", e, rc);
			if (refuse) {
				memcpy(iv, iv0, 16);
				rc = bc_skcipher_encrypt(tfm, iv, src, dst, 64);
				CHECK(rc == 0 && !memcmp(dst, ref, 64), "old key lost after refused equal parts");
				bc_skcipher *weak_ok;
				if (!bc_skcipher_alloc(&weak_ok, drv)) {
					bc_skcipher_set_flags(weak_ok, BC_ALLOW_WEAK_KEYS);
					rc = bc_skcipher_setkey(weak_ok, key2, 24);
					CHECK(rc == 0, "equal parts with BC_ALLOW_WEAK_KEYS: %d", rc);
					bc_skcipher_free(weak_ok);
				}
			}
		}
		bc_skcipher_setkey(tfm, key, sizes[0]);
	}

	/* lengths (alg_len_ok): ecb, cbc, essiv take multiples of 16, cts and xts at least 16, ctr anything */
	for (size_t len = 0; len <= 80; len++) {
		int ok = alg_len_ok(alg, len);
		for (int dec = 0; dec < 2; dec++) {
			memset(dst, 0xa5, sizeof(dst));
			memcpy(iv, iv0, 16);
			rc = dec ? bc_skcipher_decrypt(tfm, ecb ? NULL : iv, src, dst, len)
			         : bc_skcipher_encrypt(tfm, ecb ? NULL : iv, src, dst, len);
			if (ok) {
				CHECK(rc == 0, "%s of %zu bytes: %d", dec ? "decrypt" : "encrypt", len, rc);
				CHECK(untouched(dst + len, sizeof(dst) - len, 0xa5), "%s of %zu bytes wrote past dst",
				      dec ? "decrypt" : "encrypt", len);
			} else {
				CHECK(rc == -EINVAL, "%s of %zu bytes should be refused: %d", dec ? "decrypt" : "encrypt", len, rc);
				CHECK(untouched(dst, sizeof(dst), 0xa5), "refused %s wrote dst", dec ? "decrypt" : "encrypt");
				CHECK(!memcmp(iv, iv0, 16), "refused %s changed the IV", dec ? "decrypt" : "encrypt");
			}
		}
	}
	/* in place, refused: the buffer stays as it was */
	if (!ctr) {
		memcpy(ref2, src, sizeof(ref2));
		memcpy(iv, iv0, 16);
		rc = bc_skcipher_encrypt(tfm, ecb ? NULL : iv, ref2, ref2, 15);
		CHECK(rc == -EINVAL && !memcmp(ref2, src, sizeof(ref2)), "refused in-place call changed the buffer: %d", rc);
	}
	/* the IV is left alone by every mode but cbc and ctr */
	if (!ecb && !ctr && !starts(alg, "cbc(")) {
		memcpy(iv, iv0, 16);
		rc = bc_skcipher_encrypt(tfm, iv, src, dst, 48);
		CHECK(rc == 0 && !memcmp(iv, iv0, 16), "%s changed the IV", alg);
		rc = bc_skcipher_decrypt(tfm, iv, src, dst, 48);
		CHECK(rc == 0 && !memcmp(iv, iv0, 16), "%s changed the IV on decrypt", alg);
	}
	/* ecb accepts a NULL IV (above); the others need one */
	if (!ecb) {
		memset(dst, 0xa5, sizeof(dst));
		rc = bc_skcipher_encrypt(tfm, NULL, src, dst, 32);
		CHECK(rc == -EINVAL && untouched(dst, sizeof(dst), 0xa5), "encrypt with a NULL IV: %d", rc);
		rc = bc_skcipher_decrypt(tfm, NULL, src, dst, 32);
		CHECK(rc == -EINVAL && untouched(dst, sizeof(dst), 0xa5), "decrypt with a NULL IV: %d", rc);
	}
	bc_skcipher_free(tfm);
}

/* ---- aead ------------------------------------------------------------------------------------ */
static void aead_errors(const struct bc_driver_info *info)
{
	const char *alg = info->name, *drv = info->driver;
	unsigned sizes[4];
	uint8_t key[64], key2[160], iv[64], ad[24], pt[40], ct[40], buf[56], tag[16], tag2[16 + 8], ref[40], reftag[16];
	bc_aead *tfm;
	int rc;

	alg_key_sizes(alg, sizes);
	set_context("%s [%s]", alg, drv);
	rc = bc_aead_alloc(&tfm, drv);
	CHECK(rc == 0, "alloc: %d", rc);
	if (rc)
		return;
	rng_fill(iv, sizeof(iv));
	rng_fill(ad, sizeof(ad));
	rng_fill(pt, sizeof(pt));
	CHECK(bc_aead_authsize(tfm) == 16, "default authsize %zu", bc_aead_authsize(tfm));

	memset(buf, 0xa5, sizeof(buf));
	memset(tag, 0xa5, sizeof(tag));
	rc = bc_aead_encrypt(tfm, iv, 12, ad, sizeof(ad), pt, buf, sizeof(pt), tag);
	CHECK(rc == -ENOKEY, "encrypt without key: %d", rc);
	rc = bc_aead_decrypt(tfm, iv, 12, ad, sizeof(ad), pt, buf, sizeof(pt), tag);
	CHECK(rc == -ENOKEY, "decrypt without key: %d", rc);
	CHECK(untouched(buf, sizeof(buf), 0xa5) && untouched(tag, 16, 0xa5), "refused call wrote its output");

	make_key(key, sizeof(key), 3);
	rc = bc_aead_setkey(tfm, key, sizes[0]);
	CHECK(rc == 0, "setkey: %d", rc);
	rc = bc_aead_encrypt(tfm, iv, 12, ad, sizeof(ad), pt, ref, sizeof(pt), reftag);
	CHECK(rc == 0, "encrypt: %d", rc);
	for (size_t i = 0; i < sizeof(bad_key_lens) / sizeof(bad_key_lens[0]); i++) {
		size_t kl = bad_key_lens[i];
		if (alg_key_ok(sizes, kl))
			continue;
		make_key(key2, sizeof(key2), 77);
		rc = bc_aead_setkey(tfm, key2, kl);
		CHECK(rc == -EINVAL, "setkey(%zu) should be refused: %d", kl, rc);
		rc = bc_aead_encrypt(tfm, iv, 12, ad, sizeof(ad), pt, ct, sizeof(pt), tag);
		CHECK(rc == 0 && !memcmp(ct, ref, sizeof(pt)) && !memcmp(tag, reftag, 16), "old key lost after setkey(%zu)", kl);
	}

	/* tag lengths: 4, 8, 12..16 */
	for (size_t t = 0; t <= 32; t++) {
		int ok = t == 4 || t == 8 || (t >= 12 && t <= 16);
		rc = bc_aead_setauthsize(tfm, 13);
		rc = bc_aead_setauthsize(tfm, t);
		if (ok) {
			CHECK(rc == 0 && bc_aead_authsize(tfm) == t, "setauthsize(%zu): %d", t, rc);
		} else {
			CHECK(rc == -EINVAL, "setauthsize(%zu) should be refused: %d", t, rc);
			CHECK(bc_aead_authsize(tfm) == 13, "refused setauthsize(%zu) changed the authsize", t);
		}
	}

	/* ivlen 0 refused, nothing written */
	bc_aead_setauthsize(tfm, 16);
	memset(buf, 0xa5, sizeof(buf));
	memset(tag, 0xa5, sizeof(tag));
	rc = bc_aead_encrypt(tfm, iv, 0, ad, sizeof(ad), pt, buf, sizeof(pt), tag);
	CHECK(rc == -EINVAL, "encrypt with ivlen 0: %d", rc);
	rc = bc_aead_decrypt(tfm, iv, 0, ad, sizeof(ad), ref, buf, sizeof(pt), reftag);
	CHECK(rc == -EINVAL, "decrypt with ivlen 0: %d", rc);
	CHECK(untouched(buf, sizeof(buf), 0xa5) && untouched(tag, 16, 0xa5), "refused ivlen 0 wrote its output");

	/* every single-bit flip of tag, ciphertext, AAD and IV fails with -EBADMSG and a zeroed dst */
	static const size_t taglens[] = { 16, 12, 8, 4 };
	for (size_t ti = 0; ti < sizeof(taglens) / sizeof(taglens[0]); ti++) {
		size_t tl = taglens[ti];
		rc = bc_aead_setauthsize(tfm, tl);
		memset(tag2, 0xa5, sizeof(tag2));
		rc |= bc_aead_encrypt(tfm, iv, 12, ad, sizeof(ad), pt, ct, sizeof(pt), tag2);
		CHECK(rc == 0 && untouched(tag2 + tl, sizeof(tag2) - tl, 0xa5), "encrypt with taglen %zu: %d", tl, rc);
		rc = bc_aead_decrypt(tfm, iv, 12, ad, sizeof(ad), ct, buf, sizeof(pt), tag2);
		CHECK(rc == 0 && !memcmp(buf, pt, sizeof(pt)), "decrypt with taglen %zu: %d", tl, rc);
		size_t nbits = 8 * (tl + sizeof(ct) + sizeof(ad) + 12);
		size_t fails = 0;
		for (size_t b = 0; b < nbits; b++) {
			size_t byte = b / 8;
			uint8_t bit = (uint8_t)(1u << (b % 8));
			uint8_t *field;
			if (byte < tl) {
				field = tag2;
			} else if ((byte -= tl) < sizeof(ct)) {
				field = ct;
			} else if ((byte -= sizeof(ct)) < sizeof(ad)) {
				field = ad;
			} else {
				byte -= sizeof(ad);
				field = iv;
			}
			field[byte] ^= bit;
			memset(buf, 0xa5, sizeof(buf));
			rc = bc_aead_decrypt(tfm, iv, 12, ad, sizeof(ad), ct, buf, sizeof(pt), tag2);
			field[byte] ^= bit;
			if (rc != -EBADMSG || !untouched(buf, sizeof(pt), 0) || !untouched(buf + sizeof(pt), sizeof(buf) - sizeof(pt), 0xa5))
				fails++;
		}
		CHECK(fails == 0, "taglen %zu: %zu single-bit flips not rejected with -EBADMSG and a zeroed dst", tl, fails);
		/* in place: the ciphertext is replaced by zeros */
		memcpy(buf, ct, sizeof(ct));
		tag2[0] ^= 0x80;
		rc = bc_aead_decrypt(tfm, iv, 12, ad, sizeof(ad), buf, buf, sizeof(ct), tag2);
		tag2[0] ^= 0x80;
		CHECK(rc == -EBADMSG && untouched(buf, sizeof(ct), 0), "in-place decrypt with a bad tag: %d", rc);
	}
	bc_aead_free(tfm);
}

/* ---- shash ------------------------------------------------------------------------------------- */
static void shash_errors(const struct bc_driver_info *info)
{
	const char *alg = info->name, *drv = info->driver;
	unsigned sizes[4];
	uint8_t key[160], key2[160], msg[100], out[80], ref[64];
	bc_shash *tfm;
	int rc;

	alg_key_sizes(alg, sizes);
	set_context("%s [%s]", alg, drv);
	rc = bc_shash_alloc(&tfm, drv);
	CHECK(rc == 0, "alloc: %d", rc);
	if (rc)
		return;
	rng_fill(msg, sizeof(msg));
	size_t dl = bc_shash_digestsize(tfm);
	CHECK(dl >= (strstr(alg, "(des3_ede)") ? 8u : 16u) && dl <= 64, "digestsize %zu", dl);   /* cmac(des3_ede): 8 */
	const uint8_t *msgs[2] = { msg, msg + 10 };
	size_t lens[2] = { 50, 33 };
	uint8_t o1[64], o2[64];
	uint8_t *outs[2] = { o1, o2 };

	if (!sizes[0]) {
		/* unkeyed: works without a key */
		rc = bc_shash_digest(tfm, msg, sizeof(msg), out);
		CHECK(rc == 0, "unkeyed digest: %d", rc);
		bc_shash_free(tfm);
		return;
	}
	memset(out, 0xa5, sizeof(out));
	rc = bc_shash_digest(tfm, msg, sizeof(msg), out);
	CHECK(rc == -ENOKEY, "digest without key: %d", rc);
	rc = bc_shash_init(tfm);
	CHECK(rc == -ENOKEY, "init without key: %d", rc);
	memset(o1, 0xa5, sizeof(o1));
	rc = bc_shash_digest_many(tfm, 2, msgs, lens, outs);
	CHECK(rc == -ENOKEY, "digest_many without key: %d", rc);
	CHECK(untouched(out, sizeof(out), 0xa5) && untouched(o1, sizeof(o1), 0xa5), "refused call wrote its output");

	make_key(key, sizeof(key), 5);
	rc = bc_shash_setkey(tfm, key, sizes[0]);
	CHECK(rc == 0, "setkey(%u): %d", sizes[0], rc);
	rc = bc_shash_digest(tfm, msg, sizeof(msg), ref);
	CHECK(rc == 0, "digest: %d", rc);
	for (size_t i = 0; i < sizeof(bad_key_lens) / sizeof(bad_key_lens[0]); i++) {
		size_t kl = bad_key_lens[i];
		if (alg_key_ok(sizes, kl))
			continue;
		make_key(key2, sizeof(key2), 55);
		rc = bc_shash_setkey(tfm, key2, kl);
		CHECK(rc == -EINVAL, "setkey(%zu) should be refused: %d", kl, rc);
		rc = bc_shash_digest(tfm, msg, sizeof(msg), out);
		CHECK(rc == 0 && !memcmp(out, ref, dl), "old key lost after setkey(%zu)", kl);
	}
	/* a refused digest in the middle of a message leaves the running state alone */
	rc = bc_shash_init(tfm);
	rc |= bc_shash_update(tfm, msg, 37);
	CHECK(bc_shash_digest(tfm, msg, sizeof(msg), NULL) == -EINVAL, "digest to NULL should be refused");
	CHECK(bc_shash_digest(tfm, NULL, 5, out) == -EINVAL, "digest of NULL data should be refused");
	rc |= bc_shash_update(tfm, msg + 37, sizeof(msg) - 37);
	rc |= bc_shash_final(tfm, out);
	CHECK(rc == 0 && !memcmp(out, ref, dl), "a refused digest changed the running state");
	/* a refused setkey in the middle of a message leaves the running state alone */
	rc = bc_shash_init(tfm);
	rc |= bc_shash_update(tfm, msg, 37);
	CHECK(bc_shash_setkey(tfm, key2, 3) == -EINVAL, "setkey(3) should be refused");
	rc |= bc_shash_update(tfm, msg + 37, sizeof(msg) - 37);
	rc |= bc_shash_final(tfm, out);
	CHECK(rc == 0 && !memcmp(out, ref, dl), "running state changed by a refused setkey");
	/* digest_many with n = 0 does nothing */
	rc = bc_shash_digest_many(tfm, 0, msgs, lens, outs);
	CHECK(rc == 0, "digest_many(0): %d", rc);
	bc_shash_free(tfm);
}

/* ---- names -------------------------------------------------------------------------------------- */
static void name_errors(void)
{
	static const char *bad[] = { "", "foo", "cbc(des4)", "cbc(aes", "cbc(aes))", "xts(aes-generic-nope)", "ecb()",
		"cbc(sm4)x", "gcm(des)", "cmac(sha256)", "essiv(cbc(aes),md5)", "sha1", "aes-generic-xyz", "CBC(AES)",
		/* templates that need a 16-byte block do not build over des and des3_ede (as in the kernel) */
		"xts(des3_ede)", "xts(des)", "gcm(des3_ede)", "xcbc(des3_ede)", "xts(ecb(des3_ede-generic))",
		"gcm_base(ctr(des3_ede-generic),ghash-generic)", "essiv(cbc(des3_ede),sha256)",
		"cts(cbc(des3_ede))" };
	set_context("names");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		bc_skcipher *s = NULL;
		bc_aead *a = NULL;
		bc_shash *h = NULL;
		int r1 = bc_skcipher_alloc(&s, bad[i]), r2 = bc_aead_alloc(&a, bad[i]), r3 = bc_shash_alloc(&h, bad[i]);
		CHECK(r1 == -ENOENT && r2 == -ENOENT && r3 == -ENOENT, "\"%s\": %d %d %d, want -ENOENT", bad[i], r1, r2, r3);
		if (!r1)
			bc_skcipher_free(s);
		if (!r2)
			bc_aead_free(a);
		if (!r3)
			bc_shash_free(h);
	}
	/* a name of the wrong type is unknown to that allocator */
	static const struct { const char *name; int sk, ae, sh; } typed[] = {
		{ "cbc(aes)", 0, -ENOENT, -ENOENT }, { "gcm(aes)", -ENOENT, 0, -ENOENT }, { "cmac(aes)", -ENOENT, -ENOENT, 0 },
		{ "sha256", -ENOENT, -ENOENT, 0 }, { "aes", -ENOENT, -ENOENT, -ENOENT }, { "sm4", -ENOENT, -ENOENT, -ENOENT },
		{ "cbc(des3_ede)", 0, -ENOENT, -ENOENT }, { "cmac(des3_ede)", -ENOENT, -ENOENT, 0 },
		{ "des3_ede", -ENOENT, -ENOENT, -ENOENT },
	};
	for (size_t i = 0; i < sizeof(typed) / sizeof(typed[0]); i++) {
		bc_skcipher *s = NULL;
		bc_aead *a = NULL;
		bc_shash *h = NULL;
		int r1 = bc_skcipher_alloc(&s, typed[i].name), r2 = bc_aead_alloc(&a, typed[i].name);
		int r3 = bc_shash_alloc(&h, typed[i].name);
		CHECK(r1 == typed[i].sk && r2 == typed[i].ae && r3 == typed[i].sh, "\"%s\": skcipher %d aead %d shash %d",
		      typed[i].name, r1, r2, r3);
		if (!r1)
			bc_skcipher_free(s);
		if (!r2)
			bc_aead_free(a);
		if (!r3)
			bc_shash_free(h);
	}
}

/* Every algorithm name the contract promises must be listed. */
static const char *const required[] = {
	"ecb(aes)", "cbc(aes)", "ctr(aes)", "cts(cbc(aes))", "xts(aes)", "essiv(cbc(aes),sha256)", "gcm(aes)",
	"cmac(aes)", "xcbc(aes)", "cbcmac(aes)", "ecb(sm4)", "cbc(sm4)", "ctr(sm4)", "cts(cbc(sm4))", "xts(sm4)",
	"essiv(cbc(sm4),sm3)", "gcm(sm4)", "cmac(sm4)", "xcbc(sm4)", "cbcmac(sm4)", "sha256", "sm3", "ghash",
};

#define MAX_ALL 256
static struct bc_driver_info all[MAX_ALL];
static size_t nall;

static int collect(const struct bc_driver_info *info, void *arg)
{
	(void)arg;
	if (info->type != BC_TYPE_CIPHER && nall < MAX_ALL) {
		all[nall] = *info;
		all[nall].name = strdup(info->name);
		all[nall].driver = strdup(info->driver);
		nall++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	(void)argc;
	test_init();
	rng_seed(0x5eed0e22);
	bc_list_drivers(collect, NULL);
	printf("test_errors: %zu drivers; CPU features: %s\n", nall, bc_cpu_features_string());
	for (size_t r = 0; r < sizeof(required) / sizeof(required[0]); r++) {
		size_t k = 0;
		while (k < nall && strcmp(all[k].name, required[r]))
			k++;
		set_context("registry");
		CHECK(k < nall, "no driver listed for %s", required[r]);
	}
	name_errors();
	for (size_t i = 0; i < nall; i++) {
		switch (all[i].type) {
		case BC_TYPE_SKCIPHER: skcipher_errors(&all[i]); break;
		case BC_TYPE_AEAD: aead_errors(&all[i]); break;
		case BC_TYPE_SHASH: shash_errors(&all[i]); break;
		case BC_TYPE_CIPHER: break;
		}
	}
	for (size_t i = 0; i < nall; i++) {
		free((char *)all[i].name);
		free((char *)all[i].driver);
	}
	return test_summary(argv[0]);
}
