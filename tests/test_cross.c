/* Cross-checks: every driver against the generic one on random inputs (all key sizes, lengths, alignments,
 * in place, chained calls, split updates, digest_many), and the generic modes against compositions of ecb/cbc. */
#include "common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXLEN 8208
#define PAD 32
static uint8_t pt[MAXLEN + PAD], ref_ct[MAXLEN + PAD], bufa[MAXLEN + PAD], bufb[MAXLEN + PAD], bufc[MAXLEN + PAD];

/* Lengths tried: every one in 0..1100, 4080..4112 and 8176..8208 (a sample
 * in quick mode): the last past 7168 bytes, where the x86 xts drivers steal
 * after their batches instead of before. */
static size_t lens[1250], nlens;

static void build_lengths(void)
{
	nlens = 0;
	for (size_t l = 0; l <= 1100; l++)
		if (!test_quick() || l < 80 || l % 37 == 0)
			lens[nlens++] = l;
	for (size_t l = 4080; l <= 4112; l++)
		if (!test_quick() || l % 8 == 0 || l == 4111)
			lens[nlens++] = l;
	for (size_t l = 8176; l <= 8208; l++)
		if (!test_quick() || l % 16 == 0 || l == 8195)
			lens[nlens++] = l;
}

static const char *cipher_of(const char *alg)
{
	return strstr(alg, "sm4") ? "sm4" : strstr(alg, "des3_ede") ? "des3_ede" : strstr(alg, "des") ? "des" : "aes";
}

static int is_chaining(const char *alg)
{
	return starts(alg, "cbc(") || starts(alg, "ctr(") || starts(alg, "ecb(");
}

/* The drivers of alg plus, at index ds->n when bc_list_drivers does not show
 * it, the template over the generic cipher (generic_driver_name) as the
 * reference. Returns the reference's index, or -1 if there is nothing to test. */
static int reference_set(const char *alg, struct drv_set *ds)
{
	char name[128];
	drivers_for(alg, ds);
	set_context("%s", alg);
	CHECK(ds->n > 0, "no driver listed");
	generic_driver_name(alg, name, sizeof(name));
	for (size_t i = 0; i < ds->n; i++)
		if (!strcmp(ds->info[i].driver, name))
			return (int)i;
	if (ds->n == MAX_DRIVERS)
		return -1;
	struct bc_driver_info *g = &ds->info[ds->n];
	memset(g, 0, sizeof(*g));
	g->driver = strdup(name);
	g->name = strdup(alg);
	return (int)ds->n++;
}

/* ---- skcipher ---------------------------------------------------------------------------------- */
typedef int (*skc_op)(const bc_skcipher *, uint8_t *, const uint8_t *, uint8_t *, size_t);

static void ctr_iv(uint8_t iv[16], size_t i)
{
	rng_fill(iv, 16);
	/* counters about to carry out of the low 32 and 64 bits, and all-ones */
	if (i % 4 == 1)
		memset(iv + 12, 0xff, 4);
	else if (i % 4 == 2)
		memset(iv + 8, 0xff, 8);
	else if (i % 16 == 3)
		memset(iv, 0xff, 16);
	if (i % 4 && i % 16 != 3)
		iv[15] = (uint8_t)(0xff - rng_below(8));
}

