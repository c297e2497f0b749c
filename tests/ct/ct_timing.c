/* Constant-time evidence for the drivers valgrind cannot run: a statistical timing test in the style of dudect
 * (Reparaz, Balasch, Verbauwhede, "Dude, is my code constant time?", DATE 2017): two classes of secret input,
 * fixed and random, interleaved at random; Welch's t-test on the raw and on cropped timing distributions. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "../common.h"
#include "../common_tmpl.h"

#define T_FAIL 10.0          /* |t| above this with enough samples: the path leaks (dudect's threshold) */
#define BATCH 2000           /* measurements prepared, then taken, at a time */
#define NCROP 6              /* the raw distribution and five cropped at percentiles of the first batch */
#define MAXIN (1024 + TEST_KEY_MAX)   /* the largest secret input of one measurement: a bulk text and a key */
static const double crop_pct[NCROP] = { 1.0, 0.99, 0.95, 0.90, 0.75, 0.50 };

/* Welford's online mean and variance, per class. */
struct moments {
	double n[2], mean[2], m2[2];
};

static void add(struct moments *m, int cls, double x)
{
	double d = x - m->mean[cls];

	m->n[cls]++;
	m->mean[cls] += d / m->n[cls];
	m->m2[cls] += d * (x - m->mean[cls]);
}

static double welch_t(const struct moments *m)
{
	if (m->n[0] < 2 || m->n[1] < 2)
		return 0;
	double v0 = m->m2[0] / (m->n[0] - 1), v1 = m->m2[1] / (m->n[1] - 1);
	double se = sqrt(v0 / m->n[0] + v1 / m->n[1]);

	return se > 0 ? (m->mean[0] - m->mean[1]) / se : 0;
}

/* ---- what is measured ------------------------------------------------------------------
 * A target prepares one measurement's input from its class (0: the fixed secret, 1: a fresh
 * random one) outside the timed region, then runs the operation under test on it. */
struct target {
	const char *label;
	void (*prepare)(struct target *t, int cls, uint8_t *in);
	void (*run)(struct target *t, const uint8_t *in);
	size_t inlen;                       /* bytes of secret input per measurement */
	size_t vary_off, vary_end;          /* class 1 randomises in[vary_off..vary_end) only */
	size_t len;                         /* message length of the operation */
	size_t ivlen;                       /* aead IV length */
	int kind;                           /* path: see the run functions */
	bc_skcipher *sk;
	bc_aead *ae;
	bc_shash *sh;
	size_t keylen;
	uint8_t fixed[MAXIN];
	uint8_t buf[MAXIN + 64], out[MAXIN + 64], iv[32], tag[16];   /* 32: xchacha's IV */
};

/* Both classes draw the random bytes and reach in through one memcpy: when class 1 alone
 * was written by byte stores, how the input was last stored showed in the timing of the
 * masked loads that read it (|t| up to 25 on ctr-sm4-gfni-avx512 at 500000). */
static void prepare_random(struct target *t, int cls, uint8_t *in)
{
	uint8_t r[MAXIN];

	memcpy(r, t->fixed, t->inlen);
	rng_fill(r + t->vary_off, t->vary_end - t->vary_off);
	memcpy(in, cls ? r : t->fixed, t->inlen);
}

enum { SK_SETKEY, SK_ENC, SK_DEC, AE_SETKEY, AE_ENC, AE_TAGCHECK, SH_SETKEY, SH_DIGEST, SH_MANY,
       LEAKY, LEAKY_CT, LEAKY_CMP, CT_CMP };

/* digest_many's eight messages: whole and partial last blocks, one of a single byte */
static const size_t many_lens[8] = { 16, 13, 32, 29, 1, 48, 64, 17 };
#define MANY_TOTAL 220

