/* Fuzz harness support: the input reader, the table of every driver per algorithm, exact-size buffers.
 * Driver coverage follows Linux crypto/testmgr.c: every implementation, also inside every template. */
#include "fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/asan_interface.h>
#define FZ_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#endif
#endif
#ifndef FZ_POISON
#define FZ_POISON(p, n) ((void)(p), (void)(n))
#endif

void fz_init(struct fz *f, const uint8_t *data, size_t size)
{
	uint64_t h = 0xcbf29ce484222325u;   /* FNV-1a of the input seeds the filler */

	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 0x100000001b3u;
	*f = (struct fz){ data, size, 0, h | 1 };
}

uint8_t fz_u8(struct fz *f)
{
	if (f->pos < f->n)
		return f->p[f->pos++];
	/* xorshift64* */
	f->rng ^= f->rng >> 12;
	f->rng ^= f->rng << 25;
	f->rng ^= f->rng >> 27;
	return (uint8_t)((f->rng * 0x2545f4914f6cdd1du) >> 56);
}

uint16_t fz_u16(struct fz *f)
{
	uint16_t lo = fz_u8(f);

	return (uint16_t)(lo | fz_u8(f) << 8);
}

void fz_bytes(struct fz *f, uint8_t *out, size_t n)
{
	size_t have = f->pos < f->n ? f->n - f->pos : 0;

	if (have > n)
		have = n;
	if (have)
		memcpy(out, f->p + f->pos, have);
	f->pos += have;
	for (size_t i = have; i < n; i++)
		out[i] = fz_u8(f);
}

struct fz_alg fz_algs[] = {
	{ .name = "ecb(aes)" }, { .name = "cbc(aes)" }, { .name = "ctr(aes)" }, { .name = "cts(cbc(aes))" },
	{ .name = "xts(aes)" }, { .name = "essiv(cbc(aes),sha256)" }, { .name = "gcm(aes)" },
	{ .name = "cmac(aes)" }, { .name = "xcbc(aes)" }, { .name = "cbcmac(aes)" },
	{ .name = "ecb(sm4)" }, { .name = "cbc(sm4)" }, { .name = "ctr(sm4)" }, { .name = "cts(cbc(sm4))" },
	{ .name = "xts(sm4)" }, { .name = "essiv(cbc(sm4),sm3)" }, { .name = "gcm(sm4)" },
	{ .name = "cmac(sm4)" }, { .name = "xcbc(sm4)" }, { .name = "cbcmac(sm4)" },
	{ .name = "sha256" }, { .name = "sm3" }, { .name = "ghash" },
	{ .name = "sha1" }, { .name = "sha224" }, { .name = "sha384" }, { .name = "sha512" }, { .name = "md5" },
	{ .name = "ccm(aes)" }, { .name = "ccm(sm4)" },
	/* after the hashes: hmac is tried over each driver of its hash */
	{ .name = "hmac(sha256)" }, { .name = "hmac(sm3)" }, { .name = "hmac(sha1)" }, { .name = "hmac(sha512)" },
	{ .name = "ecb(des)" }, { .name = "cbc(des)" }, { .name = "ctr(des)" },
	{ .name = "ecb(des3_ede)" }, { .name = "cbc(des3_ede)" }, { .name = "ctr(des3_ede)" }, { .name = "cmac(des3_ede)" },
	{ .name = "lrw(aes)" }, { .name = "lrw(sm4)" },
	{ .name = "ecb(twofish)" }, { .name = "cbc(twofish)" }, { .name = "ctr(twofish)" }, { .name = "cts(cbc(twofish))" },
	{ .name = "xts(twofish)" }, { .name = "essiv(cbc(twofish),sha256)" }, { .name = "gcm(twofish)" },
	{ .name = "cmac(twofish)" }, { .name = "xcbc(twofish)" }, { .name = "cbcmac(twofish)" },
	{ .name = "ecb(camellia)" }, { .name = "cbc(camellia)" }, { .name = "ctr(camellia)" }, { .name = "cts(cbc(camellia))" },
	{ .name = "xts(camellia)" }, { .name = "gcm(camellia)" }, { .name = "cmac(camellia)" },
	{ .name = "ecb(serpent)" }, { .name = "cbc(serpent)" }, { .name = "ctr(serpent)" }, { .name = "cts(cbc(serpent))" },
	{ .name = "xts(serpent)" }, { .name = "gcm(serpent)" }, { .name = "cmac(serpent)" }, { .name = "lrw(serpent)" },
	{ .name = "lrw(twofish)" },
	/* xctr and chacha20 before the templates over their drivers (hctr2, rfc7539) */
	{ .name = "xctr(aes)" }, { .name = "polyval" }, { .name = "hctr2(aes)" },
	{ .name = "chacha20" }, { .name = "xchacha20" }, { .name = "xchacha12" },
	{ .name = "rfc7539(chacha20,poly1305)" }, { .name = "rfc7539esp(chacha20,poly1305)" },
};
const size_t fz_nalgs = sizeof(fz_algs) / sizeof(fz_algs[0]);