static void skcipher_cross(const char *alg)
{
	struct drv_set ds;
	int r = reference_set(alg, &ds);
	if (r < 0)
		return;
	unsigned sizes[4];
	alg_key_sizes(alg, sizes);
	bc_skcipher *tfm[MAX_DRIVERS] = { 0 };
	for (size_t d = 0; d < ds.n; d++) {
		int rc = bc_skcipher_alloc(&tfm[d], ds.info[d].driver);
		set_context("%s [%s]", alg, ds.info[d].driver);
		CHECK(rc == 0, "alloc: %d", rc);
	}
	int chain = is_chaining(alg), ecb = starts(alg, "ecb("), ctr = starts(alg, "ctr(");
	printf("  %-26s %zu drivers, reference %s\n", alg, ds.n, ds.info[r].driver);
	for (int k = 0; k < 4 && sizes[k]; k++) {
		uint8_t key[64];
		rng_fill(key, sizes[k]);
		for (size_t d = 0; d < ds.n; d++)
			if (tfm[d]) {
				int rc = bc_skcipher_setkey(tfm[d], key, sizes[k]);
				set_context("%s [%s] key %u", alg, ds.info[d].driver, sizes[k]);
				CHECK(rc == 0, "setkey: %d", rc);
			}
		if (!tfm[r])
			break;
		for (size_t li = 0; li < nlens; li++) {
			size_t len = lens[li];
			if (!alg_len_ok(alg, len))
				continue;
			uint8_t iv0[16], iv_ref[16], iv[16], *ivp = ecb ? NULL : iv;
			if (ctr)
				ctr_iv(iv0, li);
			else
				rng_fill(iv0, 16);
			rng_fill(pt, len);
			memcpy(iv_ref, iv0, 16);
			int rc = bc_skcipher_encrypt(tfm[r], ecb ? NULL : iv_ref, pt, ref_ct, len);
			set_context("%s [%s] key %u len %zu", alg, ds.info[r].driver, sizes[k], len);
			CHECK(rc == 0, "reference encrypt: %d", rc);
			for (size_t d = 0; d < ds.n; d++) {
				if (!tfm[d])
					continue;
				set_context("%s [%s] key %u len %zu", alg, ds.info[d].driver, sizes[k], len);
				for (int dec = 0; dec < 2; dec++) {
					skc_op op = dec ? bc_skcipher_decrypt : bc_skcipher_encrypt;
					const uint8_t *in = dec ? ref_ct : pt, *want = dec ? pt : ref_ct;
					const char *what = dec ? "decrypt" : "encrypt";
					/* out of place, both pointers misaligned */
					size_t so = 1 + rng_below(15), doff = 1 + rng_below(15);
					memcpy(bufa + so, in, len);
					memset(bufb, 0x5c, sizeof(bufb));
					memcpy(iv, iv0, 16);
					rc = op(tfm[d], ivp, bufa + so, bufb + doff, len);
					CHECK(rc == 0 && !memcmp(bufb + doff, want, len), "%s out of place (src+%zu dst+%zu): %d", what,
					      so, doff, rc);
					CHECK(bufb[doff - 1] == 0x5c && bufb[doff + len] == 0x5c, "%s wrote outside dst", what);
					CHECK(ecb || !memcmp(iv, iv_ref, 16), "%s: IV after %s want %s", what, hex_str(iv, 16),
					      hex_str(iv_ref, 16));
					/* in place */
					memcpy(bufc + so, in, len);
					memcpy(iv, iv0, 16);
					rc = op(tfm[d], ivp, bufc + so, bufc + so, len);
					CHECK(rc == 0 && !memcmp(bufc + so, want, len), "%s in place: %d", what, rc);
					/* two calls continue one stream (cbc, ctr, ecb), split at a block boundary */
					if (chain && len >= 16) {
						size_t split = 16 * rng_below(len / 16 + 1);
						memcpy(iv, iv0, 16);
						rc = op(tfm[d], ivp, in, bufb, split);
						rc |= op(tfm[d], ivp, in + split, bufb + split, len - split);
						CHECK(rc == 0 && !memcmp(bufb, want, len), "%s split at %zu: %d", what, split, rc);
						CHECK(ecb || !memcmp(iv, iv_ref, 16), "%s split at %zu: IV after", what, split);
					}
				}
			}
		}
	}
	for (size_t d = 0; d < ds.n; d++)
		bc_skcipher_free(tfm[d]);
	drv_set_free(&ds);
}

