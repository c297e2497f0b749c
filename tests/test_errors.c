/* Error paths: every bad input is refused with the right errno and changes nothing (dst, IV, key state).
 * Contract: include/blockcrypt.h and the Linux crypto API (crypto/skcipher.c, aead.c, shash.c, xts.c, cts.c, gcm.c). */
#include "common.h"
#include "common_tmpl.h"

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
	uint8_t key[160], key2[160], iv[32], iv0[32], src[96], dst[112], ref[96], ref2[96];
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
	/* hctr2, adiantum: the kernel's 32-byte tweak, the only length there is */
	int tweak32 = starts(alg, "hctr2(") || starts(alg, "adiantum(");
	CHECK(ivsize == (ecb ? 0u : des || des3 ? 8u : tweak32 ? 32u : 16u), "ivsize %zu", ivsize);
	CHECK(info->min_keysize == (alg_key_any_ok(alg, 0) ? 0 : sizes[0]), "min_keysize %u", info->min_keysize);

	rng_fill(src, sizeof(src));
	rng_fill(iv0, sizeof(iv0));

	/* no key yet: -ENOKEY, nothing written */
	memset(dst, 0xa5, sizeof(dst));
	memcpy(iv, iv0, sizeof(iv));
	rc = bc_skcipher_encrypt(tfm, iv, src, dst, 32);
	CHECK(rc == -ENOKEY, "encrypt without key: %d", rc);
	rc = bc_skcipher_decrypt(tfm, iv, src, dst, 32);
	CHECK(rc == -ENOKEY, "decrypt without key: %d", rc);
	CHECK(untouched(dst, sizeof(dst), 0xa5) && !memcmp(iv, iv0, sizeof(iv)), "refused call wrote dst or IV");

	/* a bad key on a fresh tfm leaves it keyless */
	rc = bc_skcipher_setkey(tfm, key, alg_key_any_ok(alg, 3) ? 65 : 3);
	CHECK(rc == -EINVAL, "setkey(3): %d", rc);
	rc = bc_skcipher_encrypt(tfm, iv, src, dst, 32);
	CHECK(rc == -ENOKEY, "encrypt after a refused first key: %d", rc);

	/* every wrong key length is refused and the previous key keeps working */
	make_key(key, sizeof(key), 1);
	rc = bc_skcipher_setkey(tfm, key, sizes[0]);
	CHECK(rc == 0, "setkey(%u): %d", sizes[0], rc);
	memcpy(iv, iv0, sizeof(iv));
	rc = bc_skcipher_encrypt(tfm, iv, src, ref, 64);
	CHECK(rc == 0, "encrypt: %d", rc);
	for (size_t i = 0; i < sizeof(bad_key_lens) / sizeof(bad_key_lens[0]); i++) {
		size_t kl = bad_key_lens[i];
		if (alg_key_ok(sizes, kl) || alg_key_any_ok(alg, kl))
			continue;
		make_key(key2, sizeof(key2), 99);
		rc = bc_skcipher_setkey(tfm, key2, kl);
		CHECK(rc == -EINVAL, "setkey(%zu) should be refused: %d", kl, rc);
		memcpy(iv, iv0, sizeof(iv));
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
			memcpy(iv, iv0, sizeof(iv));
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
			memcpy(iv, iv0, sizeof(iv));
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
			memcpy(iv, iv0, sizeof(iv));
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
				memcpy(iv, iv0, sizeof(iv));
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
			memcpy(iv, iv0, sizeof(iv));
			rc = dec ? bc_skcipher_decrypt(tfm, ecb ? NULL : iv, src, dst, len)
			         : bc_skcipher_encrypt(tfm, ecb ? NULL : iv, src, dst, len);
			if (ok) {
				CHECK(rc == 0, "%s of %zu bytes: %d", dec ? "decrypt" : "encrypt", len, rc);
				CHECK(untouched(dst + len, sizeof(dst) - len, 0xa5), "%s of %zu bytes wrote past dst",
				      dec ? "decrypt" : "encrypt", len);
			} else {
				CHECK(rc == -EINVAL, "%s of %zu bytes should be refused: %d", dec ? "decrypt" : "encrypt", len, rc);
				CHECK(untouched(dst, sizeof(dst), 0xa5), "refused %s wrote dst", dec ? "decrypt" : "encrypt");
				CHECK(!memcmp(iv, iv0, sizeof(iv)), "refused %s changed the IV", dec ? "decrypt" : "encrypt");
			}
		}
	}
	/* in place, refused: the buffer stays as it was */
	if (!alg_len_ok(alg, 15)) {
		memcpy(ref2, src, sizeof(ref2));
		memcpy(iv, iv0, sizeof(iv));
		rc = bc_skcipher_encrypt(tfm, ecb ? NULL : iv, ref2, ref2, 15);
		CHECK(rc == -EINVAL && !memcmp(ref2, src, sizeof(ref2)), "refused in-place call changed the buffer: %d", rc);
	}
	/* the IV is left alone by every mode but cbc and ctr */
	if (!ecb && !ctr && !starts(alg, "cbc(")) {
		memcpy(iv, iv0, sizeof(iv));
		rc = bc_skcipher_encrypt(tfm, iv, src, dst, 48);
		CHECK(rc == 0 && !memcmp(iv, iv0, sizeof(iv)), "%s changed the IV", alg);
		rc = bc_skcipher_decrypt(tfm, iv, src, dst, 48);
		CHECK(rc == 0 && !memcmp(iv, iv0, sizeof(iv)), "%s changed the IV on decrypt", alg);
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
/* ccm's own refusals, each with nothing written: an L outside 2..8 (iv[0]
 * outside 1..7) or an IV other than 16 bytes (-EINVAL), a text longer than
 * L bytes can count (-EOVERFLOW: 2^16 bytes with L = 2, while 2^16 - 1 is
 * accepted), and the incremental form, which ccm does not have (-EINVAL). */
static void ccm_errors(bc_aead *tfm)
{
	static const uint8_t bad_l[] = { 0, 8, 9, 0x80, 0xff };
	const size_t big = 1 << 16;
	uint8_t iv[16], ad[8], tag[16], *pt = calloc(1, big), *buf = malloc(big + 16);
	bc_aead_req *req;
	int rc;

	if (!pt || !buf)
		abort();
	rng_fill(iv, sizeof(iv));
	rng_fill(ad, sizeof(ad));
	bc_aead_setauthsize(tfm, 16);
	for (size_t i = 0; i < sizeof(bad_l); i++) {
		iv[0] = bad_l[i];
		memset(buf, 0xa5, 64);
		memset(tag, 0xa5, sizeof(tag));
		rc = bc_aead_encrypt(tfm, iv, 16, ad, sizeof(ad), pt, buf, 40, tag);
		CHECK(rc == -EINVAL, "encrypt with iv[0] = %u: %d", bad_l[i], rc);
		rc = bc_aead_decrypt(tfm, iv, 16, ad, sizeof(ad), pt, buf, 40, tag);
		CHECK(rc == -EINVAL, "decrypt with iv[0] = %u: %d", bad_l[i], rc);
		CHECK(untouched(buf, 64, 0xa5) && untouched(tag, 16, 0xa5), "refused iv[0] = %u wrote its output", bad_l[i]);
	}
	iv[0] = 3;
	for (size_t l = 1; l <= 20; l++) {
		if (l == 16)
			continue;
		memset(buf, 0xa5, 64);
		rc = bc_aead_encrypt(tfm, iv, l, ad, sizeof(ad), pt, buf, 40, tag);
		CHECK(rc == -EINVAL, "encrypt with ivlen %zu: %d", l, rc);
		rc = bc_aead_decrypt(tfm, iv, l, ad, sizeof(ad), pt, buf, 40, tag);
		CHECK(rc == -EINVAL, "decrypt with ivlen %zu: %d", l, rc);
		CHECK(untouched(buf, 64, 0xa5) && untouched(tag, 16, 0xa5), "refused ivlen %zu wrote its output", l);
	}
	iv[0] = 1;   /* L = 2 */
	memset(buf, 0xa5, big + 16);
	memset(tag, 0xa5, sizeof(tag));
	rc = bc_aead_encrypt(tfm, iv, 16, ad, sizeof(ad), pt, buf, big, tag);
	CHECK(rc == -EOVERFLOW, "encrypt of 2^16 bytes with L = 2: %d", rc);
	rc = bc_aead_decrypt(tfm, iv, 16, ad, sizeof(ad), pt, buf, big, tag);
	CHECK(rc == -EOVERFLOW, "decrypt of 2^16 bytes with L = 2: %d", rc);
	CHECK(untouched(buf, big + 16, 0xa5) && untouched(tag, 16, 0xa5), "refused long text wrote its output");
	rc = bc_aead_encrypt(tfm, iv, 16, ad, sizeof(ad), pt, buf, big - 1, tag);
	CHECK(rc == 0 && buf[big - 1] == 0xa5, "encrypt of 2^16 - 1 bytes with L = 2: %d", rc);
	rc = bc_aead_decrypt(tfm, iv, 16, ad, sizeof(ad), buf, buf, big - 1, tag);
	CHECK(rc == 0 && untouched(buf, big - 1, 0), "decrypt of 2^16 - 1 bytes with L = 2: %d", rc);
	req = (bc_aead_req *)1;
	rc = bc_aead_req_alloc(&req, tfm);
	CHECK(rc == -EINVAL && !req, "ccm has no incremental form: %d", rc);
	free(pt);
	free(buf);
}

static void aead_errors(const struct bc_driver_info *info)
{
	const char *alg = info->name, *drv = info->driver;
	unsigned sizes[4];
	uint8_t key[64], key2[160], iv[64], ad[24], pt[40], ct[40], buf[56], tag[16], tag2[16 + 8], ref[40], reftag[16];
	bc_aead *tfm;
	int rc, ccm = !strncmp(alg, "ccm(", 4);
	/* ccm: the kernel's 16-byte IV with L = 4; only its nonce bytes are flipped
	 * below (a flip of iv[0] changes L, the counter field is ignored) */
	size_t ivl = ccm ? 16 : 12, flip_off = ccm ? 1 : 0, flip_len = ccm ? 11 : 12;

	alg_key_sizes(alg, sizes);
	set_context("%s [%s]", alg, drv);
	rc = bc_aead_alloc(&tfm, drv);
	CHECK(rc == 0, "alloc: %d", rc);
	if (rc)
		return;
	rng_fill(iv, sizeof(iv));
	rng_fill(ad, sizeof(ad));
	rng_fill(pt, sizeof(pt));
	if (ccm)
		iv[0] = 3;
	CHECK(bc_aead_authsize(tfm) == 16, "default authsize %zu", bc_aead_authsize(tfm));

	memset(buf, 0xa5, sizeof(buf));
	memset(tag, 0xa5, sizeof(tag));
	rc = bc_aead_encrypt(tfm, iv, ivl, ad, sizeof(ad), pt, buf, sizeof(pt), tag);
	CHECK(rc == -ENOKEY, "encrypt without key: %d", rc);
	rc = bc_aead_decrypt(tfm, iv, ivl, ad, sizeof(ad), pt, buf, sizeof(pt), tag);
	CHECK(rc == -ENOKEY, "decrypt without key: %d", rc);
	CHECK(untouched(buf, sizeof(buf), 0xa5) && untouched(tag, 16, 0xa5), "refused call wrote its output");

	make_key(key, sizeof(key), 3);
	rc = bc_aead_setkey(tfm, key, sizes[0]);
	CHECK(rc == 0, "setkey: %d", rc);
	rc = bc_aead_encrypt(tfm, iv, ivl, ad, sizeof(ad), pt, ref, sizeof(pt), reftag);
	CHECK(rc == 0, "encrypt: %d", rc);
	for (size_t i = 0; i < sizeof(bad_key_lens) / sizeof(bad_key_lens[0]); i++) {
		size_t kl = bad_key_lens[i];
		if (alg_key_ok(sizes, kl) || alg_key_any_ok(alg, kl))
			continue;
		make_key(key2, sizeof(key2), 77);
		rc = bc_aead_setkey(tfm, key2, kl);
		CHECK(rc == -EINVAL, "setkey(%zu) should be refused: %d", kl, rc);
		rc = bc_aead_encrypt(tfm, iv, ivl, ad, sizeof(ad), pt, ct, sizeof(pt), tag);
		CHECK(rc == 0 && !memcmp(ct, ref, sizeof(pt)) && !memcmp(tag, reftag, 16), "old key lost after setkey(%zu)", kl);
	}

	/* tag lengths: gcm 4, 8, 12..16; ccm 4, 6, ..., 16 */
	for (size_t t = 0; t <= 32; t++) {
		int ok = ccm ? t >= 4 && t <= 16 && !(t & 1) : t == 4 || t == 8 || (t >= 12 && t <= 16);
		size_t keep = ccm ? 10 : 13;   /* a valid length that no refusal may change */
		rc = bc_aead_setauthsize(tfm, keep);
		rc = bc_aead_setauthsize(tfm, t);
		if (ok) {
			CHECK(rc == 0 && bc_aead_authsize(tfm) == t, "setauthsize(%zu): %d", t, rc);
		} else {
			CHECK(rc == -EINVAL, "setauthsize(%zu) should be refused: %d", t, rc);
			CHECK(bc_aead_authsize(tfm) == keep, "refused setauthsize(%zu) changed the authsize", t);
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
		rc |= bc_aead_encrypt(tfm, iv, ivl, ad, sizeof(ad), pt, ct, sizeof(pt), tag2);
		CHECK(rc == 0 && untouched(tag2 + tl, sizeof(tag2) - tl, 0xa5), "encrypt with taglen %zu: %d", tl, rc);
		rc = bc_aead_decrypt(tfm, iv, ivl, ad, sizeof(ad), ct, buf, sizeof(pt), tag2);
		CHECK(rc == 0 && !memcmp(buf, pt, sizeof(pt)), "decrypt with taglen %zu: %d", tl, rc);
		size_t nbits = 8 * (tl + sizeof(ct) + sizeof(ad) + flip_len);
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
				byte = byte - sizeof(ad) + flip_off;
				field = iv;
			}
			field[byte] ^= bit;
			memset(buf, 0xa5, sizeof(buf));
			rc = bc_aead_decrypt(tfm, iv, ivl, ad, sizeof(ad), ct, buf, sizeof(pt), tag2);
			field[byte] ^= bit;
			if (rc != -EBADMSG || !untouched(buf, sizeof(pt), 0) || !untouched(buf + sizeof(pt), sizeof(buf) - sizeof(pt), 0xa5))
				fails++;
		}
		CHECK(fails == 0, "taglen %zu: %zu single-bit flips not rejected with -EBADMSG and a zeroed dst", tl, fails);
		/* in place: the ciphertext is replaced by zeros */
		memcpy(buf, ct, sizeof(ct));
		tag2[0] ^= 0x80;
		rc = bc_aead_decrypt(tfm, iv, ivl, ad, sizeof(ad), buf, buf, sizeof(ct), tag2);
		tag2[0] ^= 0x80;
		CHECK(rc == -EBADMSG && untouched(buf, sizeof(ct), 0), "in-place decrypt with a bad tag: %d", rc);
	}
	if (ccm)
		ccm_errors(tfm);
	bc_aead_free(tfm);
}

