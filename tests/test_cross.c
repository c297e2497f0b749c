/* Cross-checks: every driver against the generic one on random inputs (all key sizes, lengths, alignments,
 * in place, chained calls, split updates, digest_many), and the generic modes against compositions of ecb/cbc. */
#include "common.h"
#include "common_tmpl.h"

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

/* A message of xctr or hctr2 split in two calls at a random point: each
 * call is a message of its own, the reference's encryption of that part
 * with the same IV, which neither call changes; an hctr2 part under 16
 * bytes is refused with -EINVAL and nothing written. The two messages
 * together differ from the whole one (hctr2 from 32 bytes, xctr when the
 * second part is not empty and has a counter block other than the first). */
static void whole_split(bc_skcipher *ref, bc_skcipher *t, const uint8_t *iv0, size_t len, const char *what)
{
	size_t ivl = bc_skcipher_ivsize(t), min = bc_skcipher_blocksize(t) == 16 ? 16 : 0;
	size_t split = rng_below(len + 1), part[2] = { split, len - split };
	uint8_t iv[32], want[MAXLEN];
	int rc;

	for (int i = 0; i < 2; i++) {
		const uint8_t *in = pt + (i ? split : 0);
		memset(bufb, 0x5c, part[i] + 1);
		memcpy(iv, iv0, ivl);
		rc = bc_skcipher_encrypt(t, iv, in, bufb, part[i]);
		if (part[i] < min) {
			CHECK(rc == -EINVAL && untouched(bufb, part[i] + 1, 0x5c), "%s part %d of %zu at %zu: %d", what, i,
			      part[i], split, rc);
			continue;
		}
		memcpy(iv, iv0, ivl);
		rc |= bc_skcipher_encrypt(ref, iv, in, want, part[i]);
		CHECK(rc == 0 && !memcmp(bufb, want, part[i]) && bufb[part[i]] == 0x5c && !memcmp(iv, iv0, ivl),
		      "%s split at %zu: part %d is not a message of its own: %d", what, split, i, rc);
		if (i == 1 && (min ? len >= 32 && split >= 16 : split % 16 == 0 && part[1] > 0 && split > 0))
			CHECK(memcmp(bufb, ref_ct + split, part[1]), "%s split at %zu: the second part continued the first",
			      what, split);
	}
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
	/* xctr and hctr2 take each call as one whole message (the kernel's
	 * semantics): xctr's counter restarts, and hctr2's first block depends
	 * on all the rest. A split makes two messages, each the reference's
	 * answer for its part alone; a part under hctr2's 16 bytes is refused. */
	int whole = starts(alg, "xctr(") || starts(alg, "hctr2(") || starts(alg, "adiantum(");
	size_t ivl = tfm[r] ? bc_skcipher_ivsize(tfm[r]) : 16;
	/* chacha20 and xchacha: the 32-bit block counter in the IV at cofs */
	int chacha = starts(alg, "chacha20") || starts(alg, "xchacha");
	size_t cofs = starts(alg, "xchacha") ? 24 : 0;
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
			uint8_t iv0[32], iv_ref[32], iv[32], *ivp = ecb ? NULL : iv;
			if (ctr)
				ctr_iv(iv0, li);
			else
				rng_fill(iv0, ivl);
			if (chacha && li % 4 == 1)   /* the counter wraps inside the text: word 12 alone, as the kernel's */
				store_le32(iv0 + cofs, 0xffffffffu - (uint32_t)rng_below(8));
			rng_fill(pt, len);
			memcpy(iv_ref, iv0, ivl);
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
					memcpy(iv, iv0, ivl);
					rc = op(tfm[d], ivp, bufa + so, bufb + doff, len);
					CHECK(rc == 0 && !memcmp(bufb + doff, want, len), "%s out of place (src+%zu dst+%zu): %d", what,
					      so, doff, rc);
					CHECK(bufb[doff - 1] == 0x5c && bufb[doff + len] == 0x5c, "%s wrote outside dst", what);
					CHECK(ecb || !memcmp(iv, iv_ref, ivl), "%s: IV after %s want %s", what, hex_str(iv, ivl),
					      hex_str(iv_ref, ivl));
					/* in place */
					memcpy(bufc + so, in, len);
					memcpy(iv, iv0, ivl);
					rc = op(tfm[d], ivp, bufc + so, bufc + so, len);
					CHECK(rc == 0 && !memcmp(bufc + so, want, len), "%s in place: %d", what, rc);
					if (whole && !dec)
						whole_split(tfm[r], tfm[d], iv0, len, what);
					/* two calls continue one stream (cbc, ctr, ecb), split at a block boundary */
					if (chain && len >= 16) {
						size_t split = 16 * rng_below(len / 16 + 1);
						memcpy(iv, iv0, ivl);
						rc = op(tfm[d], ivp, in, bufb, split);
						rc |= op(tfm[d], ivp, in + split, bufb + split, len - split);
						CHECK(rc == 0 && !memcmp(bufb, want, len), "%s split at %zu: %d", what, split, rc);
						CHECK(ecb || !memcmp(iv, iv_ref, ivl), "%s split at %zu: IV after", what, split);
					}
					/* a stream cipher's IV stays: the second call names its first block */
					if (chacha) {
						size_t split = 64 * rng_below(len / 64 + 1);
						memcpy(iv, iv0, ivl);
						rc = op(tfm[d], iv, in, bufb, split);
						store_le32(iv + cofs, load_le32(iv0 + cofs) + (uint32_t)(split / 64));
						rc |= op(tfm[d], iv, in + split, bufb + split, len - split);
						CHECK(rc == 0 && !memcmp(bufb, want, len), "%s split at %zu: %d", what, split, rc);
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
/* The drivers of alg and the reference (reference_set), each allocated into tfm; the reference's index or -1. */
static int aead_drivers(const char *alg, struct drv_set *ds, bc_aead **tfm)
{
	int r = reference_set(alg, ds);
	if (r < 0)
		return -1;
	printf("  %-26s %zu drivers, reference %s\n", alg, ds->n, ds->info[r].driver);
	for (size_t d = 0; d < ds->n; d++) {
		int rc = bc_aead_alloc(&tfm[d], ds->info[d].driver);
		set_context("%s [%s]", alg, ds->info[d].driver);
		CHECK(rc == 0, "alloc: %d", rc);
	}
	return r;
}

static void aead_setkeys(bc_aead **tfm, size_t n, const uint8_t *key, unsigned klen)
{
	for (size_t d = 0; d < n; d++)
		if (tfm[d])
			CHECK(bc_aead_setkey(tfm[d], key, klen) == 0, "setkey");
}

/* One driver on one message (pt, len) against the reference's ref_ct and tag_ref: out of place at random
 * misalignments and in place, encrypting and decrypting; a write outside dst or the tag is caught. */
static void aead_vs_reference(bc_aead *t, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen, size_t len,
			      size_t tl, const uint8_t *tag_ref)
{
	uint8_t tag[16];
	int rc = bc_aead_setauthsize(t, tl);
	size_t so = 1 + rng_below(15), doff = 1 + rng_below(15);

	memcpy(bufa + so, pt, len);
	memset(bufb, 0x5c, sizeof(bufb));
	memset(tag, 0x5c, sizeof(tag));
	rc |= bc_aead_encrypt(t, iv, ivlen, ad, adlen, bufa + so, bufb + doff, len, tag);
	CHECK(rc == 0 && !memcmp(bufb + doff, ref_ct, len) && !memcmp(tag, tag_ref, tl),
	      "encrypt: %d, tag %s want %s", rc, hex_str(tag, tl), hex_str(tag_ref, tl));
	CHECK(bufb[doff - 1] == 0x5c && bufb[doff + len] == 0x5c && (tl == 16 || tag[tl] == 0x5c),
	      "encrypt wrote outside dst/tag");
	memcpy(bufc + so, pt, len);
	rc = bc_aead_encrypt(t, iv, ivlen, ad, adlen, bufc + so, bufc + so, len, tag);
	CHECK(rc == 0 && !memcmp(bufc + so, ref_ct, len) && !memcmp(tag, tag_ref, tl), "encrypt in place: %d", rc);
	memcpy(bufa + so, ref_ct, len);
	rc = bc_aead_decrypt(t, iv, ivlen, ad, adlen, bufa + so, bufb + doff, len, tag_ref);
	CHECK(rc == 0 && !memcmp(bufb + doff, pt, len), "decrypt: %d", rc);
	rc = bc_aead_decrypt(t, iv, ivlen, ad, adlen, bufa + so, bufa + so, len, tag_ref);
	CHECK(rc == 0 && !memcmp(bufa + so, pt, len), "decrypt in place: %d", rc);
}

static void aead_cross(const char *alg)
{
	struct drv_set ds;
	bc_aead *tfm[MAX_DRIVERS] = { 0 };
	int r = aead_drivers(alg, &ds, tfm);
	if (r < 0)
		return;
	unsigned sizes[4];
	alg_key_sizes(alg, sizes);
	static const size_t taglens[] = { 16, 4, 8, 12, 13, 14, 15 };
	int cp = starts(alg, "rfc7539"), esp = starts(alg, "rfc7539esp(");
	size_t samples = test_quick() ? 60 : 900;
	for (int k = 0; k < 4 && sizes[k] && tfm[r]; k++) {
		uint8_t key[TEST_KEY_MAX];
		rng_fill(key, sizes[k]);
		aead_setkeys(tfm, ds.n, key, sizes[k]);
		for (size_t s = 0; s < samples; s++) {
			uint8_t iv[64], ad[80], tag_ref[16];
			size_t ivlen = s % 2 ? 12 : 1 + rng_below(64);
			size_t adlen = s < 81 ? s : rng_below(81);
			if (cp) {   /* rfc7539: 12-byte IVs; the ESP form's 8 and its IV copy ending the AD */
				ivlen = esp ? 8 : 12;
				adlen = esp && adlen < 8 ? 8 + adlen : adlen;
			}
			size_t len = s < nlens ? lens[(s * 7) % nlens] : lens[rng_below(nlens)];
			if (s % 50 == 0)
				len = 4080 + rng_below(33);
			size_t tl = cp ? 16 : taglens[s % 7];
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
				aead_vs_reference(tfm[d], iv, ivlen, ad, adlen, len, tl, tag_ref);
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
		uint8_t key[TEST_KEY_MAX];
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

/* a (x) b in GF(2^128) for LRW: big-endian, bit j of the integer is the
 * coefficient of x^j (the P1619 draft's order), bit by bit */
static void lrw_gfmul(const uint8_t a[16], const uint8_t b[16], uint8_t out[16])
{
	uint8_t acc[16] = { 0 }, v[16];
	memcpy(v, a, 16);
	for (int bit = 0; bit < 128; bit++) {
		if (b[15 - bit / 8] >> (bit % 8) & 1)
			for (int i = 0; i < 16; i++)
				acc[i] ^= v[i];
		unsigned top = v[0] >> 7;
		for (int i = 0; i < 15; i++)
			v[i] = (uint8_t)(v[i] << 1 | v[i + 1] >> 7);
		v[15] = (uint8_t)(v[15] << 1);
		if (top)
			v[15] ^= 0x87;
	}
	memcpy(out, acc, 16);
}

/* Reference output of alg (encryption) built from ecb(X)/cbc(X)/hash; 0 if alg has no composition here. */
static int compose(const char *alg, const uint8_t *key, size_t klen, const uint8_t iv[16], const uint8_t *in,
                   uint8_t *out, size_t len)
{
	char name[64];
	const char *c = alg_cipher(alg);
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
	} else if (starts(alg, "lrw(")) {
		/* T = K2 (x) (I + j) for block j, K2 the last 16 key bytes; C = E(P ^ T) ^ T */
		snprintf(name, sizeof(name), "ecb(%s)", c);
		bc_skcipher *e = keyed_skcipher(name, key, klen - 16);
		if (!e)
			return -1;
		uint8_t idx[16], t[16], x[16];
		memcpy(idx, iv, 16);
		for (size_t i = 0; i < len; i += 16) {
			lrw_gfmul(key + klen - 16, idx, t);
			for (int j = 0; j < 16; j++)
				x[j] = in[i + j] ^ t[j];
			rc |= bc_skcipher_encrypt(e, NULL, x, x, 16);
			for (int j = 0; j < 16; j++)
				out[i + j] = x[j] ^ t[j];
			for (int j = 15; j >= 0 && ++idx[j] == 0; j--)
				;
		}
		bc_skcipher_free(e);
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
			if ((starts(alg, "ctr(") || starts(alg, "lrw(")) && len % 3 == 0)
				memset(iv + 4, 0xff, 12);   /* for des: the 8-byte counter 4 bytes from wrapping; lrw: carries past 64 bits */
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

/* ---- templates over whole algorithms -------------------------------------------------------------------
 * Every driver of hmac(H), rfc3686, rfc4106, rfc4543, rfc4309, authenc and authencesn, and the instance
 * over the generic parts, against the definition computed here from the plain parts: the hash (ref_hmac),
 * the generic gcm/ctr/cbc instances called with the expanded nonce or counter block. */
static const size_t tmpl_lens[] = { 0, 1, 15, 16, 17, 31, 32, 33, 48, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129,
	255, 256, 1000, 1420, 4096, 8192 };
#define N_TMPL_LENS (sizeof(tmpl_lens) / sizeof(tmpl_lens[0]))

/* "hmac(sha256)" -> "sha256"; "authenc(hmac(sha1),cbc(aes))" -> "hmac(sha1)" and "cbc(aes)". */
static void split_args(const char *alg, char *a, char *b, size_t n)
{
	const char *s = strchr(alg, '(') + 1;
	int depth = 0;
	size_t i = 0;

	*b = 0;
	for (; *s && !(depth == 0 && (*s == ',' || *s == ')')); s++) {
		depth += *s == '(';
		depth -= *s == ')';
		if (i + 1 < n)
			a[i++] = *s;
	}
	a[i] = 0;
	if (*s == ',') {
		snprintf(b, n, "%s", s + 1);
		b[strlen(b) - 1] = 0;
	}
}

/* The driver list of alg plus the instance over the generic parts, spelled out. */
static void composed_set(const char *alg, const char *generic, struct drv_set *ds)
{
	drivers_for(alg, ds);
	set_context("%s", alg);
	CHECK(ds->n > 0, "no driver listed");
	for (size_t i = 0; i < ds->n; i++)
		if (!strcmp(ds->info[i].driver, generic))
			return;
	if (ds->n < MAX_DRIVERS) {
		memset(&ds->info[ds->n], 0, sizeof(ds->info[0]));
		ds->info[ds->n].name = strdup(alg);
		ds->info[ds->n].driver = strdup(generic);
		ds->n++;
	}
}

/* "cbc(des3_ede)" -> "cbc(des3_ede-generic)", "gcm(aes)" -> "gcm_base(ctr(aes-generic),ghash-generic)",
 * "sha256" -> "sha256-generic". */
static void generic_of(const char *alg, char *out, size_t n)
{
	char a[64], b[64];

	if (starts(alg, "gcm(")) {
		split_args(alg, a, b, sizeof(a));
		snprintf(out, n, "gcm_base(ctr(%s-generic),ghash-generic)", a);
	} else if (starts(alg, "hmac(")) {
		split_args(alg, a, b, sizeof(a));
		snprintf(out, n, "hmac(%s-generic)", a);
	} else if (strchr(alg, '(')) {
		split_args(alg, a, b, sizeof(a));
		snprintf(out, n, "%.*s(%s-generic)", (int)(strchr(alg, '(') - alg), alg, a);
	} else {
		snprintf(out, n, "%s-generic", alg);
	}
}

static void hmac_cross(const char *alg)
{
	static const size_t keylens[] = { 0, 1, 20, 32, 63, 64, 65, 100, 128, 129, 131, 200, 300 };
	char hash[64], dummy[64], generic[128];
	struct drv_set ds;
	uint8_t key[300], want[64], out[64], outs_buf[9][64];

	split_args(alg, hash, dummy, sizeof(hash));
	snprintf(generic, sizeof(generic), "hmac(%s-generic)", hash);
	composed_set(alg, generic, &ds);
	printf("  %-26s %zu drivers, reference the bare %s\n", alg, ds.n, hash);
	for (size_t d = 0; d < ds.n; d++) {
		bc_shash *h = NULL, *h2 = NULL;
		int rc = bc_shash_alloc(&h, ds.info[d].driver);
		set_context("%s [%s]", alg, ds.info[d].driver);
		CHECK(rc == 0, "alloc: %d", rc);
		if (rc)
			continue;
		for (size_t k = 0; k < sizeof(keylens) / sizeof(keylens[0]); k++) {
			rng_fill(key, keylens[k]);
			CHECK(bc_shash_setkey(h, key, keylens[k]) == 0, "setkey(%zu)", keylens[k]);
			for (size_t li = 0; li < N_TMPL_LENS; li++) {
				size_t len = tmpl_lens[li], dl, cut = len ? rng_below(len + 1) : 0;
				const uint8_t *parts[1] = { pt };
				rng_fill(pt, len);
				set_context("%s [%s] key %zu len %zu", alg, ds.info[d].driver, keylens[k], len);
				rc = ref_hmac(hash, key, keylens[k], parts, &len, 1, want, &dl);
				CHECK(rc == 0 && dl == bc_shash_digestsize(h), "reference: %d", rc);
				rc = bc_shash_digest(h, pt, len, out);
				CHECK(rc == 0 && !memcmp(out, want, dl), "digest %s want %s", hex_str(out, dl), hex_str(want, dl));
				/* split at a random point, the state copied half way */
				rc = bc_shash_init(h) | bc_shash_update(h, pt, cut);
				rc |= bc_shash_dup(&h2, h);
				rc |= bc_shash_update(h, pt + cut, len - cut) | bc_shash_final(h, out);
				CHECK(rc == 0 && !memcmp(out, want, dl), "split at %zu", cut);
				if (h2) {
					rc = bc_shash_update(h2, pt + cut, len - cut) | bc_shash_final(h2, out);
					CHECK(rc == 0 && !memcmp(out, want, dl), "dup at %zu", cut);
					bc_shash_free(h2);
					h2 = NULL;
				}
			}
			/* digest_many: 9 messages of different lengths under the same key */
			const uint8_t *msgs[9];
			size_t mlens[9];
			uint8_t *outs[9];
			for (size_t i = 0; i < 9; i++) {
				msgs[i] = pt + 100 * i;
				mlens[i] = tmpl_lens[(i * 5 + k) % N_TMPL_LENS] % 700;
				outs[i] = outs_buf[i];
			}
			rng_fill(pt, 1600);
			rc = bc_shash_digest_many(h, 9, msgs, mlens, outs);
			for (size_t i = 0; i < 9; i++) {
				size_t dl;
				ref_hmac(hash, key, keylens[k], &msgs[i], &mlens[i], 1, want, &dl);
				CHECK(rc == 0 && !memcmp(outs[i], want, dl), "digest_many message %zu (%zu bytes)", i, mlens[i]);
			}
		}
		bc_shash_free(h);
	}
	drv_set_free(&ds);
}

static void rfc3686_cross(const char *alg)
{
	char inner[64], dummy[64], generic[160], ref_name[128];
	struct drv_set ds;
	bc_skcipher *ref = NULL;
	uint8_t key[36], iv[8], iv0[8], blk[16];

	split_args(alg, inner, dummy, sizeof(inner));
	generic_of(inner, ref_name, sizeof(ref_name));
	snprintf(generic, sizeof(generic), "rfc3686(%s)", ref_name);
	composed_set(alg, generic, &ds);
	printf("  %-26s %zu drivers, reference %s\n", alg, ds.n, ref_name);
	CHECK(bc_skcipher_alloc(&ref, ref_name) == 0, "reference alloc");
	for (size_t d = 0; d < ds.n && ref; d++) {
		bc_skcipher *t = NULL;
		set_context("%s [%s]", alg, ds.info[d].driver);
		CHECK(bc_skcipher_alloc(&t, ds.info[d].driver) == 0 && bc_skcipher_ivsize(t) == 8, "alloc, ivsize 8");
		for (size_t kl = 16; t && kl <= 32; kl += 8) {
			if (bc_skcipher_setkey(ref, key, kl))
				continue;                          /* sm4: 16 only */
			rng_fill(key, kl + 4);
			CHECK(bc_skcipher_setkey(t, key, kl + 4) == 0 && bc_skcipher_setkey(ref, key, kl) == 0, "setkey");
			for (size_t li = 0; li < N_TMPL_LENS; li++) {
				size_t len = tmpl_lens[li], so = rng_below(16);
				rng_fill(iv0, 8);
				rng_fill(pt, len);
				memcpy(blk, key + kl, 4);
				memcpy(blk + 4, iv0, 8);
				blk[12] = blk[13] = blk[14] = 0;
				blk[15] = 1;
				set_context("%s [%s] key %zu len %zu", alg, ds.info[d].driver, kl + 4, len);
				int rc = bc_skcipher_encrypt(ref, blk, pt, ref_ct, len);
				memcpy(iv, iv0, 8);
				memcpy(bufa + so, pt, len);
				rc |= bc_skcipher_encrypt(t, iv, bufa + so, bufb, len);
				CHECK(rc == 0 && !memcmp(bufb, ref_ct, len) && !memcmp(iv, iv0, 8), "encrypt (or IV changed)");
				rc = bc_skcipher_decrypt(t, iv, bufb, bufb, len);
				CHECK(rc == 0 && !memcmp(bufb, pt, len), "decrypt in place");
			}
		}
		bc_skcipher_free(t);
	}
	bc_skcipher_free(ref);
	drv_set_free(&ds);
}

/* The inner AEAD's request for an ESP wrapper's one: rfc4106 and rfc4309 drop the IV copy
 * at the end of the associated data, rfc4543 authenticates it and the payload as AAD. */
static void esp_cross(const char *alg)
{
	char inner[64], dummy[64], generic[160], ref_name[128];
	struct drv_set ds;
	bc_aead *ref = NULL;
	int r4543 = starts(alg, "rfc4543("), r4309 = starts(alg, "rfc4309(");
	size_t saltlen = r4309 ? 3 : 4;
	static const size_t tls[] = { 16, 12, 8 };
	uint8_t key[36], iv[8], nonce[16], ad[20 + MAXLEN], tag[16], tag_ref[16];

	split_args(alg, inner, dummy, sizeof(inner));
	generic_of(inner, ref_name, sizeof(ref_name));
	if (bc_aead_alloc(&ref, ref_name) != 0)      /* ccm: the best of its name */
		snprintf(ref_name, sizeof(ref_name), "%s", inner);
	bc_aead_free(ref);
	ref = NULL;
	snprintf(generic, sizeof(generic), "%.7s(%s)", alg, ref_name);
	composed_set(alg, generic, &ds);
	printf("  %-26s %zu drivers, reference %s\n", alg, ds.n, ref_name);
	CHECK(bc_aead_alloc(&ref, ref_name) == 0, "reference alloc");
	for (size_t d = 0; d < ds.n && ref; d++) {
		bc_aead *t = NULL;
		set_context("%s [%s]", alg, ds.info[d].driver);
		CHECK(bc_aead_alloc(&t, ds.info[d].driver) == 0, "alloc");
		for (size_t kl = 16; t && kl <= 32; kl += 8) {
			rng_fill(key, kl + saltlen);
			if (bc_aead_setkey(ref, key, kl))
				continue;
			CHECK(bc_aead_setkey(t, key, kl + saltlen) == 0, "setkey");
			for (size_t li = 0; li < N_TMPL_LENS; li++) {
				size_t len = tmpl_lens[li], adlen = li % 2 ? 20 : 16, tl = r4543 ? 16 : tls[li % 3];
				size_t nlen = 12;
				rng_fill(iv, 8);
				rng_fill(ad, adlen - 8);
				memcpy(ad + adlen - 8, iv, 8);
				rng_fill(pt, len);
				if (r4309) {
					memset(nonce, 0, 16);
					nonce[0] = 3;
					memcpy(nonce + 1, key + kl, 3);
					memcpy(nonce + 4, iv, 8);
					nlen = 16;
				} else {
					memcpy(nonce, key + kl, 4);
					memcpy(nonce + 4, iv, 8);
				}
				set_context("%s [%s] key %zu ad %zu len %zu tag %zu", alg, ds.info[d].driver, kl + saltlen, adlen,
				            len, tl);
				int rc = bc_aead_setauthsize(ref, tl) | bc_aead_setauthsize(t, tl);
				if (r4543) {            /* GMAC: AAD = the whole associated data || payload */
					memcpy(ad + adlen, pt, len);
					rc |= bc_aead_encrypt(ref, nonce, nlen, ad, adlen + len, NULL, NULL, 0, tag_ref);
					memcpy(ref_ct, pt, len);
				} else {
					rc |= bc_aead_encrypt(ref, nonce, nlen, ad, adlen - 8, pt, ref_ct, len, tag_ref);
				}
				CHECK(rc == 0, "reference: %d", rc);
				memset(tag, 0x5c, sizeof(tag));
				rc = bc_aead_encrypt(t, iv, 8, ad, adlen, pt, bufb, len, tag);
				CHECK(rc == 0 && !memcmp(bufb, ref_ct, len) && !memcmp(tag, tag_ref, tl) &&
				      (tl == 16 || tag[tl] == 0x5c), "encrypt: %d", rc);
				rc = bc_aead_decrypt(t, iv, 8, ad, adlen, bufb, bufc, len, tag_ref);
				CHECK(rc == 0 && !memcmp(bufc, pt, len), "decrypt: %d", rc);
				/* the ESP layout: the payload right after the associated data, in place */
				memcpy(bufa, ad, adlen);
				memcpy(bufa + adlen, pt, len);
				rc = bc_aead_encrypt(t, iv, 8, bufa, adlen, bufa + adlen, bufa + adlen, len, tag);
				CHECK(rc == 0 && !memcmp(bufa + adlen, ref_ct, len) && !memcmp(tag, tag_ref, tl),
				      "encrypt in an ESP packet: %d", rc);
				rc = bc_aead_decrypt(t, iv, 8, bufa, adlen, bufa + adlen, bufa + adlen, len, tag);
				CHECK(rc == 0 && !memcmp(bufa + adlen, pt, len), "decrypt in an ESP packet: %d", rc);
			}
		}
		bc_aead_free(t);
	}
	bc_aead_free(ref);
	drv_set_free(&ds);
}

static void authenc_cross(const char *alg)
{
	char mac[64], enc[64], hash[64], dummy[64], generic[200], enc_ref[96];
	struct drv_set ds;
	bc_skcipher *ref = NULL;
	int esn = starts(alg, "authencesn(");
	uint8_t authkey[128], enckey[32], blob[200], iv[16], ivc[16], ad[24], tag[65], want[64];   /* tag: one byte past the longest */

	split_args(alg, mac, enc, sizeof(mac));
	split_args(mac, hash, dummy, sizeof(hash));
	generic_of(enc, enc_ref, sizeof(enc_ref));
	snprintf(generic, sizeof(generic), "%s(hmac(%s-generic),%s)", esn ? "authencesn" : "authenc", hash, enc_ref);
	composed_set(alg, generic, &ds);
	printf("  %-26s %zu drivers, reference %s and the bare %s\n", alg, ds.n, enc_ref, hash);
	CHECK(bc_skcipher_alloc(&ref, enc_ref) == 0, "reference alloc");
	size_t ivlen = ref ? bc_skcipher_ivsize(ref) : 0, bs = ref ? bc_skcipher_blocksize(ref) : 1;
	for (size_t d = 0; d < ds.n && ref; d++) {
		bc_aead *t = NULL;
		set_context("%s [%s]", alg, ds.info[d].driver);
		CHECK(bc_aead_alloc(&t, ds.info[d].driver) == 0, "alloc");
		for (size_t k = 0; t && k < 3; k++) {
			size_t alen = k == 0 ? 20 : k == 1 ? 64 : 100 + rng_below(28), elen;
			rng_fill(authkey, alen);
			rng_fill(enckey, 32);
			for (elen = 32; elen && bc_skcipher_setkey(ref, enckey, elen); elen--)
				;                                  /* the longest key the cipher takes */
			size_t bl = authenc_blob(blob, authkey, alen, enckey, elen);
			CHECK(bc_aead_setkey(t, blob, bl) == 0, "setkey (%zu-byte MAC key)", alen);
			for (size_t li = 0; li < N_TMPL_LENS; li++) {
				size_t len = tmpl_lens[li] / bs * bs, adlen = 8 + rng_below(17), dl;
				size_t tl = li % 4 == 0 ? bc_aead_authsize(t) : 4 + rng_below(bc_aead_authsize(t) - 3);
				rng_fill(iv, ivlen);
				rng_fill(ad, adlen);
				rng_fill(pt, len);
				memcpy(ivc, iv, ivlen);
				int rc = bc_skcipher_encrypt(ref, ivc, pt, ref_ct, len);
				const uint8_t *parts[4] = { ad, ad + 8, ref_ct, ad + 4 };
				size_t plens[4] = { 4, adlen - 8, len, 4 };
				if (!esn) {
					parts[0] = ad;
					plens[0] = adlen;
					parts[1] = ref_ct;
					plens[1] = len;
				}
				rc |= ref_hmac(hash, authkey, alen, parts, plens, esn ? 4 : 2, want, &dl);
				set_context("%s [%s] MAC key %zu ad %zu len %zu tag %zu", alg, ds.info[d].driver, alen, adlen, len,
				            tl);
				CHECK(rc == 0, "reference: %d", rc);
				rc = bc_aead_setauthsize(t, tl);
				memset(tag, 0x5c, sizeof(tag));
				memcpy(ivc, iv, ivlen);
				rc |= bc_aead_encrypt(t, iv, ivlen, ad, adlen, pt, bufb, len, tag);
				CHECK(rc == 0 && !memcmp(bufb, ref_ct, len) && !memcmp(tag, want, tl) && tag[tl] == 0x5c &&
				      !memcmp(iv, ivc, ivlen), "encrypt: %d tag %s want %s", rc, hex_str(tag, tl), hex_str(want, tl));
				rc = bc_aead_decrypt(t, iv, ivlen, ad, adlen, bufb, bufb, len, want);
				CHECK(rc == 0 && !memcmp(bufb, pt, len), "decrypt in place: %d", rc);
			}
		}
		bc_aead_free(t);
	}
	bc_skcipher_free(ref);
	drv_set_free(&ds);
}

static void composed_cross(const char *alg, enum bc_type type)
{
	(void)type;
	if (starts(alg, "hmac("))
		hmac_cross(alg);
	else if (starts(alg, "rfc3686("))
		rfc3686_cross(alg);
	else if (starts(alg, "authenc"))
		authenc_cross(alg);
	else
		esp_cross(alg);
}

/* ---- ccm ------------------------------------------------------------------------------------------------- */
/* ccm from its definition (SP 800-38C A.2, 6.1) over the ctr(X) and cbcmac(X)
 * drivers: B0, the AD length in 2, 6 or 10 bytes, the AD zero-padded, the
 * text (cbcmac pads it), then the tag masked by the keystream of counter 0
 * and the text encrypted from counter 1. */
static int ccm_compose(const char *cipher, const uint8_t *key, size_t klen, const uint8_t iv[16], const uint8_t *ad,
		       size_t adlen, const uint8_t *p, size_t len, size_t tl, uint8_t *ct, uint8_t tag[16])
{
	char name[32];
	unsigned l = iv[0] + 1u;
	uint8_t b0[16], hdr[10], a[16], s0[16], mac[16];
	static const uint8_t zeros[16];
	size_t hl = 0;
	bc_shash *h = NULL;
	int rc;

	memcpy(b0, iv, 16);
	b0[0] = (uint8_t)((adlen ? 64 : 0) | (tl - 2) / 2 * 8 | (l - 1));
	for (unsigned i = 0; i < l; i++)
		b0[15 - i] = (uint8_t)((uint64_t)len >> (8 * i));
	if (adlen && adlen < 0xff00) {
		hdr[0] = (uint8_t)(adlen >> 8), hdr[1] = (uint8_t)adlen, hl = 2;
	} else if (adlen) {
		hdr[0] = 0xff, hdr[1] = 0xfe, hl = 6;
		for (int i = 0; i < 4; i++)
			hdr[2 + i] = (uint8_t)(adlen >> (24 - 8 * i));
	}
	snprintf(name, sizeof(name), "cbcmac(%s)", cipher);
	rc = bc_shash_alloc(&h, name) | bc_shash_setkey(h, key, klen) | bc_shash_init(h);
	rc |= bc_shash_update(h, b0, 16) | bc_shash_update(h, hdr, hl) | bc_shash_update(h, ad, adlen);
	if ((hl + adlen) % 16)
		rc |= bc_shash_update(h, zeros, 16 - (hl + adlen) % 16);
	rc |= bc_shash_update(h, p, len) | bc_shash_final(h, mac);
	bc_shash_free(h);
	snprintf(name, sizeof(name), "ctr(%s)", cipher);
	bc_skcipher *c = keyed_skcipher(name, key, klen);
	if (!c)
		return -1;
	memcpy(a, iv, 16);
	memset(a + 16 - l, 0, l);
	rc |= bc_skcipher_encrypt(c, a, zeros, s0, 16);   /* leaves a at counter 1 */
	rc |= bc_skcipher_encrypt(c, a, p, ct, len);
	bc_skcipher_free(c);
	for (int i = 0; i < 16; i++)
		tag[i] = mac[i] ^ s0[i];
	return rc;
}

/* Every ccm driver against the template over the generic cipher, and that
 * against the composition above: random L (2..8, so nonces of 7..13 bytes),
 * every tag length, every text length of the list, AD of 0..300 bytes and
 * across the 0xff00 boundary where its length takes 6 bytes. */
static uint8_t ccm_ad[0xff10];

static void ccm_cross(const char *alg)
{
	static const size_t taglens[] = { 16, 4, 6, 8, 10, 12, 14 };
	static const size_t long_ad[] = { 0xfeff, 0xff00, 0xff01, 0xff0f };
	struct drv_set ds;
	bc_aead *tfm[MAX_DRIVERS] = { 0 };
	int r = aead_drivers(alg, &ds, tfm);
	if (r < 0)
		return;
	unsigned sizes[4];
	alg_key_sizes(alg, sizes);
	size_t samples = test_quick() ? 80 : 1400;
	for (int k = 0; k < 4 && sizes[k] && tfm[r]; k++) {
		uint8_t key[TEST_KEY_MAX];
		rng_fill(key, sizes[k]);
		aead_setkeys(tfm, ds.n, key, sizes[k]);
		for (size_t s = 0; s < samples; s++) {
			uint8_t iv[16], tag_ref[16], tag[16];
			size_t adlen = s < 301 ? s : rng_below(301);
			size_t len = s < nlens ? lens[(s * 7) % nlens] : lens[rng_below(nlens)];
			size_t tl = taglens[s % 7];
			if (s % 97 == 0)
				adlen = long_ad[(s / 97) % 4];
			rng_fill(iv, 16);
			iv[0] = (uint8_t)(1 + rng_below(7));
			rng_fill(ccm_ad, adlen);
			rng_fill(pt, len);
			bc_aead_setauthsize(tfm[r], tl);
			int rc = bc_aead_encrypt(tfm[r], iv, 16, ccm_ad, adlen, pt, ref_ct, len, tag_ref);
			set_context("%s [%s] key %u L %u ad %zu len %zu tag %zu", alg, ds.info[r].driver, sizes[k], iv[0] + 1u,
			            adlen, len, tl);
			CHECK(rc == 0, "reference encrypt: %d", rc);
			if (s % 4 == 0) {
				rc = ccm_compose(alg_cipher(alg), key, sizes[k], iv, ccm_ad, adlen, pt, len, tl, bufa, tag);
				CHECK(rc == 0 && !memcmp(bufa, ref_ct, len) && !memcmp(tag, tag_ref, tl),
				      "differs from the ctr and cbcmac composition: tag %s want %s", hex_str(tag_ref, tl),
				      hex_str(tag, tl));
			}
			for (size_t d = 0; d < ds.n; d++) {
				if (!tfm[d] || (int)d == r)
					continue;
				set_context("%s [%s] key %u L %u ad %zu len %zu tag %zu", alg, ds.info[d].driver, sizes[k],
				            iv[0] + 1u, adlen, len, tl);
				aead_vs_reference(tfm[d], iv, 16, ccm_ad, adlen, len, tl, tag_ref);
				tag[0] = tag_ref[0] ^ 1;
				memcpy(tag + 1, tag_ref + 1, 15);
				rc = bc_aead_decrypt(tfm[d], iv, 16, ccm_ad, adlen, ref_ct, bufb, len, tag);
				CHECK(rc == -EBADMSG && untouched(bufb, len, 0), "decrypt with a bad tag: %d", rc);
			}
		}
	}
	for (size_t d = 0; d < ds.n; d++)
		bc_aead_free(tfm[d]);
	drv_set_free(&ds);
}

/* ---- main ---------------------------------------------------------------------------------------------- */
#define MAX_NAMES 160
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
		if (composed_name(names[i]))
			composed_cross(names[i], types[i]);
		else switch (types[i]) {
		case BC_TYPE_SKCIPHER:
			skcipher_cross(names[i]);
			compositions(names[i]);
			break;
		case BC_TYPE_AEAD:
			if (starts(names[i], "ccm("))
				ccm_cross(names[i]);
			else
				aead_cross(names[i]);
			break;
		case BC_TYPE_SHASH: shash_cross(names[i]); break;
		case BC_TYPE_CIPHER: break;
		}
		printf("  %-26s %lu checks passed, %lu failed\n", names[i], test_passed - p0, test_failed - f0);
	}
	if (!only) {
		cbcmac_composition("aes");
		cbcmac_composition("sm4");
		cbcmac_composition("twofish");
		cbcmac_composition("camellia");
	}
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	return test_summary(argv[0]);
}
