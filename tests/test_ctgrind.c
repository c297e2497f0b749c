/* Constant-time check under valgrind memcheck ("ctgrind"): keys, plaintexts and messages are marked
 * undefined, so any branch or memory address that depends on them is reported as an error. */
#include "common.h"
#include "common_tmpl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define HAVE_MEMCHECK 1
#endif
#endif

#ifdef HAVE_MEMCHECK
#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

/* The verdict of a tag or key comparison is public by design (the caller
 * learns it from the return value); bc_memneq is the one place where secrets
 * are allowed to become it. This wrapper (valgrind function wrapping; NONE =
 * the main executable, where the static library lives) declassifies only that
 * result, so a comparison done any other way (memcmp, an early-exit loop) is
 * still reported. */
int I_WRAP_SONAME_FNNAME_ZU(NONE, bc_memneq)(const void *a, const void *b, size_t len);
int I_WRAP_SONAME_FNNAME_ZU(NONE, bc_memneq)(const void *a, const void *b, size_t len)
{
	OrigFn fn;
	int r;
	VALGRIND_GET_ORIG_FN(fn);
	CALL_FN_W_WWW(r, fn, a, b, len);
	VALGRIND_MAKE_MEM_DEFINED(&r, sizeof(r));
	return r;
}
#else
#define SECRET(p, n) ((void)(p), (void)(n))
#define PUBLIC(p, n) ((void)(p), (void)(n))
#define RUNNING_ON_VALGRIND 0
#endif

#define MAXLEN 300
static uint64_t checksum;

static void fold(const uint8_t *p, size_t n)
{
	PUBLIC(p, n);
	for (size_t i = 0; i < n; i++)
		checksum = checksum * 31 + p[i];
}

static void ct_skcipher(const struct bc_driver_info *info)
{
	unsigned sizes[4];
	alg_key_sizes(info->name, sizes);
	bc_skcipher *tfm;
	if (bc_skcipher_alloc(&tfm, info->driver)) {
		CHECK(0, "alloc");
		return;
	}
	static const size_t lens[] = { 16, 48, 64, 128, 256, 17, 31, 100, 255 };
	for (int k = 0; k < 4 && sizes[k]; k++) {
		uint8_t key[64], iv[32], iv2[32], pt[MAXLEN], ct[MAXLEN], back[MAXLEN];   /* 32: hctr2's tweak, xchacha's IV */
		rng_fill(key, sizes[k]);
		SECRET(key, sizes[k]);
		int rc = bc_skcipher_setkey(tfm, key, sizes[k]);
		CHECK(rc == 0, "setkey(%u): %d", sizes[k], rc);
		for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
			size_t len = lens[li];
			if (!alg_len_ok(info->name, len))
				continue;
			rng_fill(pt, len);
			rng_fill(iv, sizeof(iv));
			memcpy(iv2, iv, sizeof(iv));
			SECRET(pt, len);
			rc = bc_skcipher_encrypt(tfm, starts(info->name, "ecb(") ? NULL : iv, pt, ct, len);
			/* the ciphertext (and a chained IV) is public */
			PUBLIC(ct, len);
			PUBLIC(iv, sizeof(iv));
			rc |= bc_skcipher_decrypt(tfm, starts(info->name, "ecb(") ? NULL : iv2, ct, back, len);
			fold(back, len);
			PUBLIC(pt, len);
			CHECK(rc == 0 && !memcmp(back, pt, len), "round trip of %zu bytes: %d", len, rc);
		}
	}
	bc_skcipher_free(tfm);
}