/* ---- shash ------------------------------------------------------------------------------------- */
static void shash_errors(const struct bc_driver_info *info)
{
	const char *alg = info->name, *drv = info->driver;
	unsigned sizes[4];
	uint8_t key[TEST_KEY_MAX], key2[TEST_KEY_MAX], msg[100], out[80], ref[64];
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
		if (alg_key_ok(sizes, kl) || alg_key_any_ok(alg, kl))
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
	CHECK(bc_shash_setkey(tfm, key2, alg_key_any_ok(alg, 3) ? 65 : 3) == -EINVAL, "setkey(3) should be refused");
	rc |= bc_shash_update(tfm, msg + 37, sizeof(msg) - 37);
	rc |= bc_shash_final(tfm, out);
	CHECK(rc == 0 && !memcmp(out, ref, dl), "running state changed by a refused setkey");
	/* digest_many with n = 0 does nothing */
	rc = bc_shash_digest_many(tfm, 0, msgs, lens, outs);
	CHECK(rc == 0, "digest_many(0): %d", rc);
	bc_shash_free(tfm);
}

/* ---- templates over whole algorithms --------------------------------------------------------------
 * hmac takes every key length; the ESP wrappers refuse keys shorter than their salt, IVs other than 8
 * bytes, associated data other than ESP's 16 or 20 bytes, and tag lengths outside their sets; authenc
 * refuses every short or lying key blob and a wrong IV or text length; a refusal changes nothing. */