static struct fz_alg *alg_named(const char *name)
{
	for (size_t i = 0; i < fz_nalgs; i++)
		if (!strcmp(fz_algs[i].name, name))
			return &fz_algs[i];
	return NULL;
}

static int allocates(enum bc_type type, const char *driver)
{
	int err;

	if (type == BC_TYPE_SKCIPHER) {
		bc_skcipher *t;
		err = bc_skcipher_alloc(&t, driver);
		bc_skcipher_free(t);
	} else if (type == BC_TYPE_AEAD) {
		bc_aead *t;
		err = bc_aead_alloc(&t, driver);
		bc_aead_free(t);
	} else {
		bc_shash *t;
		err = bc_shash_alloc(&t, driver);
		bc_shash_free(t);
	}
	return err == 0;
}

static void add_cand(struct fz_alg *a, const char *driver)
{
	for (size_t i = 0; i < a->ncand; i++)
		if (!strcmp(a->cand[i], driver))
			return;
	if (a->ncand == FZ_MAX_CAND || strlen(driver) >= sizeof(a->cand[0]) || !allocates(a->type, driver))
		return;
	strcpy(a->cand[a->ncand++], driver);
}

/* The cipher drivers ("aes-generic", "aes-aesni", ...) of one cipher name. */
struct cipher_list {
	const char *name;
	size_t n;
	char d[16][64];
};

static int collect_ciphers(const struct bc_driver_info *info, void *arg)
{
	struct cipher_list *c = arg;

	if (info->type == BC_TYPE_CIPHER && !strcmp(info->name, c->name) && c->n < 16)
		snprintf(c->d[c->n++], sizeof(c->d[0]), "%s", info->driver);
	return 0;
}

static int collect_listed(const struct bc_driver_info *info, void *arg)
{
	struct fz_alg *a = arg;

	if (info->type != BC_TYPE_CIPHER && !strcmp(info->name, a->name))
		add_cand(a, info->driver);
	return 0;
}

/* The template instances of a over the drivers of an inner algorithm. */
static void add_over(struct fz_alg *a, const char *tmpl, const struct fz_alg *inner, const char *suffix)
{
	char d[256];

	for (size_t i = 0; i < inner->ncand; i++) {
		snprintf(d, sizeof(d), "%s(%s%s)", tmpl, inner->cand[i], suffix);
		add_cand(a, d);
	}
}