static void ct_aead(const struct bc_driver_info *info)
{
	unsigned sizes[4];
	alg_key_sizes(info->name, sizes);
	bc_aead *tfm;
	if (bc_aead_alloc(&tfm, info->driver)) {
		CHECK(0, "alloc");
		return;
	}
	static const size_t lens[] = { 0, 16, 60, 64, 255 };
	static const size_t ivlens[] = { 12, 16, 1 };
	int ccm = !strncmp(info->name, "ccm(", 4);
	/* rfc7539: a 12-byte IV and 16-byte tags; its ESP form an 8-byte IV, the AD at least that long */
	int cp = !strncmp(info->name, "rfc7539", 7), esp = !strncmp(info->name, "rfc7539esp(", 11);
	for (int k = 0; k < 4 && sizes[k]; k++) {
		uint8_t key[36], iv[16], ad[40], pt[MAXLEN], ct[MAXLEN], back[MAXLEN], tag[16];
		rng_fill(key, sizes[k]);
		SECRET(key, sizes[k]);
		int rc = bc_aead_setkey(tfm, key, sizes[k]);
		CHECK(rc == 0, "setkey(%u): %d", sizes[k], rc);
		for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
			size_t len = lens[li], ivlen = ccm ? 16 : esp ? 8 : cp ? 12 : ivlens[li % 3], adlen = 7 * li + 8 * esp;
			rng_fill(pt, len);
			rng_fill(iv, ivlen);
			if (ccm)
				iv[0] = (uint8_t)(1 + li % 7);   /* L = 2..6: the kernel's counter block */
			rng_fill(ad, adlen);
			SECRET(pt, len);
			bc_aead_setauthsize(tfm, li % 2 && !cp ? 12 : 16);
			rc = bc_aead_encrypt(tfm, iv, ivlen, ad, adlen, pt, ct, len, tag);
			PUBLIC(ct, len);
			PUBLIC(tag, 16);
			rc |= bc_aead_decrypt(tfm, iv, ivlen, ad, adlen, ct, back, len, tag);
			fold(back, len);
			PUBLIC(pt, len);
			CHECK(rc == 0 && !memcmp(back, pt, len), "round trip of %zu bytes: %d", len, rc);
			/* the failure path: zero-fill without looking at the plaintext */
			tag[0] ^= 1;
			rc = bc_aead_decrypt(tfm, iv, ivlen, ad, adlen, ct, back, len, tag);
			fold(back, len);
			CHECK(rc == -EBADMSG, "bad tag: %d", rc);
		}
	}
	bc_aead_free(tfm);
}

static void ct_shash(const struct bc_driver_info *info)
{
	unsigned sizes[4];
	alg_key_sizes(info->name, sizes);
	bc_shash *tfm;
	if (bc_shash_alloc(&tfm, info->driver)) {
		CHECK(0, "alloc");
		return;
	}
	static const size_t lens[] = { 0, 1, 16, 55, 64, 65, 200 };
	for (int k = 0; k < 4 && (k == 0 || sizes[k]); k++) {
		uint8_t key[TEST_KEY_MAX], msg[MAXLEN], out[64], out2[64];
		if (sizes[k]) {
			rng_fill(key, sizes[k]);
			SECRET(key, sizes[k]);
			int rc = bc_shash_setkey(tfm, key, sizes[k]);
			CHECK(rc == 0, "setkey(%u): %d", sizes[k], rc);
		}
		size_t dl = bc_shash_digestsize(tfm);
		for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
			size_t len = lens[li];
			rng_fill(msg, len);
			SECRET(msg, len);
			int rc = bc_shash_digest(tfm, msg, len, out);
			rc |= bc_shash_init(tfm);
			rc |= bc_shash_update(tfm, msg, len / 2);
			rc |= bc_shash_update(tfm, msg + len / 2, len - len / 2);
			rc |= bc_shash_final(tfm, out2);
			fold(out, dl);
			fold(out2, dl);
			CHECK(rc == 0 && !memcmp(out, out2, dl), "digest of %zu bytes: %d", len, rc);
		}
		/* interleaved MACs */
		const uint8_t *msgs[8];
		size_t mlens[8];
		uint8_t outs_mem[8][64], *outs[8];
		for (unsigned i = 0; i < 8; i++) {
			msgs[i] = msg + 3 * i;
			mlens[i] = 16 * i + i % 3;
			outs[i] = outs_mem[i];
		}
		rng_fill(msg, MAXLEN);
		SECRET(msg, MAXLEN);
		int rc = bc_shash_digest_many(tfm, 8, msgs, mlens, outs);
		for (unsigned i = 0; i < 8; i++)
			fold(outs[i], dl);
		CHECK(rc == 0, "digest_many: %d", rc);
	}
	bc_shash_free(tfm);
}

static size_t ndrivers;

static void run_one(const struct bc_driver_info *info)
{
	ndrivers++;
	set_context("%s [%s]", info->name, info->driver);
	switch (info->type) {
	case BC_TYPE_SKCIPHER: ct_skcipher(info); break;
	case BC_TYPE_AEAD: ct_aead(info); break;
	case BC_TYPE_SHASH: ct_shash(info); break;
	case BC_TYPE_CIPHER: break;
	}
}

/* The templates over whole algorithms: hmac's key path (a key shorter and longer than the block), the
 * wrappers' salt and the authenc blob's keys secret, the tag checks on the failure path. */