static void hmac_errors(const struct bc_driver_info *info)
{
	uint8_t key[300], msg[100], out[80], ref[64];
	bc_shash *tfm;
	int rc = bc_shash_alloc(&tfm, info->driver);

	CHECK(rc == 0, "alloc: %d", rc);
	if (rc)
		return;
	size_t dl = bc_shash_digestsize(tfm);
	CHECK(info->min_keysize == 0 && info->max_keysize > 1024, "key sizes %u..%u", info->min_keysize,
	      info->max_keysize);
	memset(out, 0xa5, sizeof(out));
	rc = bc_shash_digest(tfm, msg, sizeof(msg), out);
	CHECK(rc == -ENOKEY && untouched(out, sizeof(out), 0xa5), "digest without key: %d", rc);
	rng_fill(msg, sizeof(msg));
	make_key(key, sizeof(key), 9);
	/* every length is a key, the empty one and those past the block included */
	for (size_t kl = 0; kl <= sizeof(key); kl += kl < 140 ? 1 : 23) {
		rc = bc_shash_setkey(tfm, kl ? key : NULL, kl);
		CHECK(rc == 0, "setkey(%zu): %d", kl, rc);
	}
	rc = bc_shash_setkey(tfm, key, 70) | bc_shash_digest(tfm, msg, sizeof(msg), ref);
	CHECK(rc == 0, "digest: %d", rc);
	rc = bc_shash_setkey(tfm, NULL, 5);
	CHECK(rc == -EINVAL, "setkey(NULL, 5): %d", rc);
	rc = bc_shash_digest(tfm, msg, sizeof(msg), out);
	CHECK(rc == 0 && !memcmp(out, ref, dl), "old key lost after a refused setkey");
	CHECK(bc_shash_digest(tfm, msg, sizeof(msg), NULL) == -EINVAL, "digest to NULL should be refused");
	CHECK(bc_shash_digest(tfm, NULL, 5, out) == -EINVAL, "digest of NULL data should be refused");
	/* a key longer than the block is its hash: the same MAC */
	size_t bs = info->blocksize;
	bc_shash *h;
	uint8_t hk[64];
	char hash[64];
	snprintf(hash, sizeof(hash), "%.*s", (int)(strlen(info->name) - 6), info->name + 5);
	if (bc_shash_alloc(&h, hash) == 0) {
		rc = bc_shash_digest(h, key, bs + 1, hk);
		rc |= bc_shash_setkey(tfm, key, bs + 1) | bc_shash_digest(tfm, msg, sizeof(msg), ref);
		rc |= bc_shash_setkey(tfm, hk, dl) | bc_shash_digest(tfm, msg, sizeof(msg), out);
		CHECK(rc == 0 && !memcmp(out, ref, dl), "a %zu-byte key differs from its hash", bs + 1);
		bc_shash_free(h);
	}
	bc_shash_free(tfm);
}