/* ---- aead ---------------------------------------------------------------------------------------- */
static void aead_cross(const char *alg)
{
	struct drv_set ds;
	int r = reference_set(alg, &ds);
	if (r < 0)
		return;
	printf("  %-26s %zu drivers, reference %s\n", alg, ds.n, ds.info[r].driver);
	unsigned sizes[4];
	alg_key_sizes(alg, sizes);
	bc_aead *tfm[MAX_DRIVERS] = { 0 };
	for (size_t d = 0; d < ds.n; d++) {
		int rc = bc_aead_alloc(&tfm[d], ds.info[d].driver);
		set_context("%s [%s]", alg, ds.info[d].driver);
		CHECK(rc == 0, "alloc: %d", rc);
	}
	static const size_t taglens[] = { 16, 4, 8, 12, 13, 14, 15 };
	size_t samples = test_quick() ? 60 : 900;
	for (int k = 0; k < 4 && sizes[k] && tfm[r]; k++) {
		uint8_t key[32];
		rng_fill(key, sizes[k]);
		for (size_t d = 0; d < ds.n; d++)
			if (tfm[d])
				CHECK(bc_aead_setkey(tfm[d], key, sizes[k]) == 0, "setkey");
		for (size_t s = 0; s < samples; s++) {
			uint8_t iv[64], ad[80], tag_ref[16], tag[16];
			size_t ivlen = s % 2 ? 12 : 1 + rng_below(64);
			size_t adlen = s < 81 ? s : rng_below(81);
			size_t len = s < nlens ? lens[(s * 7) % nlens] : lens[rng_below(nlens)];
			if (s % 50 == 0)
				len = 4080 + rng_below(33);
			size_t tl = taglens[s % 7];
			rng_fill(iv, ivlen);
			rng_fill(ad, adlen);
			rng_fill(pt, len);
			bc_aead_setauthsize(tfm[r], tl);
			int rc = bc_aead_encrypt(tfm[r], iv, ivlen, ad, adlen, pt, ref_ct, len, tag_ref);
			set_context("%s [%s] key %u iv %zu ad %zu len %zu tag %zu", alg, ds.info[r].driver, sizes[k], ivlen,
			            adlen, len, tl);
			CHECK(rc == 0, "reference encrypt: %d", rc);
			for (size_t d = 0; d < ds.n; d++) {
				if (!tfm[d])
					continue;
				set_context("%s [%s] key %u iv %zu ad %zu len %zu tag %zu", alg, ds.info[d].driver, sizes[k], ivlen,
				            adlen, len, tl);
				rc = bc_aead_setauthsize(tfm[d], tl);
				size_t so = 1 + rng_below(15), doff = 1 + rng_below(15);
				memcpy(bufa + so, pt, len);
				memset(bufb, 0x5c, sizeof(bufb));
				memset(tag, 0x5c, sizeof(tag));
				rc |= bc_aead_encrypt(tfm[d], iv, ivlen, ad, adlen, bufa + so, bufb + doff, len, tag);
				CHECK(rc == 0 && !memcmp(bufb + doff, ref_ct, len) && !memcmp(tag, tag_ref, tl),
				      "encrypt: %d, tag %s want %s", rc, hex_str(tag, tl), hex_str(tag_ref, tl));
				CHECK(bufb[doff - 1] == 0x5c && bufb[doff + len] == 0x5c && (tl == 16 || tag[tl] == 0x5c),
				      "encrypt wrote outside dst/tag");
				memcpy(bufc + so, pt, len);
				rc = bc_aead_encrypt(tfm[d], iv, ivlen, ad, adlen, bufc + so, bufc + so, len, tag);
				CHECK(rc == 0 && !memcmp(bufc + so, ref_ct, len) && !memcmp(tag, tag_ref, tl), "encrypt in place: %d", rc);
				memcpy(bufa + so, ref_ct, len);
				rc = bc_aead_decrypt(tfm[d], iv, ivlen, ad, adlen, bufa + so, bufb + doff, len, tag_ref);
				CHECK(rc == 0 && !memcmp(bufb + doff, pt, len), "decrypt: %d", rc);
				rc = bc_aead_decrypt(tfm[d], iv, ivlen, ad, adlen, bufa + so, bufa + so, len, tag_ref);
				CHECK(rc == 0 && !memcmp(bufa + so, pt, len), "decrypt in place: %d", rc);
			}
		}
	}
	for (size_t d = 0; d < ds.n; d++)
		bc_aead_free(tfm[d]);
	drv_set_free(&ds);
}

