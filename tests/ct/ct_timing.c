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

#define T_FAIL 10.0          /* |t| above this with enough samples: the path leaks (dudect's threshold) */
#define BATCH 2000           /* measurements prepared, then taken, at a time */
#define NCROP 6              /* the raw distribution and five cropped at percentiles of the first batch */
#define MAXIN 1100           /* the largest secret input of one measurement */
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
	size_t len;                         /* message length of the operation */
	int kind;                           /* path: see the run functions */
	bc_skcipher *sk;
	bc_aead *ae;
	bc_shash *sh;
	size_t keylen;
	uint8_t fixed[MAXIN];
	uint8_t buf[MAXIN + 64], out[MAXIN + 64], iv[16], tag[16];
};

static void prepare_random(struct target *t, int cls, uint8_t *in)
{
	if (cls == 0)
		memcpy(in, t->fixed, t->inlen);
	else
		rng_fill(in, t->inlen);
}

enum { SK_SETKEY, SK_ENC, SK_DEC, AE_SETKEY, AE_ENC, AE_TAGCHECK, SH_SETKEY, SH_DIGEST, LEAKY, LEAKY_CT };

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
		bc_aead_encrypt(t->ae, t->iv, 12, t->fixed, 16, in, t->out, t->len, t->tag);
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
	}
}

/* Keyed data paths: each measurement sets its class's key untimed first, so the key is as secret as the data. */
static void prepare_keyed(struct target *t, int cls, uint8_t *in)
{
	prepare_random(t, cls, in);
}