static void rfc3686_errors(const struct bc_driver_info *info)
{
	uint8_t key[40], iv[8], iv0[8], src[64], dst[64], ref[64];
	bc_skcipher *tfm;
	int rc = bc_skcipher_alloc(&tfm, info->driver);

	CHECK(rc == 0, "alloc: %d", rc);
	if (rc)
		return;
	CHECK(bc_skcipher_ivsize(tfm) == 8 && bc_skcipher_blocksize(tfm) == 1, "ivsize %zu blocksize %zu",
	      bc_skcipher_ivsize(tfm), bc_skcipher_blocksize(tfm));
	rng_fill(src, sizeof(src));
	rng_fill(iv0, 8);
	make_key(key, sizeof(key), 3);
	memcpy(iv, iv0, 8);
	rc = bc_skcipher_encrypt(tfm, iv, src, dst, 33);
	CHECK(rc == -ENOKEY, "encrypt without key: %d", rc);
	rc = bc_skcipher_setkey(tfm, key, info->min_keysize) | bc_skcipher_encrypt(tfm, iv, src, ref, 33);
	CHECK(rc == 0 && !memcmp(iv, iv0, 8), "setkey/encrypt: %d (or the IV changed)", rc);
	for (size_t kl = 0; kl <= sizeof(key); kl++) {
		int ok = kl == info->min_keysize || (info->max_keysize > 20 && (kl == 28 || kl == 36));
		make_key(key, sizeof(key), 31);
		rc = bc_skcipher_setkey(tfm, key, kl);
		if (ok) {
			CHECK(rc == 0, "setkey(%zu): %d", kl, rc);
			make_key(key, sizeof(key), 3);
			rc = bc_skcipher_setkey(tfm, key, info->min_keysize);
			continue;
		}
		CHECK(rc == -EINVAL, "setkey(%zu) should be refused: %d", kl, rc);
		rc = bc_skcipher_encrypt(tfm, iv, src, dst, 33);
		CHECK(rc == 0 && !memcmp(dst, ref, 33), "old key lost after setkey(%zu)", kl);
	}
	rc = bc_skcipher_encrypt(tfm, NULL, src, dst, 33);
	CHECK(rc == -EINVAL, "NULL IV: %d", rc);
	bc_skcipher_free(tfm);
}

/* Every single-bit flip of the tag, the text, the authenticated part of the associated data and (iv_auth)
 * the IV gets -EBADMSG and a zeroed dst. */
static void aead_flips(bc_aead *tfm, const uint8_t *iv, size_t ivlen, uint8_t *ad, size_t adlen, size_t ad_auth,
		       int iv_auth, const uint8_t *pt, size_t len)
{
	uint8_t ct[64], tag[64], buf[80], ivc[16];
	size_t tl = bc_aead_authsize(tfm), fails = 0;
	int rc = bc_aead_encrypt(tfm, iv, ivlen, ad, adlen, pt, ct, len, tag);

	CHECK(rc == 0, "encrypt: %d", rc);
	memcpy(ivc, iv, ivlen);
	size_t nbits = 8 * (tl + len + ad_auth + (iv_auth ? ivlen : 0));
	for (size_t b = 0; b < nbits; b++) {
		size_t byte = b / 8;
		uint8_t bit = (uint8_t)(1u << (b % 8)), *field;
		if (byte < tl) {
			field = tag;
		} else if ((byte -= tl) < len) {
			field = ct;
		} else if ((byte -= len) < ad_auth) {
			field = ad;
		} else {
			byte -= ad_auth;
			field = ivc;
		}
		field[byte] ^= bit;
		memset(buf, 0xa5, sizeof(buf));
		rc = bc_aead_decrypt(tfm, ivc, ivlen, ad, adlen, ct, buf, len, tag);
		field[byte] ^= bit;
		if (rc != -EBADMSG || !untouched(buf, len, 0) || !untouched(buf + len, sizeof(buf) - len, 0xa5))
			fails++;
	}
	CHECK(fails == 0, "taglen %zu: %zu of %zu single-bit flips not rejected with -EBADMSG and a zeroed dst", tl, fails,
	      nbits);
	rc = bc_aead_decrypt(tfm, iv, ivlen, ad, adlen, ct, buf, len, tag);
	CHECK(rc == 0 && !memcmp(buf, pt, len), "decrypt: %d", rc);
}

