/* Cross-checks of every gcm(aes) and gcm(sm4) driver against the generic one at every length through three
 * 1024-byte strides, in and out of place, unaligned, and with inc32 wrapping inside the message. NIST SP 800-38D. */
#include "common.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/*
 * The wide drivers work in strides of up to 64 blocks and hash what is left
 * in one masked group, so every length up to three strides and a bit (and
 * some around 8 and 16 KiB) is tried, with several AAD lengths. The
 * counter: a 12-byte IV starts it at 2, so only J0 = GHASH_H(IV) reaches
 * the 32-bit wrap that inc32 must take (SP 800-38D 6.2: the low 32 bits
 * alone are incremented). For a 16-byte IV, J0 = IV*H^2 + L*H with L the
 * length block, so the IV giving a chosen J0 is (J0 + L*H) * H^-2: the test
 * picks J0 a few blocks short of the wrap and solves for the IV with its
 * own GF(2^128) arithmetic (Algorithm 1 of 6.3, bit by bit).
 */
#define MAXLEN 16400
#define OFF 64
static uint8_t pt[MAXLEN + OFF], ref[MAXLEN + OFF], buf[MAXLEN + OFF], out[MAXLEN + OFF];

static void gf_mul(uint8_t z[16], const uint8_t x[16], const uint8_t y[16])
{
	uint8_t v[16], r[16] = { 0 };

	memcpy(v, y, 16);
	for (int i = 0; i < 128; i++) {
		int lsb = v[15] & 1;

		if (x[i / 8] >> (7 - i % 8) & 1)
			for (int j = 0; j < 16; j++)
				r[j] ^= v[j];
		for (int j = 15; j > 0; j--)
			v[j] = (uint8_t)(v[j] >> 1 | v[j - 1] << 7);
		v[0] >>= 1;
		if (lsb)
			v[0] ^= 0xe1;
	}
	memcpy(z, r, 16);
}

/* a^-1 = a^(2^128 - 2), the product of a^(2^i) for i = 1..127 */
static void gf_inv(uint8_t z[16], const uint8_t a[16])
{
	uint8_t sq[16], r[16] = { 0x80 };

	memcpy(sq, a, 16);
	for (int i = 1; i < 128; i++) {
		gf_mul(sq, sq, sq);
		gf_mul(r, r, sq);
	}
	memcpy(z, r, 16);
}

/* The 16-byte IV whose J0 ends in the 32-bit counter c (the rest random). */
static void wrap_iv(const char *cipher, const uint8_t *key, size_t keylen, uint32_t c, uint8_t iv[16])
{
	static const uint8_t zero[16];
	uint8_t h[16], h2[16], h2i[16], j0[16], l[16] = { 0 }, lh[16];
	bc_skcipher *e;
	char name[32];

	snprintf(name, sizeof(name), "ecb(%s)", cipher);
	CHECK(bc_skcipher_alloc(&e, name) == 0 && bc_skcipher_setkey(e, key, keylen) == 0 &&
	      bc_skcipher_encrypt(e, NULL, zero, h, 16) == 0, "H = E_K(0)");
	bc_skcipher_free(e);
	rng_fill(j0, 12);
	for (int i = 0; i < 4; i++)
		j0[12 + i] = (uint8_t)(c >> (24 - 8 * i));
	l[15] = 128;   /* len(IV) in bits; no AAD in J0's GHASH */
	gf_mul(h2, h, h);
	gf_inv(h2i, h2);
	gf_mul(lh, l, h);
	for (int i = 0; i < 16; i++)
		j0[i] ^= lh[i];
	gf_mul(iv, j0, h2i);
	/* the library's own GHASH of IV || L must give that J0 */
	uint8_t msg[32], g[16];
	bc_shash *gh;
	memcpy(msg, iv, 16);
	memcpy(msg + 16, l, 16);
	CHECK(bc_shash_alloc(&gh, "ghash") == 0 && bc_shash_setkey(gh, h, 16) == 0 && bc_shash_digest(gh, msg, 32, g) == 0,
	      "ghash");
	bc_shash_free(gh);
	CHECK((uint32_t)g[12] << 24 == (c & 0xff000000u) && g[13] == (uint8_t)(c >> 16) && g[14] == (uint8_t)(c >> 8) &&
	      g[15] == (uint8_t)c, "J0 of the solved IV ends in %08x", c);
}

/* One message through the reference, then through every driver: out of
 * place and unaligned, in place, decrypted both ways, and with a forged tag. */