/* ---- shash ----------------------------------------------------------------------------------------- */
static void shash_cross(const char *alg)
{
	struct drv_set ds;
	int r = reference_set(alg, &ds);
	if (r < 0)
		return;
	printf("  %-26s %zu drivers, reference %s\n", alg, ds.n, ds.info[r].driver);
	unsigned sizes[4];
	alg_key_sizes(alg, sizes);
	bc_shash *tfm[MAX_DRIVERS] = { 0 };
	for (size_t d = 0; d < ds.n; d++) {
		int rc = bc_shash_alloc(&tfm[d], ds.info[d].driver);
		set_context("%s [%s]", alg, ds.info[d].driver);
		CHECK(rc == 0, "alloc: %d", rc);
	}
	size_t dl = tfm[r] ? bc_shash_digestsize(tfm[r]) : 0;
	for (int k = 0; k < 4 && tfm[r]; k++) {
		if (k && !sizes[k])
			break;
		uint8_t key[32];
		rng_fill(key, sizes[k]);
		for (size_t d = 0; d < ds.n; d++)
			if (tfm[d] && sizes[k])
				CHECK(bc_shash_setkey(tfm[d], key, sizes[k]) == 0, "setkey");
		for (size_t li = 0; li < nlens; li++) {
			size_t len = lens[li];
			uint8_t ref[64], out[64];
			rng_fill(pt, len);
			int rc = bc_shash_digest(tfm[r], pt, len, ref);
			set_context("%s [%s] key %u len %zu", alg, ds.info[r].driver, sizes[k], len);
			CHECK(rc == 0, "reference digest: %d", rc);
			for (size_t d = 0; d < ds.n; d++) {
				if (!tfm[d])
					continue;
				set_context("%s [%s] key %u len %zu", alg, ds.info[d].driver, sizes[k], len);
				size_t so = 1 + rng_below(15);
				memcpy(bufa + so, pt, len);
				rc = bc_shash_digest(tfm[d], bufa + so, len, out);
				CHECK(rc == 0 && !memcmp(out, ref, dl), "digest: %d %s want %s", rc, hex_str(out, dl), hex_str(ref, dl));
				/* random pieces through update */
				rc = bc_shash_init(tfm[d]);
				for (size_t pos = 0; pos < len;) {
					size_t n = rng_below(4) == 0 ? rng_below(len - pos + 1) : rng_below(40);
					if (n > len - pos)
						n = len - pos;
					rc |= bc_shash_update(tfm[d], bufa + so + pos, n);
					pos += n;
				}
				rc |= bc_shash_final(tfm[d], out);
				CHECK(rc == 0 && !memcmp(out, ref, dl), "update in pieces: %d", rc);
				/* final starts afresh */
				rc = bc_shash_update(tfm[d], bufa + so, len);
				rc |= bc_shash_final(tfm[d], out);
				CHECK(rc == 0 && !memcmp(out, ref, dl), "update after final: %d", rc);
			}
		}
		/* digest_many == single digests, n = 1..8, mixed lengths, leaving the running state alone */
		for (unsigned n = 1; n <= 8; n++) {
			for (int rep = 0; rep < (test_quick() ? 2 : 12); rep++) {
				const uint8_t *msgs[8];
				size_t mlens[8];
				uint8_t outs_mem[8][64], ref[8][64], *outs[8];
				size_t pos = 0;
				for (unsigned i = 0; i < n; i++) {
					size_t l = rep % 3 == 0 ? rng_below(300) : rep % 3 == 1 ? 16 * rng_below(20) : rng_below(1100);
					if (pos + l + 1 > MAXLEN)
						l = 0;
					pos += 1 + rng_below(3);
					rng_fill(bufa + pos, l);
					msgs[i] = bufa + pos;
					mlens[i] = l;
					outs[i] = outs_mem[i];
					pos += l;
					bc_shash_digest(tfm[r], msgs[i], l, ref[i]);
				}
				uint8_t part[64], whole[64];
				bc_shash_digest(tfm[r], pt, 100, whole);
				for (size_t d = 0; d < ds.n; d++) {
					if (!tfm[d])
						continue;
					set_context("%s [%s] key %u digest_many n=%u", alg, ds.info[d].driver, sizes[k], n);
					int rc = bc_shash_init(tfm[d]);
					rc |= bc_shash_update(tfm[d], pt, 37);
					memset(outs_mem, 0, sizeof(outs_mem));
					rc |= bc_shash_digest_many(tfm[d], n, msgs, mlens, outs);
					size_t bad = 0;
					for (unsigned i = 0; i < n; i++)
						bad += memcmp(outs[i], ref[i], dl) != 0;
					CHECK(rc == 0 && bad == 0, "%zu of %u outputs differ (rc %d)", bad, n, rc);
					rc = bc_shash_update(tfm[d], pt + 37, 63);
					rc |= bc_shash_final(tfm[d], part);
					CHECK(rc == 0 && !memcmp(part, whole, dl), "digest_many disturbed the running state");
				}
			}
		}
	}
	for (size_t d = 0; d < ds.n; d++)
		bc_shash_free(tfm[d]);
	drv_set_free(&ds);
}