static void esp_errors(const struct bc_driver_info *info)
{
	int r4543 = starts(info->name, "rfc4543(");
	size_t saltlen = starts(info->name, "rfc4309(") ? 3 : 4;
	uint8_t key[40], iv[16], ad[24], pt[48], ct[64], ref[48], tag[16], reftag[16], buf[64];
	bc_aead *tfm;
	int rc = bc_aead_alloc(&tfm, info->driver);

	CHECK(rc == 0, "alloc: %d", rc);
	if (rc)
		return;
	CHECK(info->ivsize == 8 && info->min_keysize == 16 + saltlen, "ivsize %zu min_keysize %u", info->ivsize,
	      info->min_keysize);
	rng_fill(iv, sizeof(iv));
	rng_fill(ad, sizeof(ad));
	rng_fill(pt, sizeof(pt));
	memset(buf, 0xa5, sizeof(buf));
	rc = bc_aead_encrypt(tfm, iv, 8, ad, 16, pt, buf, sizeof(pt), tag);
	CHECK(rc == -ENOKEY && untouched(buf, sizeof(buf), 0xa5), "encrypt without key: %d", rc);
	make_key(key, sizeof(key), 3);
	rc = bc_aead_setkey(tfm, key, 16 + saltlen) | bc_aead_encrypt(tfm, iv, 8, ad, 16, pt, ref, sizeof(pt), reftag);
	CHECK(rc == 0, "setkey/encrypt: %d", rc);
	for (size_t kl = 0; kl <= sizeof(key); kl++) {
		if (kl == 16 + saltlen || (info->max_keysize > 16 + saltlen && (kl == 24 + saltlen || kl == 32 + saltlen)))
			continue;
		make_key(key, sizeof(key), 71);
		rc = bc_aead_setkey(tfm, key, kl);
		CHECK(rc == -EINVAL, "setkey(%zu) should be refused: %d", kl, rc);
		rc = bc_aead_encrypt(tfm, iv, 8, ad, 16, pt, ct, sizeof(pt), tag);
		CHECK(rc == 0 && !memcmp(ct, ref, sizeof(pt)) && !memcmp(tag, reftag, 16), "old key lost after setkey(%zu)",
		      kl);
	}
	/* IVs of 8 bytes only, associated data of 16 or 20 */
	for (size_t n = 0; n <= 24; n++) {
		memset(buf, 0xa5, sizeof(buf));
		memset(tag, 0xa5, sizeof(tag));
		int r1 = n == 8 ? -EINVAL : bc_aead_encrypt(tfm, iv, n, ad, 16, pt, buf, sizeof(pt), tag);
		int r2 = n == 16 || n == 20 ? -EINVAL : bc_aead_encrypt(tfm, iv, 8, ad, n, pt, buf, sizeof(pt), tag);
		int r3 = n == 16 || n == 20 ? -EINVAL : bc_aead_decrypt(tfm, iv, 8, ad, n, ref, buf, sizeof(pt), reftag);
		CHECK(r1 == -EINVAL && r2 == -EINVAL && r3 == -EINVAL && untouched(buf, sizeof(buf), 0xa5) &&
		      untouched(tag, sizeof(tag), 0xa5), "ivlen/adlen %zu: %d %d %d, or output written", n, r1, r2, r3);
	}
	for (size_t t = 0; t <= 20; t++) {
		int ok = r4543 ? t == 16 : t == 8 || t == 12 || t == 16;
		bc_aead_setauthsize(tfm, 16);
		rc = bc_aead_setauthsize(tfm, t);
		CHECK(ok ? rc == 0 && bc_aead_authsize(tfm) == t : rc == -EINVAL && bc_aead_authsize(tfm) == 16,
		      "setauthsize(%zu): %d", t, rc);
	}
	/* rfc4106 and rfc4309 skip the IV copy at the end of the associated data; rfc4543 authenticates it */
	for (size_t t = 16; t >= 8; t -= 4) {
		if (bc_aead_setauthsize(tfm, t))
			continue;
		aead_flips(tfm, iv, 8, ad, 20, r4543 ? 20 : 12, 1, pt, 33);
	}
	bc_aead_setauthsize(tfm, 16);
	rc = bc_aead_encrypt(tfm, iv, 8, ad, 20, pt, ct, 33, tag);
	ad[19] ^= 0x40;
	int r = bc_aead_decrypt(tfm, iv, 8, ad, 20, ct, buf, 33, tag);
	ad[19] ^= 0x40;
	CHECK(rc == 0 && (r4543 ? r == -EBADMSG : r == 0), "a changed IV copy in the associated data: %d", r);
	bc_aead_free(tfm);
}