/* The operations. Inputs are [key][message] as the path needs. */
static void run_op(struct target *t, const uint8_t *in)
{
	switch (t->kind) {
	case SK_SETKEY:
		bc_skcipher_setkey(t->sk, in, t->keylen);
		break;
	case SK_ENC:
	case SK_DEC:
		memset(t->iv, 0x42, 16);
		(t->kind == SK_ENC ? bc_skcipher_encrypt : bc_skcipher_decrypt)(t->sk, t->iv, in, t->out, t->len);
		break;
	case AE_SETKEY:
		bc_aead_setkey(t->ae, in, t->keylen);
		break;
	case AE_ENC:
		bc_aead_encrypt(t->ae, t->iv, t->ivlen, t->fixed, 16, in, t->out, t->len, t->tag);
		break;
	case AE_TAGCHECK:
		/* in: a candidate tag; the message and the right tag are fixed */
		bc_aead_decrypt(t->ae, t->iv, 12, NULL, 0, t->buf, t->out, t->len, in);
		break;
	case SH_SETKEY:
		bc_shash_setkey(t->sh, in, t->keylen);
		break;
	case SH_DIGEST:
		bc_shash_digest(t->sh, in, t->len, t->out);
		break;
	case SH_MANY: {
		const uint8_t *msgs[8];
		uint8_t *outs[8];

		for (size_t i = 0, off = 0; i < 8; off += many_lens[i++]) {
			msgs[i] = in + off;
			outs[i] = t->out + 16 * i;
		}
		bc_shash_digest_many(t->sh, 8, msgs, many_lens, outs);
		break;
	}
	}
}

/* Keyed data paths: each measurement sets its class's key untimed first, so the key is as secret as the data. */
static void prepare_keyed(struct target *t, int cls, uint8_t *in)
{
	prepare_random(t, cls, in);
}

/* The tag check: a tag wrong only in its last byte (class 0) or only in its
 * first (class 1), so a comparison that stops at the first difference shows. */
static void prepare_tag(struct target *t, int cls, uint8_t *in)
{
	memcpy(in, t->tag, t->inlen);
	in[cls ? 0 : t->inlen - 1] ^= 1;
}

/* The function the test must be able to fail: a table lookup indexed by the secret (the
 * pattern of table-based AES), one cache line per value of a 16-bit index; and its
 * constant-time twin, which touches the same line whatever the secret. */
static uint8_t leaky_table[65536 * 64];
static volatile uint8_t leaky_sink;

static void run_leaky(struct target *t, const uint8_t *in)
{
	size_t idx = t->kind == LEAKY ? (size_t)(in[0] | in[1] << 8) : (size_t)(in[0] & 0);

	leaky_sink = leaky_table[idx * 64];
}

/* The same for the tag check: a comparison that stops at the first difference, and bc_memneq. */
static void run_cmp(struct target *t, const uint8_t *in)
{
	size_t i = 0;

	if (t->kind == LEAKY_CMP)
		while (i < t->inlen && in[i] == t->tag[i])
			i++;
	else
		i = (size_t)bc_memneq(in, t->tag, t->inlen);
	leaky_sink = (uint8_t)i;
}

/* ---- the measurement loop -------------------------------------------------------------- */
struct result {
	double t;
	double samples;
};