static void ct_composed_aead(const struct bc_driver_info *info, bc_aead *tfm)
{
	int authenc = starts(info->name, "authenc");
	uint8_t key[160], iv[16], ad[20], pt[MAXLEN], ct[MAXLEN], back[MAXLEN], tag[64];
	size_t klen, ivlen = authenc ? info->ivsize : 8, adlen = 20;
	static const size_t lens[] = { 0, 16, 64, 160, 256 };

	for (int k = 0; k < 2; k++) {
		if (authenc) {
			uint8_t ak[100], ek[32];
			size_t el = strstr(info->name, "des3_ede") ? 24 : 16;
			rng_fill(ak, sizeof(ak));
			rng_fill(ek, el);
			klen = authenc_blob(key, ak, k ? 100 : 20, ek, el);
			SECRET(key + 8, klen - 8);            /* the header is public */
		} else {
			klen = (starts(info->name, "rfc4309(") ? 19 : 20) + 16 * (size_t)k;
			if (klen > info->max_keysize)
				break;                            /* sm4: one key size */
			rng_fill(key, klen);
			SECRET(key, klen);
		}
		int rc = bc_aead_setkey(tfm, key, klen);
		CHECK(rc == 0, "setkey(%zu): %d", klen, rc);
		for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
			size_t len = lens[li], tl = bc_aead_authsize(tfm);
			rng_fill(pt, len);
			rng_fill(iv, ivlen);
			rng_fill(ad, adlen);
			SECRET(pt, len);
			rc = bc_aead_encrypt(tfm, iv, ivlen, ad, adlen, pt, ct, len, tag);
			PUBLIC(ct, len);
			PUBLIC(tag, tl);
			rc |= bc_aead_decrypt(tfm, iv, ivlen, ad, adlen, ct, back, len, tag);
			fold(back, len);
			PUBLIC(pt, len);
			CHECK(rc == 0 && !memcmp(back, pt, len), "round trip of %zu bytes: %d", len, rc);
			tag[tl - 1] ^= 1;
			rc = bc_aead_decrypt(tfm, iv, ivlen, ad, adlen, ct, back, len, tag);
			fold(back, len);
			CHECK(rc == -EBADMSG, "bad tag: %d", rc);
		}
	}
}

static void ct_composed(const struct bc_driver_info *info)
{
	ndrivers++;
	set_context("%s [%s]", info->name, info->driver);
	if (info->type == BC_TYPE_AEAD) {
		bc_aead *tfm;
		if (bc_aead_alloc(&tfm, info->driver)) {
			CHECK(0, "alloc");
			return;
		}
		ct_composed_aead(info, tfm);
		bc_aead_free(tfm);
	} else if (info->type == BC_TYPE_SKCIPHER) {             /* rfc3686 */
		bc_skcipher *tfm;
		uint8_t key[36], iv[8], pt[MAXLEN], ct[MAXLEN], back[MAXLEN];
		if (bc_skcipher_alloc(&tfm, info->driver)) {
			CHECK(0, "alloc");
			return;
		}
		rng_fill(key, 20);
		SECRET(key, 20);
		int rc = bc_skcipher_setkey(tfm, key, 20);
		rng_fill(pt, 100);
		rng_fill(iv, 8);
		SECRET(pt, 100);
		rc |= bc_skcipher_encrypt(tfm, iv, pt, ct, 100);
		PUBLIC(ct, 100);
		rc |= bc_skcipher_decrypt(tfm, iv, ct, back, 100);
		fold(back, 100);
		PUBLIC(pt, 100);
		CHECK(rc == 0 && !memcmp(back, pt, 100), "round trip: %d", rc);
		bc_skcipher_free(tfm);
	} else {                                                  /* hmac */
		static const size_t keylens[] = { 0, 20, 64, 65, 131 };
		bc_shash *tfm;
		uint8_t key[131], msg[MAXLEN], out[64], out2[64];
		if (bc_shash_alloc(&tfm, info->driver)) {
			CHECK(0, "alloc");
			return;
		}
		size_t dl = bc_shash_digestsize(tfm);
		for (size_t k = 0; k < sizeof(keylens) / sizeof(keylens[0]); k++) {
			rng_fill(key, keylens[k]);
			SECRET(key, keylens[k]);
			int rc = bc_shash_setkey(tfm, key, keylens[k]);
			for (size_t len = 0; len < 200; len += 37) {
				rng_fill(msg, len);
				SECRET(msg, len);
				rc |= bc_shash_digest(tfm, msg, len, out);
				rc |= bc_shash_init(tfm) | bc_shash_update(tfm, msg, len / 3);
				rc |= bc_shash_update(tfm, msg + len / 3, len - len / 3) | bc_shash_final(tfm, out2);
				fold(out, dl);
				fold(out2, dl);
				CHECK(rc == 0 && !memcmp(out, out2, dl), "key %zu, %zu bytes: %d", keylens[k], len, rc);
			}
			const uint8_t *msgs[3] = { msg, msg + 10, msg + 100 };
			size_t mlens[3] = { 5, 64, 150 };
			uint8_t o[3][64], *outs[3] = { o[0], o[1], o[2] };
			rng_fill(msg, MAXLEN);
			SECRET(msg, MAXLEN);
			rc = bc_shash_digest_many(tfm, 3, msgs, mlens, outs);
			for (int i = 0; i < 3; i++)
				fold(o[i], dl);
			CHECK(rc == 0, "digest_many: %d", rc);
		}
		bc_shash_free(tfm);
	}
}