void fz_setup(void)
{
	static int done;
	char buf[128];

	if (done)
		return;
	done = 1;
	for (size_t i = 0; i < fz_nalgs; i++) {
		struct fz_alg *a = &fz_algs[i];
		const char *cipher = alg_cipher(a->name);
		struct cipher_list cl = { .name = cipher };
		char pre[16];

		a->type = !strncmp(a->name, "gcm(", 4) || !strncmp(a->name, "ccm(", 4) || !strncmp(a->name, "rfc7539", 7)
				  ? BC_TYPE_AEAD
			  : !strncmp(a->name, "chacha20", 8) || !strncmp(a->name, "xchacha", 7) ? BC_TYPE_SKCIPHER
			  : (strchr(a->name, '(') == NULL || strstr(a->name, "mac(") || !strncmp(a->name, "xcbc(", 5))
				? BC_TYPE_SHASH
			  : BC_TYPE_SKCIPHER;
		alg_key_sizes(a->name, a->keysizes);
		snprintf(a->generic, sizeof(a->generic), "%s", generic_driver_name(a->name, buf, sizeof(buf)));
		add_cand(a, a->generic);
		bc_list_drivers(collect_listed, a);
		bc_list_drivers(collect_ciphers, &cl);
		snprintf(pre, sizeof(pre), "%.*s", (int)strcspn(a->name, "("), a->name);
		if (!strcmp(pre, "hmac")) {
			snprintf(buf, sizeof(buf), "%.*s", (int)strlen(a->name) - 6, a->name + 5);
			add_over(a, "hmac", alg_named(buf), "");
		} else if (!strcmp(pre, "ecb") || !strcmp(pre, "cbc") || !strcmp(pre, "ctr") || !strcmp(pre, "xctr") ||
			   strstr(pre, "mac")) {
			for (size_t j = 0; j < cl.n; j++) {
				snprintf(buf, sizeof(buf), "%s(%s)", pre, cl.d[j]);
				add_cand(a, buf);
			}
		} else if (!strcmp(pre, "cts")) {
			snprintf(buf, sizeof(buf), "cbc(%s)", cipher);
			add_over(a, "cts", alg_named(buf), "");
		} else if (!strcmp(pre, "xts") || !strcmp(pre, "lrw")) {
			snprintf(buf, sizeof(buf), "ecb(%s)", cipher);
			add_over(a, pre, alg_named(buf), "");
		} else if (!strcmp(pre, "essiv")) {
			snprintf(buf, sizeof(buf), "cbc(%s)", cipher);
			add_over(a, "essiv", alg_named(buf), !strcmp(cipher, "sm4") ? ",sm3-generic" : ",sha256-generic");
		} else if (!strcmp(pre, "gcm") || !strcmp(pre, "hctr2")) {
			/* gcm_base over each ctr x ghash pair, hctr2_base over each xctr x polyval pair */
			int gcm = !strcmp(pre, "gcm");
			struct fz_alg g = { .name = gcm ? "ghash" : "polyval", .type = BC_TYPE_SHASH };
			char suffix[80];

			snprintf(suffix, sizeof(suffix), "%s-generic", g.name);
			add_cand(&g, suffix);
			bc_list_drivers(collect_listed, &g);
			snprintf(buf, sizeof(buf), "%s(%s)", gcm ? "ctr" : "xctr", cipher);
			for (size_t j = 0; j < g.ncand; j++) {
				snprintf(suffix, sizeof(suffix), ",%s", g.cand[j]);
				add_over(a, gcm ? "gcm_base" : "hctr2_base", alg_named(buf), suffix);
			}
		} else if (!strcmp(pre, "rfc7539") || !strcmp(pre, "rfc7539esp")) {
			add_over(a, pre, alg_named("chacha20"), ",poly1305-generic");
		} else if (!strcmp(pre, "ccm")) {
			/* ccm_base over every ctr driver with the generic cbcmac, and the other way round */
			char generic_mac[80], ctr[32], mac[32];
			const struct fz_alg *ctrs, *macs;

			snprintf(ctr, sizeof(ctr), "ctr(%s)", cipher);
			snprintf(mac, sizeof(mac), "cbcmac(%s)", cipher);
			ctrs = alg_named(ctr);
			macs = alg_named(mac);
			snprintf(generic_mac, sizeof(generic_mac), ",%s", macs->generic);
			add_over(a, "ccm_base", ctrs, generic_mac);
			for (size_t j = 0; j < macs->ncand; j++) {
				snprintf(buf, sizeof(buf), "ccm_base(%s,%s)", ctrs->generic, macs->cand[j]);
				add_cand(a, buf);
			}
		}
	}
	for (size_t i = 0; i < fz_nalgs; i++)
		if (!fz_algs[i].ncand)
			fz_fail("no driver allocates", fz_algs[i].name, fz_algs[i].generic, 0);
	if (getenv("FUZZ_LIST_DRIVERS"))
		for (size_t i = 0; i < fz_nalgs; i++)
			for (size_t j = 0; j < fz_algs[i].ncand; j++)
				fprintf(stderr, "%s\t%s\n", fz_algs[i].name, fz_algs[i].cand[j]);
}

uint8_t *fz_buf_new(struct fz_buf *b, size_t len, unsigned misalign)
{
	void *p;

	misalign &= 63;
	if (posix_memalign(&p, 64, misalign + len + !(misalign + len)))
		abort();
	b->base = p;
	b->p = b->base + misalign;
	FZ_POISON(b->base, misalign);
	return b->p;
}

void fz_buf_free(struct fz_buf *b)
{
	free(b->base);
	b->base = b->p = NULL;
}

void fz_fail(const char *what, const char *alg, const char *driver, size_t len)
{
	fprintf(stderr, "FUZZ FAIL: %s: %s driver %s, %zu bytes\n", what, alg, driver, len);
	abort();
}
