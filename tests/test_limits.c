/* Limits: lengths near SIZE_MAX, GCM's length bounds, ctr counters that carry through 32, 64 and 128 bits,
 * xts messages past 2^20 blocks. SP 800-38D 5.2.1.1 (GCM bounds), SP 800-38A B.1 (counters), IEEE 1619-2018 5.1. */
#include "common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FILL 0x5a

/* A call that must be refused before it reads or writes anything: the buffers are 16 bytes, the length is not. */
static void refused_lengths(void)
{
	static const char *const aligned[] = { "ecb(aes)", "cbc(aes)", "essiv(cbc(aes),sha256)", "ecb(sm4)", "cbc(sm4)" };
	uint8_t key[32] = { 1 }, iv[16] = { 0 }, src[16] = { 0 }, dst[16], tag[16];

	for (size_t i = 0; i < sizeof(aligned) / sizeof(aligned[0]); i++) {
		struct drv_set s;

		drivers_for(aligned[i], &s);
		for (size_t d = 0; d < s.n; d++) {
			bc_skcipher *t;
			set_context("%s [%s]", aligned[i], s.info[d].driver);
			if (bc_skcipher_alloc(&t, s.info[d].driver) || bc_skcipher_setkey(t, key, 16)) {
				CHECK(0, "alloc/setkey");
				continue;
			}
			static const size_t lens[] = { SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 8 };
			for (size_t l = 0; l < 3; l++) {
				memset(dst, FILL, sizeof(dst));
				CHECK(bc_skcipher_encrypt(t, iv, src, dst, lens[l]) == -EINVAL, "len SIZE_MAX-%zu", SIZE_MAX - lens[l]);
				CHECK(bc_skcipher_decrypt(t, iv, src, dst, lens[l]) == -EINVAL, "len SIZE_MAX-%zu", SIZE_MAX - lens[l]);
				CHECK(untouched(dst, sizeof(dst), FILL), "dst written");
			}
			bc_skcipher_free(t);
		}
		drv_set_free(&s);
	}

#if SIZE_MAX > 0xffffffffu
	/* GCM: plaintext at most 2^36 - 32 bytes; AAD and IV at most 2^64 - 1 bits (SP 800-38D 5.2.1.1).
	 * Only a 64-bit size_t reaches these; on 32-bit every length is within them. */
	static const char *const gcms[] = { "gcm(aes)", "gcm(sm4)" };
	for (size_t i = 0; i < 2; i++) {
		struct drv_set s;

		drivers_for(gcms[i], &s);
		for (size_t d = 0; d < s.n; d++) {
			bc_aead *t;
			set_context("%s [%s]", gcms[i], s.info[d].driver);
			if (bc_aead_alloc(&t, s.info[d].driver) || bc_aead_setkey(t, key, 16)) {
				CHECK(0, "alloc/setkey");
				continue;
			}
			const struct { size_t ivlen, adlen, len; } bad[] = {
				{ 12, 0, SIZE_MAX }, { 12, 0, SIZE_MAX - 15 }, { 12, 0, ((size_t)1 << 36) - 31 },
				{ 12, SIZE_MAX, 16 }, { 12, SIZE_MAX / 4, 0 }, { 12, (size_t)1 << 61, 0 },
				{ SIZE_MAX, 0, 16 }, { (size_t)1 << 61, 0, 0 },
			};
			for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
				memset(dst, FILL, sizeof(dst));
				memset(tag, FILL, sizeof(tag));
				CHECK(bc_aead_encrypt(t, iv, bad[b].ivlen, src, bad[b].adlen, src, dst, bad[b].len, tag) == -EINVAL,
				      "encrypt iv %zx ad %zx len %zx", bad[b].ivlen, bad[b].adlen, bad[b].len);
				CHECK(bc_aead_decrypt(t, iv, bad[b].ivlen, src, bad[b].adlen, src, dst, bad[b].len, tag) == -EINVAL,
				      "decrypt iv %zx ad %zx len %zx", bad[b].ivlen, bad[b].adlen, bad[b].len);
				CHECK(untouched(dst, sizeof(dst), FILL) && untouched(tag, sizeof(tag), FILL), "dst or tag written");
			}
			bc_aead_free(t);
		}
		drv_set_free(&s);
	}
#else
	(void)tag;
#endif
}

/* ctr: the counter is one 128-bit big-endian number (the kernel's crypto_inc); start just below a carry out of
 * the low 32 and 64 bits and out of all 128, with lengths that put the carry inside every driver's batch. */