/* ---- compositions: the modes rebuilt from ecb/cbc/hash through the public API ---------------------- */
static bc_skcipher *keyed_skcipher(const char *name, const uint8_t *key, size_t klen)
{
	bc_skcipher *t = NULL;
	if (bc_skcipher_alloc(&t, name) || bc_skcipher_setkey(t, key, klen)) {
		CHECK(0, "cannot set up %s", name);
		bc_skcipher_free(t);
		return NULL;
	}
	return t;
}

/* multiply by x in GF(2^128), little-endian byte order (IEEE 1619) */
static void xts_mul_x(uint8_t t[16])
{
	unsigned carry = 0;
	for (int i = 0; i < 16; i++) {
		unsigned nc = t[i] >> 7;
		t[i] = (uint8_t)(t[i] << 1 | carry);
		carry = nc;
	}
	if (carry)
		t[0] ^= 0x87;
}

/* Reference output of alg (encryption) built from ecb(X)/cbc(X)/hash; 0 if alg has no composition here. */
static int compose(const char *alg, const uint8_t *key, size_t klen, const uint8_t iv[16], const uint8_t *in,
                   uint8_t *out, size_t len)
{
	char name[64];
	const char *c = cipher_of(alg);
	int rc = 0;
	size_t bs = strstr(c, "des") ? 8 : 16;   /* des, des3_ede: 8-byte blocks */
	if (starts(alg, "ctr(")) {
		snprintf(name, sizeof(name), "ecb(%s)", c);
		bc_skcipher *e = keyed_skcipher(name, key, klen);
		if (!e)
			return -1;
		uint8_t ctr[16], ks[16];
		memcpy(ctr, iv, 16);
		for (size_t i = 0; i < len; i += bs) {
			rc |= bc_skcipher_encrypt(e, NULL, ctr, ks, bs);
			for (size_t j = 0; j < bs && i + j < len; j++)
				out[i + j] = in[i + j] ^ ks[j];
			if (bs == 16)
				ctr_add(ctr, 1);
			else   /* the whole 8-byte block counts, big-endian */
				for (int j = 7; j >= 0 && ++ctr[j] == 0; j--)
					;
		}
		bc_skcipher_free(e);
	} else if (starts(alg, "cbc(")) {
		snprintf(name, sizeof(name), "ecb(%s)", c);
		bc_skcipher *e = keyed_skcipher(name, key, klen);
		if (!e)
			return -1;
		uint8_t x[16];
		memcpy(x, iv, 16);
		for (size_t i = 0; i < len; i += bs) {
			for (size_t j = 0; j < bs; j++)
				x[j] ^= in[i + j];
			rc |= bc_skcipher_encrypt(e, NULL, x, x, bs);
			memcpy(out + i, x, bs);
		}
		bc_skcipher_free(e);
	} else if (starts(alg, "ecb(") && bs == 8) {
		/* one block per call: des's one-block path against its 64-lane bitsliced one */
		bc_skcipher *e = keyed_skcipher(alg, key, klen);
		if (!e)
			return -1;
		for (size_t i = 0; i < len; i += bs)
			rc |= bc_skcipher_encrypt(e, NULL, in + i, out + i, bs);
		bc_skcipher_free(e);
	} else if (starts(alg, "cts(")) {
		/* CBC-CS3 = CBC over the zero-padded input, last two blocks swapped, truncated */
		snprintf(name, sizeof(name), "cbc(%s)", c);
		bc_skcipher *e = keyed_skcipher(name, key, klen);
		if (!e)
			return -1;
		size_t m = (len + 15) / 16;
		uint8_t *p = tmp_alloc(16 * m), *q = tmp_alloc(16 * m), ivc[16];
		memcpy(p, in, len);
		memcpy(ivc, iv, 16);
		rc |= bc_skcipher_encrypt(e, ivc, p, q, 16 * m);
		if (m == 1) {
			memcpy(out, q, 16);
		} else {
			memcpy(out, q, 16 * (m - 2));
			memcpy(out + 16 * (m - 2), q + 16 * (m - 1), 16);
			memcpy(out + 16 * (m - 1), q + 16 * (m - 2), len - 16 * (m - 1));
		}
		bc_skcipher_free(e);
	} else if (starts(alg, "xts(")) {
		snprintf(name, sizeof(name), "ecb(%s)", c);
		bc_skcipher *e1 = keyed_skcipher(name, key, klen / 2), *e2 = keyed_skcipher(name, key + klen / 2, klen / 2);
		if (!e1 || !e2) {
			bc_skcipher_free(e1);
			bc_skcipher_free(e2);
			return -1;
		}
		uint8_t t[16], x[16];
		rc |= bc_skcipher_encrypt(e2, NULL, iv, t, 16);
		size_t full = len / 16, tail = len % 16;
		for (size_t i = 0; i < full; i++) {
			for (int j = 0; j < 16; j++)
				x[j] = in[16 * i + j] ^ t[j];
			rc |= bc_skcipher_encrypt(e1, NULL, x, x, 16);
			for (int j = 0; j < 16; j++)
				out[16 * i + j] = x[j] ^ t[j];
			xts_mul_x(t);
		}
		if (tail) {
			/* ciphertext stealing: the last full block's output donates its head */
			uint8_t *last = out + 16 * (full - 1), cc[16];
			memcpy(cc, last, 16);
			memcpy(x, in + 16 * full, tail);
			memcpy(x + tail, cc + tail, 16 - tail);
			memcpy(out + 16 * full, cc, tail);
			for (int j = 0; j < 16; j++)
				x[j] ^= t[j];
			rc |= bc_skcipher_encrypt(e1, NULL, x, x, 16);
			for (int j = 0; j < 16; j++)
				last[j] = x[j] ^ t[j];
		}
		bc_skcipher_free(e1);
		bc_skcipher_free(e2);
	} else if (starts(alg, "essiv(")) {
		/* IV' = X-encrypt under H(key) (cut to the cipher's key size for sm4), then cbc(X) */
		int sm4 = !strcmp(c, "sm4");
		bc_shash *h = NULL;
		uint8_t salt[32], ivp[16];
		if (bc_shash_alloc(&h, sm4 ? "sm3" : "sha256"))
			return -1;
		rc |= bc_shash_digest(h, key, klen, salt);
		bc_shash_free(h);
		snprintf(name, sizeof(name), "ecb(%s)", c);
		bc_skcipher *e = keyed_skcipher(name, salt, sm4 ? 16 : 32);
		snprintf(name, sizeof(name), "cbc(%s)", c);
		bc_skcipher *b = keyed_skcipher(name, key, klen);
		if (e && b) {
			rc |= bc_skcipher_encrypt(e, NULL, iv, ivp, 16);
			rc |= bc_skcipher_encrypt(b, ivp, in, out, len);
		} else {
			rc = -1;
		}
		bc_skcipher_free(e);
		bc_skcipher_free(b);
	} else {
		return 0;
	}
	return rc ? -1 : 1;
}