static int is_mac(const char *name)
{
	return starts(name, "cmac(") || starts(name, "xcbc(") || starts(name, "cbcmac(");
}

/* A block cipher is reached through templates: the MACs over every one (the listed MACs
 * cover only the best cipher), and every mode over the portable ones, which no listed
 * driver uses on a CPU with AES instructions. */
static void ct_cipher(const struct bc_driver_info *c)
{
	static const struct { const char *name, *driver; enum bc_type type; } tmpl[] = {
		{ "cmac(%s)", "cmac(%s)", BC_TYPE_SHASH },
		{ "xcbc(%s)", "xcbc(%s)", BC_TYPE_SHASH },
		{ "cbcmac(%s)", "cbcmac(%s)", BC_TYPE_SHASH },
		{ "ecb(%s)", "ecb(%s)", BC_TYPE_SKCIPHER },
		{ "cbc(%s)", "cbc(%s)", BC_TYPE_SKCIPHER },
		{ "ctr(%s)", "ctr(%s)", BC_TYPE_SKCIPHER },
		{ "cts(cbc(%s))", "cts(cbc(%s))", BC_TYPE_SKCIPHER },
		{ "xts(%s)", "xts(ecb(%s))", BC_TYPE_SKCIPHER },
		{ "lrw(%s)", "lrw(ecb(%s))", BC_TYPE_SKCIPHER },
		{ "essiv(cbc(%s),%s)", "essiv(cbc(%s),%s-generic)", BC_TYPE_SKCIPHER },
		{ "gcm(%s)", "gcm_base(ctr(%s),ghash-generic)", BC_TYPE_AEAD },
	};
	const char *hash = strcmp(c->name, "sm4") ? "sha256" : "sm3";
	int generic = strstr(c->driver, "-generic") != NULL;

	for (size_t i = 0; i < sizeof(tmpl) / sizeof(tmpl[0]) && (generic || i < 3); i++) {
		char name[64], driver[96];
		struct bc_driver_info t = *c;

		/* an 8-byte block cipher (des, des3_ede) has ecb, cbc, ctr, and
		 * cmac where a known answer exists (des3_ede) */
		if (c->blocksize == 8 && !(i >= 3 && i <= 5) && !(i == 0 && !strcmp(c->name, "des3_ede")))
			continue;

		snprintf(name, sizeof(name), tmpl[i].name, c->name, hash);
		snprintf(driver, sizeof(driver), tmpl[i].driver, c->driver, hash);
		t.name = name;
		t.driver = driver;
		t.type = tmpl[i].type;
		run_one(&t);
	}
}

/* arg: BC_CTGRIND_ONLY, a part of the driver names to check (all when unset). */
static int each(const struct bc_driver_info *info, void *arg)
{
	const char *only = arg;

	if (only && !strstr(info->driver, only))
		return 0;
	if (info->type == BC_TYPE_CIPHER)
		ct_cipher(info);
	else if (composed_name(info->name))
		ct_composed(info);
	else if (info->type != BC_TYPE_SHASH || !is_mac(info->name))
		run_one(info);
	return 0;
}

int main(int argc, char **argv)
{
	(void)argc;
	test_init();
	rng_seed(0xc7c7c7c7u);
#ifndef HAVE_MEMCHECK
	printf("test_ctgrind: valgrind/memcheck.h missing: running without secret marking\n");
#endif
	/* The registry's self-tests run on first use, on public data: trigger them
	 * before anything is marked secret. */
	bc_selftest_all(0, NULL, NULL);
	bc_list_drivers(each, getenv("BC_CTGRIND_ONLY"));
	printf("test_ctgrind: %zu drivers%s; CPU features: %s; checksum %016llx\n", ndrivers,
	       RUNNING_ON_VALGRIND ? " under valgrind" : "", bc_cpu_features_string(), (unsigned long long)checksum);
	return test_summary(argv[0]);
}