static void ctr_carries(void)
{
	static const char *const algs[] = { "ctr(aes)", "ctr(sm4)" };
	static const size_t lens[] = { 16, 100, 256, 1000, 4096 + 7 };

	for (size_t a = 0; a < 2; a++) {
		struct drv_set s;
		char gname[96];
		bc_skcipher *g, *e;
		uint8_t key[16];

		rng_fill(key, sizeof(key));
		generic_driver_name(algs[a], gname, sizeof(gname));
		/* the reference: each counter block encrypted with the generic ecb, then XORed */
		snprintf(gname + 32, sizeof(gname) - 32, "ecb(%s-generic)", a ? "sm4" : "aes");
		if (bc_skcipher_alloc(&e, gname + 32) || bc_skcipher_setkey(e, key, 16)) {
			CHECK(0, "generic ecb");
			return;
		}
		drivers_for(algs[a], &s);
		for (size_t d = 0; d < s.n; d++) {
			set_context("%s [%s]", algs[a], s.info[d].driver);
			if (bc_skcipher_alloc(&g, s.info[d].driver) || bc_skcipher_setkey(g, key, 16)) {
				CHECK(0, "alloc/setkey");
				continue;
			}
			for (int carry = 0; carry < 3; carry++) {
				for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
					size_t len = lens[l], nb = (len + 15) / 16;
					uint8_t iv0[16], iv[16], want_iv[16], *pt = tmp_alloc(len), *ct = tmp_alloc(len);
					uint8_t *ks = tmp_alloc(nb * 16);

					rng_fill(iv0, 16);
					/* the low 32, 64 or 128 bits all ones, less a few blocks */
					memset(iv0 + (carry == 0 ? 12 : carry == 1 ? 8 : 0), 0xff, carry == 0 ? 4 : carry == 1 ? 8 : 16);
					iv0[15] = (uint8_t)(0xff - rng_below(nb + 1));
					rng_fill(pt, len);
					memcpy(want_iv, iv0, 16);
					for (size_t i = 0; i < nb; i++) {
						memcpy(ks + 16 * i, want_iv, 16);
						ctr_add(want_iv, 1);
					}
					bc_skcipher_encrypt(e, NULL, ks, ks, nb * 16);
					for (size_t i = 0; i < len; i++)
						ks[i] ^= pt[i];
					memcpy(iv, iv0, 16);
					CHECK(bc_skcipher_encrypt(g, iv, pt, ct, len) == 0, "encrypt");
					CHECK(!memcmp(ct, ks, len), "carry %d, %zu bytes: wrong output", carry, len);
					CHECK(!memcmp(iv, want_iv, 16), "carry %d, %zu bytes: wrong next counter %s", carry, len,
					      hex_str(iv, 16));
				}
			}
			bc_skcipher_free(g);
			tmp_free_all();
		}
		drv_set_free(&s);
		bc_skcipher_free(e);
	}
}

/* xts past 2^20 blocks (IEEE 1619-2018 caps a data unit there; the kernel, and so the library, does not):
 * 2^20 + 1 blocks and a partial one, every driver equal to the generic. */
static void xts_long(void)
{
	static const char *const algs[] = { "xts(aes)", "xts(sm4)" };
	size_t len = ((size_t)1 << 24) + 16 + 5;
	uint8_t *pt = malloc(len), *want = malloc(len), *got = malloc(len), key[64], iv[16], iv2[16];

	if (!pt || !want || !got) {
		CHECK(0, "out of memory");
		return;
	}
	rng_fill(pt, len);
	for (size_t a = 0; a < 2; a++) {
		struct drv_set s;
		char gname[96];
		bc_skcipher *g, *t;

		rng_fill(key, sizeof(key));
		rng_fill(iv, sizeof(iv));
		if (bc_skcipher_alloc(&g, generic_driver_name(algs[a], gname, sizeof(gname))) ||
		    bc_skcipher_setkey(g, key, 32) || bc_skcipher_encrypt(g, memcpy(iv2, iv, 16), pt, want, len)) {
			CHECK(0, "generic");
			continue;
		}
		drivers_for(algs[a], &s);
		/* under emulation only the best driver: 16 MiB at emulated speed per driver is too slow */
		for (size_t d = 0; d < s.n; d += test_quick() ? s.n : 1) {
			set_context("%s [%s]", algs[a], s.info[d].driver);
			if (bc_skcipher_alloc(&t, s.info[d].driver) || bc_skcipher_setkey(t, key, 32)) {
				CHECK(0, "alloc/setkey");
				continue;
			}
			CHECK(bc_skcipher_encrypt(t, memcpy(iv2, iv, 16), pt, got, len) == 0 && !memcmp(got, want, len),
			      "%zu bytes differ from the generic", len);
			CHECK(bc_skcipher_decrypt(t, memcpy(iv2, iv, 16), got, got, len) == 0 && !memcmp(got, pt, len),
			      "%zu bytes do not decrypt", len);
			bc_skcipher_free(t);
		}
		drv_set_free(&s);
		bc_skcipher_free(g);
	}
	free(pt);
	free(want);
	free(got);
}

int main(int argc, char **argv)
{
	(void)argc;
	test_init();
	rng_seed(0x1171u);
	refused_lengths();
	ctr_carries();
	xts_long();
	return test_summary(argv[0]);
}