static void authenc_errors(const struct bc_driver_info *info)
{
	int esn = starts(info->name, "authencesn(");
	size_t ivlen = info->ivsize, el = strstr(info->name, "des3_ede") ? 24 : 16;
	size_t bs = starts(strchr(info->name, ',') + 1, "ctr(") ? 1 : strstr(info->name, "des3_ede") ? 8 : 16;
	uint8_t ak[64], ek[32], blob[120], bad[120], iv[16], ad[24], pt[48], ct[64], ref[48], tag[64], reftag[64];
	uint8_t buf[64];
	bc_aead *tfm;
	int rc = bc_aead_alloc(&tfm, info->driver);

	CHECK(rc == 0, "alloc: %d", rc);
	if (rc)
		return;
	size_t max = bc_aead_authsize(tfm);
	CHECK(max == info->maxauthsize && max >= 16, "authsize %zu maxauthsize %zu", max, info->maxauthsize);
	make_key(ak, sizeof(ak), 5);
	make_key(ek, sizeof(ek), 50);
	rng_fill(iv, sizeof(iv));
	rng_fill(ad, sizeof(ad));
	rng_fill(pt, sizeof(pt));
	size_t bl = authenc_blob(blob, ak, 20, ek, el);
	memset(buf, 0xa5, sizeof(buf));
	rc = bc_aead_encrypt(tfm, iv, ivlen, ad, 16, pt, buf, 32, tag);
	CHECK(rc == -ENOKEY && untouched(buf, sizeof(buf), 0xa5), "encrypt without key: %d", rc);
	rc = bc_aead_setkey(tfm, blob, 3);
	CHECK(rc == -EINVAL, "a 3-byte blob on a fresh tfm: %d", rc);
	rc = bc_aead_encrypt(tfm, iv, ivlen, ad, 16, pt, buf, 32, tag);
	CHECK(rc == -ENOKEY, "encrypt after a refused first key: %d", rc);
	rc = bc_aead_setkey(tfm, blob, bl) | bc_aead_encrypt(tfm, iv, ivlen, ad, 16, pt, ref, 32, reftag);
	CHECK(rc == 0, "setkey/encrypt: %d", rc);
	/* short and lying blobs: every one refused, the old key kept */
	for (int kind = 0; kind < 9; kind++) {
		size_t n = bl;
		uint16_t v;
		memcpy(bad, blob, bl);
		bad[8] ^= 0xff;                                     /* a different MAC key, in case one got in */
		switch (kind) {
		case 0: n = 0; break;
		case 1: n = 7; break;                               /* header cut */
		case 2: v = 4; memcpy(bad, &v, 2); break;           /* rta_len: no room for enckeylen */
		case 3: v = 12; memcpy(bad, &v, 2); break;          /* rta_len: a payload other than the param */
		case 4: v = 0xffff; memcpy(bad, &v, 2); break;      /* rta_len past the blob */
		case 5: v = 2; memcpy(bad + 2, &v, 2); break;       /* rta_type not CRYPTO_AUTHENC_KEYA_PARAM */
		case 6: bad[4] = 0x01; break;                       /* enckeylen past the blob */
		case 7: bad[7] = (uint8_t)(el - 1); break;          /* enckeylen the cipher refuses */
		case 8: n = 8 + el - 1; break;                      /* fewer bytes than enckeylen */
		}
		rc = bc_aead_setkey(tfm, bad, n);
		CHECK(rc == -EINVAL, "bad blob %d: %d", kind, rc);
		rc = bc_aead_encrypt(tfm, iv, ivlen, ad, 16, pt, ct, 32, tag);
		CHECK(rc == 0 && !memcmp(ct, ref, 32) && !memcmp(tag, reftag, max), "old key lost after bad blob %d", kind);
	}
	/* an empty MAC key and MAC keys past the hash block are keys */
	for (size_t al = 0; al <= 64; al += 32) {
		size_t n = authenc_blob(bad, ak, al, ek, el);
		CHECK(bc_aead_setkey(tfm, bad, n) == 0, "a %zu-byte MAC key refused", al);
	}
	CHECK(bc_aead_setkey(tfm, blob, bl) == 0, "setkey");
	/* the cipher's IV size and lengths; authencesn's 8 bytes of associated data */
	for (size_t n = 0; n <= 20; n++) {
		memset(buf, 0xa5, sizeof(buf));
		int r1 = n == ivlen ? -EINVAL : bc_aead_encrypt(tfm, iv, n, ad, 16, pt, buf, 32, tag);
		int r2 = bs == 1 || n % bs == 0 ? -EINVAL : bc_aead_encrypt(tfm, iv, ivlen, ad, 16, pt, buf, n, tag);
		int r3 = !esn || n >= 8 ? -EINVAL : bc_aead_encrypt(tfm, iv, ivlen, ad, n, pt, buf, 32, tag);
		CHECK(r1 == -EINVAL && r2 == -EINVAL && r3 == -EINVAL && untouched(buf, sizeof(buf), 0xa5),
		      "ivlen/len/adlen %zu: %d %d %d, or output written", n, r1, r2, r3);
	}
	/* tags: any length up to the digest (authencesn: 0 or at least 4) */
	for (size_t t = 0; t <= max + 2; t++) {
		int ok = t <= max && !(esn && t > 0 && t < 4);
		bc_aead_setauthsize(tfm, max);
		rc = bc_aead_setauthsize(tfm, t);
		CHECK(ok ? rc == 0 && bc_aead_authsize(tfm) == t : rc == -EINVAL && bc_aead_authsize(tfm) == max,
		      "setauthsize(%zu): %d", t, rc);
	}
	static const size_t tls[] = { 64, 32, 16, 12, 4 };
	for (size_t i = 0; i < sizeof(tls) / sizeof(tls[0]); i++) {
		if (tls[i] > max || bc_aead_setauthsize(tfm, tls[i]))
			continue;
		aead_flips(tfm, iv, ivlen, ad, 16, 16, 0, pt, 32 / bs * bs);   /* the IV is not MACed: ESP puts it in ad */
	}
	bc_aead_free(tfm);
}

static void composed_errors(const struct bc_driver_info *info)
{
	set_context("%s [%s]", info->name, info->driver);
	if (starts(info->name, "hmac("))
		hmac_errors(info);
	else if (starts(info->name, "rfc3686("))
		rfc3686_errors(info);
	else if (starts(info->name, "authenc"))
		authenc_errors(info);
	else
		esp_errors(info);
}