static void compositions(const char *alg)
{
	struct drv_set ds;
	drivers_for(alg, &ds);
	unsigned sizes[4];
	alg_key_sizes(alg, sizes);
	for (int k = 0; k < 4 && sizes[k]; k++) {
		for (size_t len = 0; len <= 300; len += 1 + (test_quick() ? 11 : rng_below(7))) {
			if (!alg_len_ok(alg, len))
				continue;
			uint8_t key[64], iv[16], ivc[16];
			rng_fill(key, sizes[k]);
			rng_fill(iv, 16);
			if (starts(alg, "ctr(") && len % 3 == 0)
				memset(iv + 4, 0xff, 12);   /* for des: the 8-byte counter 4 bytes from wrapping */
			rng_fill(pt, len);
			set_context("%s composition key %u len %zu", alg, sizes[k], len);
			int have = compose(alg, key, sizes[k], iv, pt, ref_ct, len);
			CHECK(have >= 0, "composition failed");
			if (have <= 0)
				break;
			for (size_t d = 0; d < ds.n; d++) {
				bc_skcipher *t = keyed_skcipher(ds.info[d].driver, key, sizes[k]);
				if (!t)
					continue;
				set_context("%s [%s] composition key %u len %zu", alg, ds.info[d].driver, sizes[k], len);
				memcpy(ivc, iv, 16);
				int rc = bc_skcipher_encrypt(t, ivc, pt, bufa, len);
				CHECK(rc == 0 && !memcmp(bufa, ref_ct, len), "differs from the composition: %d\n got %s\nwant %s", rc,
				      hex_str(bufa, len), hex_str(ref_ct, len));
				bc_skcipher_free(t);
			}
			tmp_free_all();
		}
	}
	drv_set_free(&ds);
}