static uint64_t cycles(void)
{
	unsigned aux;

	_mm_lfence();
	return __rdtscp(&aux);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static struct result measure(struct target *t, size_t samples)
{
	static uint8_t in[BATCH][MAXIN];
	static uint64_t dt[BATCH], sorted[BATCH];
	static int cls[BATCH];
	uint64_t thr[NCROP];
	struct moments m[NCROP];
	struct result r = { 0, 0 };

	memset(m, 0, sizeof(m));
	for (size_t done = 0, batch = 0; done < samples + BATCH; done += BATCH, batch++) {
		for (size_t i = 0; i < BATCH; i++) {
			cls[i] = (int)(rng_u64() & 1);
			t->prepare(t, cls[i], in[i]);
		}
		for (size_t i = 0; i < BATCH; i++) {
			if (t->kind == SK_ENC || t->kind == SK_DEC)
				bc_skcipher_setkey(t->sk, in[i] + t->len, t->keylen);
			else if (t->kind == AE_ENC)
				bc_aead_setkey(t->ae, in[i] + t->len, t->keylen);
			else if ((t->kind == SH_DIGEST || t->kind == SH_MANY) && t->keylen)
				bc_shash_setkey(t->sh, in[i] + t->len, t->keylen);
			uint64_t t0 = cycles();
			t->run(t, in[i]);
			dt[i] = cycles() - t0;
		}
		if (batch == 0) {
			/* warm-up batch: not counted; it sets the crop thresholds */
			memcpy(sorted, dt, sizeof(dt));
			qsort(sorted, BATCH, sizeof(sorted[0]), cmp_u64);
			for (int c = 0; c < NCROP; c++)
				thr[c] = crop_pct[c] >= 1.0 ? UINT64_MAX : sorted[(size_t)(crop_pct[c] * BATCH)];
			continue;
		}
		for (size_t i = 0; i < BATCH; i++)
			for (int c = 0; c < NCROP; c++)
				if (dt[i] <= thr[c])
					add(&m[c], cls[i], (double)dt[i]);
	}
	for (int c = 0; c < NCROP; c++) {
		double tv = welch_t(&m[c]);

		if (fabs(tv) > fabs(r.t)) {
			r.t = tv;
			r.samples = m[c].n[0] + m[c].n[1];
		}
	}
	if (r.samples == 0)
		r.samples = m[0].n[0] + m[0].n[1];
	return r;
}

/* ---- targets for every driver ------------------------------------------------------------ */
static size_t samples;
static const char *only;

/* A flagged path is measured afresh, up to CONFIRM times in all, and leaks only if every
 * measurement flags it: a real leak's |t| grows with the samples and comes back each time,
 * while a burst of another process's work on a shared core (seen in CI at |t| 12-16 on
 * paths that measure under 3 everywhere else) does not repeat. The smallest |t| is kept. */
#define CONFIRM 3

static struct result measure_confirmed(struct target *t)
{
	struct result r = measure(t, samples);

	for (int i = 1; i < CONFIRM && fabs(r.t) > T_FAIL; i++) {
		struct result again = measure(t, samples);

		printf("    (flagged at |t| %.2f; measured again: %.2f)\n", fabs(r.t), fabs(again.t));
		if (fabs(again.t) < fabs(r.t))
			r = again;
	}
	return r;
}

static void report(struct target *t, const char *driver, const char *path)
{
	struct result r = measure_confirmed(t);

	printf("%-48s %-12s samples %9.0f  max|t| %7.2f%s\n", driver, path, r.samples, fabs(r.t),
	       fabs(r.t) > T_FAIL ? "  LEAKS" : "");
	CHECK(fabs(r.t) <= T_FAIL, "%s %s: |t| = %.1f over %.0f samples", driver, path, fabs(r.t), r.samples);
}

static void init_target(struct target *t, int kind, size_t keylen, size_t len)
{
	memset(t, 0, offsetof(struct target, fixed));
	t->kind = kind;
	t->keylen = keylen;
	t->len = len;
	t->ivlen = 12;
	t->run = run_op;
	t->prepare = prepare_random;
	t->inlen = (kind == SK_SETKEY || kind == AE_SETKEY || kind == SH_SETKEY) ? keylen : len + keylen;
	if (t->inlen > MAXIN) {   /* a test that could not hold its input would overrun in[] */
		fprintf(stderr, "ct_timing: %zu-byte input over MAXIN\n", t->inlen);
		exit(1);
	}
	t->vary_end = t->inlen;
	rng_fill(t->fixed, t->inlen);
	rng_fill(t->iv, 16);
}

/* Encryption and decryption of len bytes; with vary_off, class 1 varies only the message
 * from there on and the key (after the message) stays fixed. */
static void ct_crypt(struct target *t, bc_skcipher *sk, unsigned keylen, size_t len, size_t vary_off,
		     const char *driver, const char *what)
{
	for (int dec = 0; dec < 2; dec++) {
		char path[32];

		init_target(t, dec ? SK_DEC : SK_ENC, keylen, len);
		t->sk = sk;
		t->prepare = prepare_keyed;
		if (vary_off) {
			t->vary_off = vary_off;
			t->vary_end = len;
		}
		snprintf(path, sizeof(path), "%s-%s/%u", dec ? "dec" : "enc", what, keylen * 8);
		report(t, driver, path);
	}
}

static void ct_skcipher(const char *alg, const char *driver)
{
	unsigned ks[4];
	struct target t;
	int stealing = starts(alg, "xts(") || starts(alg, "cts("), essiv = starts(alg, "essiv(");
	/* a bulk message (not for essiv: that is its cbc's), one shorter than the widest batch of
	 * any driver, and the tail or stealing path */
	const size_t bulk = essiv ? 0 : 1024, shortlen = 48, tail = starts(alg, "ctr(") ? 100 : stealing ? 37 : 0;

	alg_key_sizes(alg, ks);
	for (int k = 0; k < 4 && ks[k]; k++) {
		char path[32];

		init_target(&t, SK_SETKEY, ks[k], 0);
		if (bc_skcipher_alloc(&t.sk, driver)) {
			CHECK(0, "%s: cannot allocate", driver);
			return;
		}
		bc_skcipher *sk = t.sk;

		bc_skcipher_set_flags(sk, BC_ALLOW_WEAK_KEYS);
		snprintf(path, sizeof(path), "setkey/%u", ks[k] * 8);
		report(&t, driver, path);
		if (bulk)
			ct_crypt(&t, sk, ks[k], bulk, 0, driver, "bulk");
		ct_crypt(&t, sk, ks[k], shortlen, 0, driver, "short");
		if (tail)
			ct_crypt(&t, sk, ks[k], tail, 0, driver, stealing ? "steal" : "tail");
		/* the key fixed and only the stolen part secret (the last whole block and the tail),
		 * after one block and after 63 (the wide drivers then steal ahead of their batches) */
		if (stealing) {
			ct_crypt(&t, sk, ks[k], tail, tail - tail % 16 - 16, driver, "stolen");
			ct_crypt(&t, sk, ks[k], bulk + 5, bulk - 16, driver, "stolen-bulk");
		}
		bc_skcipher_free(sk);
		if (samples < 100000)
			break;   /* the short form: the first key size only */
	}
}

static void ct_aead(const struct bc_driver_info *d)
{
	unsigned ks[4];
	struct target t;

	alg_key_sizes(d->name, ks);
	for (int k = 0; k < 4 && ks[k]; k++) {
		char path[32];
		bc_aead *ae;

		if (bc_aead_alloc(&ae, d->driver))
			continue;
		init_target(&t, AE_SETKEY, ks[k], 0);
		t.ae = ae;
		snprintf(path, sizeof(path), "setkey/%u", ks[k] * 8);
		report(&t, d->driver, path);
		/* bulk, short, and a 16-byte IV: J0 = GHASH_H(IV) makes the counter secret */
		for (int l = 0; l < 3; l++) {
			init_target(&t, AE_ENC, ks[k], l == 0 ? 1024 : l == 1 ? 37 : 1061);
			t.ae = ae;
			t.prepare = prepare_keyed;
			if (l == 2)
				t.ivlen = 16;
			snprintf(path, sizeof(path), "enc-%s/%u", l == 0 ? "bulk" : l == 1 ? "short" : "iv16", ks[k] * 8);
			report(&t, d->driver, path);
		}
		/* the tag check on a fixed key and message */
		init_target(&t, AE_TAGCHECK, ks[k], 64);
		t.ae = ae;
		t.inlen = bc_aead_authsize(ae);
		t.prepare = prepare_tag;
		bc_aead_setkey(ae, t.fixed, ks[k]);
		rng_fill(t.out, 64);
		bc_aead_encrypt(ae, t.iv, 12, NULL, 0, t.out, t.buf, 64, t.tag);
		snprintf(path, sizeof(path), "tagcheck/%u", ks[k] * 8);
		report(&t, d->driver, path);
		bc_aead_free(ae);
		if (samples < 100000)
			break;
	}
}

static void ct_shash(const char *alg, const char *driver)
{
	static const char *const names[3] = { "bulk", "full", "part" };
	unsigned ks[4];
	struct target t;
	bc_shash *sh;
	int mac = starts(alg, "cmac(") || starts(alg, "xcbc(") || starts(alg, "cbcmac(");
	/* a MAC's chain is serial, one block after the other: 16 blocks run its loop */
	const size_t lens[3] = { mac ? 256 : 1024, 16, 13 };

	alg_key_sizes(alg, ks);
	if (bc_shash_alloc(&sh, driver)) {
		CHECK(0, "%s: cannot allocate", driver);
		return;
	}
	for (int k = 0; k < 4; k++) {
		char path[32];

		if (ks[k]) {
			init_target(&t, SH_SETKEY, ks[k], 0);
			t.sh = sh;
			snprintf(path, sizeof(path), "setkey/%u", ks[k] * 8);
			report(&t, driver, path);
		}
		/* a bulk message, and one block whole and partial (the MACs' K1 and K2 final paths) */
		for (int l = 0; l < 3; l++) {
			init_target(&t, SH_DIGEST, ks[k], lens[l]);
			t.sh = sh;
			t.prepare = prepare_keyed;
			snprintf(path, sizeof(path), "digest-%s/%u", names[l], ks[k] * 8);
			report(&t, driver, path);
		}
		if (mac) {
			init_target(&t, SH_MANY, ks[k], MANY_TOTAL);
			t.sh = sh;
			t.prepare = prepare_keyed;
			snprintf(path, sizeof(path), "digest-many/%u", ks[k] * 8);
			report(&t, driver, path);
		}
		if (!ks[k] || !ks[k + 1] || samples < 100000)
			break;
	}
	bc_shash_free(sh);
}

/* The MAC templates over an x86 block cipher: its key schedule, its CBC-MAC chains, and
 * the templates' subkeys and final block. (The generic ciphers are ctgrind's.) */
static void ct_cipher_macs(const struct bc_driver_info *d)
{
	static const char *const tmpl[3] = { "cmac", "xcbc", "cbcmac" };

	if (strstr(d->driver, "-generic"))
		return;
	for (int i = 0; i < 3; i++) {
		char alg[64], driver[96];

		/* an 8-byte block cipher has cmac alone, and only des3_ede a known answer for it */
		if (d->blocksize == 8 && (i || strcmp(d->name, "des3_ede")))
			continue;

		snprintf(alg, sizeof(alg), "%s(%s)", tmpl[i], d->name);
		snprintf(driver, sizeof(driver), "%s(%s)", tmpl[i], d->driver);
		set_context("%s", driver);
		ct_shash(alg, driver);
	}
}

/* essiv over a cbc driver, with the best hash: the salt's derivation at setkey and the
 * IV's encryption under it. */
static void ct_essiv(const struct bc_driver_info *d)
{
	const char *hash = strstr(d->name, "sm4") ? "sm3" : "sha256";
	char alg[64], driver[128];
	bc_shash *h;

	if (bc_shash_alloc(&h, hash)) {
		CHECK(0, "%s: cannot allocate", hash);
		return;
	}
	snprintf(alg, sizeof(alg), "essiv(%s,%s)", d->name, hash);
	snprintf(driver, sizeof(driver), "essiv(%s,%s)", d->driver, bc_shash_driver(h));
	bc_shash_free(h);
	set_context("%s", driver);
	ct_skcipher(alg, driver);
}

/* Whether the driver name contains one of the comma-separated words of only (all if none given). */
static int selected(const char *driver)
{
	for (const char *w = only; w && *w; w += strcspn(w, ",") + (w[strcspn(w, ",")] != 0)) {
		char word[64];

		snprintf(word, sizeof(word), "%.*s", (int)strcspn(w, ","), w);
		if (strstr(driver, word))
			return 1;
	}
	return !only;
}

/* Every listed driver, the MAC templates over each x86 cipher and essiv over each dedicated
 * cbc driver; the listed instances of those templates are among them. */
static size_t ncomposed;

static int each(const struct bc_driver_info *d, void *arg)
{
	(void)arg;
	if (!selected(d->driver))
		return 0;
	if (composed_name(d->name)) {
		/* hmac, the ESP wrappers and authenc: what they add to their parts (the hmac key
		 * blocks, the salt, the blob and the tag checks) is checked by test_ctgrind */
		ncomposed++;
		return 0;
	}
	set_context("%s", d->driver);
	switch (d->type) {
	case BC_TYPE_CIPHER:
		ct_cipher_macs(d);
		break;
	case BC_TYPE_SKCIPHER:
		if (!starts(d->name, "essiv("))
			ct_skcipher(d->name, d->driver);
		if (starts(d->driver, "cbc-"))
			ct_essiv(d);
		break;
	case BC_TYPE_AEAD:
		ct_aead(d);
		break;
	case BC_TYPE_SHASH:
		if (!starts(d->name, "cmac(") && !starts(d->name, "xcbc(") && !starts(d->name, "cbcmac("))
			ct_shash(d->name, d->driver);
		break;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct target t;

	test_init();
	rng_seed(0x5eed0fc7u);
	/* ct_timing [SAMPLES [WORD,WORD...]]: measurements per path; only drivers whose names contain a word */
	samples = argc > 1 ? strtoul(argv[1], NULL, 10) : 15000;
	only = argc > 2 ? argv[2] : NULL;
	printf("ct_timing: %zu measurements per path, |t| > %.0f fails; CPU features: %s\n", samples, T_FAIL,
	       bc_cpu_features_string());
	bc_selftest_all(0, NULL, NULL);

	/* the test can fail: a secret-indexed table lookup and an early-exit tag comparison must
	 * be flagged, their constant-time twins must not (the table is written first: untouched,
	 * all of it would map the one zero page) */
	static const struct {
		const char *label, *path;
		int kind;
	} controls[] = {
		{ "(secret-indexed table lookup)", "lookup", LEAKY },
		{ "(the same lookup at a fixed index)", "lookup", LEAKY_CT },
		{ "(tag compare stopping at the first difference)", "tagcheck", LEAKY_CMP },
		{ "(the same tags through bc_memneq)", "tagcheck", CT_CMP },
	};
	memset(leaky_table, 1, sizeof(leaky_table));
	for (size_t c = 0; c < sizeof(controls) / sizeof(controls[0]); c++) {
		int leaky = controls[c].kind == LEAKY || controls[c].kind == LEAKY_CMP;
		int lookup = controls[c].kind == LEAKY || controls[c].kind == LEAKY_CT;
		struct result r;

		memset(&t, 0, offsetof(struct target, fixed));
		t.kind = controls[c].kind;
		t.inlen = t.vary_end = lookup ? 2 : 16;
		t.prepare = lookup ? prepare_random : prepare_tag;
		t.run = lookup ? run_leaky : run_cmp;
		rng_fill(t.fixed, 2);
		rng_fill(t.tag, 16);
		r = measure_confirmed(&t);
		printf("%-48s %-12s samples %9.0f  max|t| %7.2f\n", controls[c].label, controls[c].path, r.samples,
		       fabs(r.t));
		if (leaky)
			CHECK(fabs(r.t) > T_FAIL, "%s was not flagged: |t| = %.1f", controls[c].label, fabs(r.t));
		else
			CHECK(fabs(r.t) <= T_FAIL, "%s was flagged: |t| = %.1f", controls[c].label, fabs(r.t));
	}
	bc_list_drivers(each, NULL);
	if (ncomposed)
		printf("ct_timing: %zu instances of hmac, the ESP wrappers and authenc left to test_ctgrind\n", ncomposed);
	return test_summary("ct_timing");
}