/* ---- names -------------------------------------------------------------------------------------- */
static void name_errors(void)
{
	static const char *bad[] = { "", "foo", "cbc(des4)", "cbc(aes", "cbc(aes))", "xts(aes-generic-nope)", "ecb()",
		"cbc(sm4)x", "gcm(des)", "cmac(sha256)", "essiv(cbc(aes),md4)", "md4", "aes-generic-xyz", "CBC(AES)",
		/* templates that need a 16-byte block do not build over des and des3_ede (as in the kernel) */
		"xts(des3_ede)", "xts(des)", "gcm(des3_ede)", "xcbc(des3_ede)", "xts(ecb(des3_ede-generic))",
		"gcm_base(ctr(des3_ede-generic),ghash-generic)", "essiv(cbc(des3_ede),sha256)",
		"cts(cbc(des3_ede))" };
	set_context("names");
	/* ccm_base takes a ctr and a cbcmac over one cipher, in that order */
	static const char *bad_ccm[] = { "ccm(des)", "ccm(sha256)", "ccm_base(ctr(aes-generic),cbcmac(sm4-generic))",
		"ccm_base(cbcmac(aes-generic),ctr(aes-generic))", "ccm_base(ctr(aes-generic),cmac(aes-generic))",
		"ccm_base(ctr(aes-generic))" };
	for (size_t i = 0; i < sizeof(bad_ccm) / sizeof(bad_ccm[0]); i++) {
		bc_aead *a = NULL;
		int r = bc_aead_alloc(&a, bad_ccm[i]);
		CHECK(r == -ENOENT && !a, "\"%s\": %d, want -ENOENT", bad_ccm[i], r);
		bc_aead_free(a);
	}
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

/* chacha20, xchacha20, xchacha12: 32-byte keys only, any length, the
 * IV (16 or 32 bytes) left as it was. */
static void chacha_errors(const struct bc_driver_info *info)
{
	static const size_t bad[] = { 0, 1, 16, 24, 31, 33, 36, 64 };
	size_t ivs = starts(info->name, "xchacha") ? 32 : 16;
	uint8_t key[64], iv[32], iv0[32], src[96], dst[112], ref[96];
	bc_skcipher *tfm;
	int rc;

	set_context("%s [%s]", info->name, info->driver);
	rc = bc_skcipher_alloc(&tfm, info->driver);
	CHECK(rc == 0, "alloc: %d", rc);
	if (rc)
		return;
	CHECK(bc_skcipher_ivsize(tfm) == ivs && bc_skcipher_blocksize(tfm) == 1 && info->min_keysize == 32 &&
	      info->max_keysize == 32, "ivsize %zu blocksize %zu keysizes %u..%u", bc_skcipher_ivsize(tfm),
	      bc_skcipher_blocksize(tfm), info->min_keysize, info->max_keysize);
	rng_fill(src, sizeof(src));
	rng_fill(iv0, sizeof(iv0));
	memcpy(iv, iv0, sizeof(iv));
	memset(dst, 0xa5, sizeof(dst));
	rc = bc_skcipher_encrypt(tfm, iv, src, dst, 64);
	CHECK(rc == -ENOKEY && untouched(dst, sizeof(dst), 0xa5), "encrypt without key: %d", rc);
	make_key(key, sizeof(key), 7);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		rc = bc_skcipher_setkey(tfm, key, bad[i]);
		CHECK(rc == -EINVAL, "setkey(%zu) on a fresh tfm: %d", bad[i], rc);
	}
	rc = bc_skcipher_encrypt(tfm, iv, src, dst, 64);
	CHECK(rc == -ENOKEY, "encrypt after refused keys: %d", rc);
	CHECK(bc_skcipher_setkey(tfm, key, 32) == 0, "setkey(32)");
	CHECK(bc_skcipher_encrypt(tfm, iv, src, ref, sizeof(ref)) == 0, "encrypt");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		make_key(key, sizeof(key), 9);
		rc = bc_skcipher_setkey(tfm, key, bad[i]);
		CHECK(rc == -EINVAL, "setkey(%zu): %d", bad[i], rc);
	}
	rc = bc_skcipher_encrypt(tfm, iv, src, dst, sizeof(ref));
	CHECK(rc == 0 && !memcmp(dst, ref, sizeof(ref)), "the key before the refused ones changed: %d", rc);
	rc = bc_skcipher_encrypt(tfm, NULL, src, dst, 16);
	CHECK(rc == -EINVAL, "encrypt without IV: %d", rc);
	for (size_t len = 0; len <= 80; len++) {
		memset(dst, 0xa5, sizeof(dst));
		rc = bc_skcipher_decrypt(tfm, iv, src, dst, len);
		CHECK(rc == 0 && !memcmp(dst, ref, len) && untouched(dst + len, sizeof(dst) - len, 0xa5),
		      "decrypt of %zu bytes: %d", len, rc);
		CHECK(!memcmp(iv, iv0, ivs), "the IV changed");
	}
	bc_skcipher_free(tfm);
}

/* rfc7539 and rfc7539esp: the key (and salt) length, 16-byte tags only,
 * the IV length, ESP's AD that ends with the unauthenticated IV copy, and
 * -EBADMSG with dst zeroed for any change to what is authenticated. */