static void one(const char *alg, bc_aead *r, bc_aead *const *d, const struct drv_set *ds, size_t keylen, size_t len,
                size_t ivlen, const uint8_t *iv, size_t adlen)
{
	uint8_t ad[64], tag_ref[16], tag[16];
	size_t so = len % 13, doff = (len * 7) % 17;
	int rc;

	rng_fill(ad, adlen);
	rng_fill(pt, len);
	set_context("%s key %zu iv %zu ad %zu len %zu: reference", alg, keylen, ivlen, adlen, len);
	rc = bc_aead_encrypt(r, iv, ivlen, ad, adlen, pt, ref, len, tag_ref);
	CHECK(rc == 0, "reference encrypt: %d", rc);
	for (size_t i = 0; i < ds->n; i++) {
		if (!d[i])
			continue;
		set_context("%s [%s] key %zu iv %zu ad %zu len %zu", alg, ds->info[i].driver, keylen, ivlen, adlen, len);
		memcpy(buf + so, pt, len);
		rc = bc_aead_encrypt(d[i], iv, ivlen, ad, adlen, buf + so, out + doff, len, tag);
		CHECK(rc == 0 && !memcmp(out + doff, ref, len) && !memcmp(tag, tag_ref, 16), "encrypt: %d", rc);
		rc = bc_aead_encrypt(d[i], iv, ivlen, ad, adlen, buf + so, buf + so, len, tag);
		CHECK(rc == 0 && !memcmp(buf + so, ref, len) && !memcmp(tag, tag_ref, 16), "encrypt in place: %d", rc);
		rc = bc_aead_decrypt(d[i], iv, ivlen, ad, adlen, buf + so, out + doff, len, tag_ref);
		CHECK(rc == 0 && !memcmp(out + doff, pt, len), "decrypt: %d", rc);
		rc = bc_aead_decrypt(d[i], iv, ivlen, ad, adlen, buf + so, buf + so, len, tag_ref);
		CHECK(rc == 0 && !memcmp(buf + so, pt, len), "decrypt in place: %d", rc);
		if (len % 5 == 0) {
			/* a wrong tag: -EBADMSG and nothing of the plaintext left */
			int zero = 1;

			memcpy(buf + so, ref, len);
			memcpy(tag, tag_ref, 16);
			tag[len % 16] ^= 1;
			rc = bc_aead_decrypt(d[i], iv, ivlen, ad, adlen, buf + so, out + doff, len, tag);
			for (size_t j = 0; j < len; j++)
				zero &= out[doff + j] == 0;
			CHECK(rc == -EBADMSG && zero, "forged tag accepted or plaintext left: %d", rc);
		}
	}
}

static void run_alg(const char *alg, const char *cipher)
{
	struct drv_set ds;
	char gname[128];
	unsigned sizes[4];
	bc_aead *r, *d[MAX_DRIVERS] = { 0 };
	unsigned long p0 = test_passed, f0 = test_failed;

	drivers_for(alg, &ds);
	generic_driver_name(alg, gname, sizeof(gname));
	alg_key_sizes(alg, sizes);
	CHECK(bc_aead_alloc(&r, gname) == 0, "%s: reference %s", alg, gname);
	printf("  %s against %s:", alg, gname);
	for (size_t i = 0; i < ds.n; i++) {
		if (strcmp(ds.info[i].driver, gname) && !bc_aead_alloc(&d[i], ds.info[i].driver))
			printf(" %s", ds.info[i].driver);
	}
	printf("\n");
	for (int k = 0; k < 4 && sizes[k]; k++) {
		uint8_t key[32];

		rng_fill(key, sizes[k]);
		CHECK(bc_aead_setkey(r, key, sizes[k]) == 0, "setkey");
		for (size_t i = 0; i < ds.n; i++)
			if (d[i])
				CHECK(bc_aead_setkey(d[i], key, sizes[k]) == 0, "setkey %s", ds.info[i].driver);
		for (size_t len = 0; len <= MAXLEN; len++) {
			uint8_t iv[64];
			size_t ivlen = 12, adlen = (len * 5) % 41;

			if (len > 3200 && (len < 8176 || len > 8208) && (len < 16368 || len > 16400))
				continue;
			if (test_quick() && len % 23 && len % 1024 > 16)
				continue;
			switch (len % 4) {
			case 1:
				/* the wrap 0..70 blocks into the message */
				ivlen = 16;
				wrap_iv(cipher, key, sizes[k], 0xffffffffu - (uint32_t)((len / 4) % 71), iv);
				break;
			case 2:
				ivlen = 1 + rng_below(60);
				rng_fill(iv, ivlen);
				break;
			default:
				rng_fill(iv, 12);
			}
			one(alg, r, d, &ds, sizes[k], len, ivlen, iv, adlen);
		}
	}
	printf("  %s: %lu checks passed, %lu failed\n", alg, test_passed - p0, test_failed - f0);
	for (size_t i = 0; i < ds.n; i++)
		if (d[i])
			bc_aead_free(d[i]);
	bc_aead_free(r);
	drv_set_free(&ds);
}

int main(int argc, char **argv)
{
	(void)argc;
	test_init();
	rng_seed(0x6c6d2e1d9a4b3f07ull);
	printf("test_gcm_wide: CPU features: %s\n", bc_cpu_features_string());
	run_alg("gcm(aes)", "aes");
	run_alg("gcm(sm4)", "sm4");
	return test_summary(argv[0]);
}