/* The tag check: class 0 a tag wrong only in its last byte, class 1 a random tag. */
static void prepare_tag(struct target *t, int cls, uint8_t *in)
{
	size_t ts = bc_aead_authsize(t->ae);

	if (cls == 0) {
		memcpy(in, t->tag, ts);
		in[ts - 1] ^= 1;
	} else {
		rng_fill(in, ts);
	}
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
			else if (t->kind == SH_DIGEST && t->keylen)
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

static void report(struct target *t, const char *driver, const char *path)
{
	struct result r = measure(t, samples);

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
	t->run = run_op;
	t->prepare = prepare_random;
	t->inlen = (kind == SK_SETKEY || kind == AE_SETKEY || kind == SH_SETKEY) ? keylen : len + keylen;
	rng_fill(t->fixed, t->inlen);
	rng_fill(t->iv, 16);
}

static void ct_skcipher(const struct bc_driver_info *d)
{
	unsigned ks[4];
	struct target t;
	int stealing = starts(d->name, "xts(") || starts(d->name, "cts(");
	/* a bulk message, one shorter than the widest batch of any driver, and the tail or stealing path */
	const size_t bulk = 1024, shortlen = 48, tail = starts(d->name, "ctr(") ? 100 : stealing ? 37 : 0;

	alg_key_sizes(d->name, ks);
	for (int k = 0; k < 4 && ks[k]; k++) {
		char path[32];

		init_target(&t, SK_SETKEY, ks[k], 0);
		if (bc_skcipher_alloc(&t.sk, d->driver))
			continue;
		bc_skcipher_set_flags(t.sk, BC_ALLOW_WEAK_KEYS);
		snprintf(path, sizeof(path), "setkey/%u", ks[k] * 8);
		report(&t, d->driver, path);
		const size_t lens[] = { bulk, shortlen, tail };
		static const char *const names[] = { "bulk", "short", "tail" };
		for (int l = 0; l < 3; l++) {
			if (!lens[l])
				continue;
			for (int dec = 0; dec < 2; dec++) {
				bc_skcipher *sk = t.sk;

				init_target(&t, dec ? SK_DEC : SK_ENC, ks[k], lens[l]);
				t.sk = sk;
				t.prepare = prepare_keyed;
				snprintf(path, sizeof(path), "%s-%s/%u", dec ? "dec" : "enc",
					 l == 2 && stealing ? "steal" : names[l], ks[k] * 8);
				report(&t, d->driver, path);
			}
		}
		bc_skcipher_free(t.sk);
		if (ks[k] && k == 0 && samples < 100000)
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
		for (int l = 0; l < 2; l++) {
			init_target(&t, AE_ENC, ks[k], l ? 37 : 1024);
			t.ae = ae;
			t.prepare = prepare_keyed;
			snprintf(path, sizeof(path), "enc-%s/%u", l ? "short" : "bulk", ks[k] * 8);
			report(&t, d->driver, path);
		}
		/* the tag check on a fixed key and message */
		init_target(&t, AE_TAGCHECK, ks[k], 64);
		t.ae = ae;
		t.inlen = 16;
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

static void ct_shash(const struct bc_driver_info *d)
{
	unsigned ks[4];
	struct target t;
	bc_shash *sh;

	alg_key_sizes(d->name, ks);
	if (bc_shash_alloc(&sh, d->driver))
		return;
	for (int k = 0; k < 4; k++) {
		char path[32];

		if (ks[k]) {
			init_target(&t, SH_SETKEY, ks[k], 0);
			t.sh = sh;
			snprintf(path, sizeof(path), "setkey/%u", ks[k] * 8);
			report(&t, d->driver, path);
		}
		/* a bulk message and a one-block one (the MACs' final-block path) */
		for (int l = 0; l < 2; l++) {
			init_target(&t, SH_DIGEST, ks[k], l ? 13 : 1024);
			t.sh = sh;
			t.prepare = prepare_keyed;
			snprintf(path, sizeof(path), "digest-%s/%u", l ? "block" : "bulk", ks[k] * 8);
			report(&t, d->driver, path);
		}
		if (!ks[k] || !ks[k + 1] || samples < 100000)
			break;
	}
	bc_shash_free(sh);
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

static int each(const struct bc_driver_info *d, void *arg)
{
	(void)arg;
	if (d->type == BC_TYPE_CIPHER || !selected(d->driver))
		return 0;
	set_context("%s", d->driver);
	if (d->type == BC_TYPE_SKCIPHER)
		ct_skcipher(d);
	else if (d->type == BC_TYPE_AEAD)
		ct_aead(d);
	else
		ct_shash(d);
	return 0;
}

int main(int argc, char **argv)
{
	struct target t;

	test_init();
	rng_seed(0x5eed0fc7u);
	/* ct_timing [SAMPLES [WORD,WORD...]]: measurements per path; only drivers whose names contain a word */
	samples = argc > 1 ? strtoul(argv[1], NULL, 10) : 20000;
	only = argc > 2 ? argv[2] : NULL;
	printf("ct_timing: %zu measurements per path, |t| > %.0f fails; CPU features: %s\n", samples, T_FAIL,
	       bc_cpu_features_string());
	bc_selftest_all(0, NULL, NULL);

	/* the test can fail: a secret-indexed table lookup must be flagged, its twin must not
	 * (the table is written first: untouched, all of it would map the one zero page) */
	memset(leaky_table, 1, sizeof(leaky_table));
	for (int leaky = 1; leaky >= 0; leaky--) {
		struct result r;

		memset(&t, 0, offsetof(struct target, fixed));
		t.kind = leaky ? LEAKY : LEAKY_CT;
		t.inlen = 2;
		t.prepare = prepare_random;
		t.run = run_leaky;
		rng_fill(t.fixed, 2);
		r = measure(&t, samples);
		printf("%-48s %-12s samples %9.0f  max|t| %7.2f\n", leaky ? "(secret-indexed table lookup)" :
		       "(the same lookup at a fixed index)", "lookup", r.samples, fabs(r.t));
		if (leaky)
			CHECK(fabs(r.t) > T_FAIL, "the leaky lookup was not flagged: |t| = %.1f", fabs(r.t));
		else
			CHECK(fabs(r.t) <= T_FAIL, "the constant lookup was flagged: |t| = %.1f", fabs(r.t));
	}
	bc_list_drivers(each, NULL);
	return test_summary("ct_timing");
}