/* cbcmac(X) = last block of cbc(X) with a zero IV over the zero-padded message; empty -> zero block. */
static void cbcmac_composition(const char *cipher)
{
	char name[64], cbc[64];
	snprintf(name, sizeof(name), "cbcmac(%s)", cipher);
	snprintf(cbc, sizeof(cbc), "cbc(%s)", cipher);
	struct drv_set ds;
	drivers_for(name, &ds);
	unsigned sizes[4];
	alg_key_sizes(name, sizes);
	for (int k = 0; k < 4 && sizes[k]; k++) {
		for (size_t len = 0; len <= 200; len++) {
			uint8_t key[32], want[16] = { 0 }, iv[16] = { 0 }, out[16];
			rng_fill(key, sizes[k]);
			rng_fill(pt, len);
			size_t padded = (len + 15) / 16 * 16;
			memset(pt + len, 0, padded - len);
			bc_skcipher *b = keyed_skcipher(cbc, key, sizes[k]);
			if (!b)
				break;
			if (padded) {
				bc_skcipher_encrypt(b, iv, pt, bufa, padded);
				memcpy(want, bufa + padded - 16, 16);
			}
			bc_skcipher_free(b);
			for (size_t d = 0; d < ds.n; d++) {
				bc_shash *h = NULL;
				set_context("%s [%s] composition key %u len %zu", name, ds.info[d].driver, sizes[k], len);
				int rc = bc_shash_alloc(&h, ds.info[d].driver);
				rc |= bc_shash_setkey(h, key, sizes[k]);
				rc |= bc_shash_digest(h, pt, len, out);
				CHECK(rc == 0 && !memcmp(out, want, 16), "differs from cbc composition: %s want %s", hex_str(out, 16),
				      hex_str(want, 16));
				bc_shash_free(h);
			}
		}
	}
	drv_set_free(&ds);
}

/* ---- main ---------------------------------------------------------------------------------------------- */
#define MAX_NAMES 64
static char *names[MAX_NAMES];
static enum bc_type types[MAX_NAMES];
static size_t nnames;

static int collect(const struct bc_driver_info *info, void *arg)
{
	(void)arg;
	if (info->type == BC_TYPE_CIPHER)
		return 0;
	for (size_t i = 0; i < nnames; i++)
		if (!strcmp(names[i], info->name))
			return 0;
	if (nnames < MAX_NAMES) {
		names[nnames] = strdup(info->name);
		types[nnames++] = info->type;
	}
	return 0;
}

int main(int argc, char **argv)
{
	(void)argc;
	test_init();
	rng_seed(0xc0ffee1234567ull);
	build_lengths();
	bc_list_drivers(collect, NULL);
	const char *only = getenv("BC_CROSS_ONLY");
	printf("test_cross: %zu algorithm names%s; CPU features: %s\n", nnames, test_quick() ? " (quick subset)" : "",
	       bc_cpu_features_string());
	for (size_t i = 0; i < nnames; i++) {
		if (only && !strstr(names[i], only))
			continue;
		unsigned long p0 = test_passed, f0 = test_failed;
		switch (types[i]) {
		case BC_TYPE_SKCIPHER:
			skcipher_cross(names[i]);
			compositions(names[i]);
			break;
		case BC_TYPE_AEAD: aead_cross(names[i]); break;
		case BC_TYPE_SHASH: shash_cross(names[i]); break;
		case BC_TYPE_CIPHER: break;
		}
		printf("  %-26s %lu checks passed, %lu failed\n", names[i], test_passed - p0, test_failed - f0);
	}
	if (!only) {
		cbcmac_composition("aes");
		cbcmac_composition("sm4");
	}
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	return test_summary(argv[0]);
}