static void chachapoly_errors(const struct bc_driver_info *info)
{
	int esp = starts(info->name, "rfc7539esp(");
	size_t klen = esp ? 36 : 32, ivlen = esp ? 8 : 12, adlen = esp ? 20 : 13;
	static const size_t bad_keys[] = { 0, 16, 31, 32, 33, 35, 36, 37, 64 };
	static const size_t bad_ivs[] = { 0, 7, 8, 11, 12, 13, 16, 24 };
	uint8_t key[64], iv[16], ad[24], pt[70], ct[70], out[70], tag[16], bad[16];
	bc_aead *tfm;
	int rc;

	set_context("%s [%s]", info->name, info->driver);
	rc = bc_aead_alloc(&tfm, info->driver);
	CHECK(rc == 0, "alloc: %d", rc);
	if (rc)
		return;
	CHECK(info->ivsize == ivlen && info->maxauthsize == 16 && info->min_keysize == klen && info->max_keysize == klen,
	      "ivsize %zu maxauthsize %zu keysizes %u..%u", info->ivsize, info->maxauthsize, info->min_keysize,
	      info->max_keysize);
	make_key(key, sizeof(key), 3);
	rng_fill(iv, sizeof(iv));
	rng_fill(ad, sizeof(ad));
	rng_fill(pt, sizeof(pt));
	if (esp)
		memcpy(ad + adlen - 8, iv, 8);
	for (size_t i = 0; i < sizeof(bad_keys) / sizeof(bad_keys[0]); i++)
		if (bad_keys[i] != klen) {
			rc = bc_aead_setkey(tfm, key, bad_keys[i]);
			CHECK(rc == -EINVAL, "setkey(%zu): %d", bad_keys[i], rc);
		}
	rc = bc_aead_encrypt(tfm, iv, ivlen, ad, adlen, pt, ct, sizeof(pt), tag);
	CHECK(rc == -ENOKEY, "encrypt after refused keys: %d", rc);
	CHECK(bc_aead_setkey(tfm, key, klen) == 0, "setkey(%zu)", klen);
	for (size_t t = 0; t <= 17; t++) {
		rc = bc_aead_setauthsize(tfm, t);
		CHECK(t == 16 ? rc == 0 : rc == -EINVAL, "setauthsize(%zu): %d", t, rc);
	}
	CHECK(bc_aead_authsize(tfm) == 16, "authsize after refused ones: %zu", bc_aead_authsize(tfm));
	for (size_t i = 0; i < sizeof(bad_ivs) / sizeof(bad_ivs[0]); i++)
		if (bad_ivs[i] != ivlen) {
			rc = bc_aead_encrypt(tfm, iv, bad_ivs[i], ad, adlen, pt, ct, sizeof(pt), tag);
			CHECK(rc == -EINVAL, "encrypt with a %zu-byte IV: %d", bad_ivs[i], rc);
			rc = bc_aead_decrypt(tfm, iv, bad_ivs[i], ad, adlen, ct, out, sizeof(pt), tag);
			CHECK(rc == -EINVAL, "decrypt with a %zu-byte IV: %d", bad_ivs[i], rc);
		}
	if (esp) {
		rc = bc_aead_encrypt(tfm, iv, ivlen, ad, 7, pt, ct, sizeof(pt), tag);
		CHECK(rc == -EINVAL, "ESP associated data shorter than the IV: %d", rc);
	}
	rc = bc_aead_encrypt(tfm, iv, ivlen, ad, adlen, pt, ct, sizeof(pt), tag);
	CHECK(rc == 0, "encrypt: %d", rc);
	rc = bc_aead_decrypt(tfm, iv, ivlen, ad, adlen, ct, out, sizeof(pt), tag);
	CHECK(rc == 0 && !memcmp(out, pt, sizeof(pt)), "decrypt: %d", rc);
	/* a flipped bit in the tag, the text, the authenticated AD or the IV */
	for (int what = 0; what < 4; what++) {
		memcpy(bad, tag, 16);
		if (what == 0)
			bad[15] ^= 0x80;
		else if (what == 1)
			ct[69] ^= 1;
		else if (what == 2)
			ad[0] ^= 1;
		else
			iv[ivlen - 1] ^= 1;
		memset(out, 0xa5, sizeof(out));
		rc = bc_aead_decrypt(tfm, iv, ivlen, ad, adlen, ct, out, sizeof(pt), bad);
		CHECK(rc == -EBADMSG && untouched(out, sizeof(out), 0), "forgery %d: %d, dst not zeroed", what, rc);
		if (what == 1)
			ct[69] ^= 1;
		else if (what == 2)
			ad[0] ^= 1;
		else if (what == 3)
			iv[ivlen - 1] ^= 1;
	}
	if (esp) {   /* the IV copy at the end of the AD is not authenticated, as the kernel skips it */
		ad[adlen - 1] ^= 1;
		rc = bc_aead_decrypt(tfm, iv, ivlen, ad, adlen, ct, out, sizeof(pt), tag);
		CHECK(rc == 0 && !memcmp(out, pt, sizeof(pt)), "the AD's IV copy was authenticated: %d", rc);
	}
	bc_aead_free(tfm);
}

/* Every algorithm name the contract promises must be listed. */
static const char *const required[] = {
	"ecb(aes)", "cbc(aes)", "ctr(aes)", "cts(cbc(aes))", "xts(aes)", "essiv(cbc(aes),sha256)", "gcm(aes)",
	"cmac(aes)", "xcbc(aes)", "cbcmac(aes)", "ecb(sm4)", "cbc(sm4)", "ctr(sm4)", "cts(cbc(sm4))", "xts(sm4)",
	"essiv(cbc(sm4),sm3)", "gcm(sm4)", "cmac(sm4)", "xcbc(sm4)", "cbcmac(sm4)", "sha256", "sm3", "ghash",
	"sha1", "sha224", "sha384", "sha512", "md5",
	"ccm(aes)", "ccm(sm4)",
	"ecb(camellia)", "cbc(camellia)", "ctr(camellia)", "cts(cbc(camellia))", "xts(camellia)",
	"essiv(cbc(camellia),sha256)", "gcm(camellia)", "cmac(camellia)", "xcbc(camellia)", "cbcmac(camellia)",
	"ecb(twofish)", "cbc(twofish)", "ctr(twofish)", "cts(cbc(twofish))", "xts(twofish)",
	"essiv(cbc(twofish),sha256)", "gcm(twofish)", "cmac(twofish)", "xcbc(twofish)", "cbcmac(twofish)",
	"ecb(serpent)", "cbc(serpent)", "ctr(serpent)", "cts(cbc(serpent))", "xts(serpent)",
	"essiv(cbc(serpent),sha256)", "gcm(serpent)", "cmac(serpent)", "xcbc(serpent)", "cbcmac(serpent)",
	"lrw(aes)", "lrw(sm4)", "lrw(twofish)", "lrw(serpent)", "lrw(camellia)",
	"xctr(aes)", "polyval", "hctr2(aes)",
	"chacha20", "xchacha20", "xchacha12", "rfc7539(chacha20,poly1305)", "rfc7539esp(chacha20,poly1305)",
	"nhpoly1305", "adiantum(xchacha12,aes)", "adiantum(xchacha20,aes)",
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
		if (starts(all[i].name, "chacha20") || starts(all[i].name, "xchacha")) {
			chacha_errors(&all[i]);
			continue;
		}
		if (starts(all[i].name, "rfc7539")) {
			chachapoly_errors(&all[i]);
			continue;
		}
		if (composed_name(all[i].name)) {
			composed_errors(&all[i]);
			continue;
		}
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
