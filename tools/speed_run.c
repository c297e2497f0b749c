/* blockcrypt tool: one throughput figure: warm-up, repeated timed batches on N threads, disturbed batches discarded.
 * Workloads as the Linux tcrypt speed tests (one buffer, one operation at a time), with a fresh IV per operation. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "speed.h"

#define MIN_KEPT 3                       /* undisturbed batches wanted; until then, up to twice the time is spent */
#define WARMUP_MAX_S 0.05
#define AEAD_IVLEN 16                    /* room for an AEAD IV (gcm 12, authenc the cipher's) in a ring slot */
#define RING_BYTES 16384                 /* AEAD decryption cycles through this much authentic ciphertext */
#define RING_MAX 16

struct control;

struct worker {
	const struct speed_job *job;
	struct control *ctl;
	pthread_t thread;
	size_t size;
	bc_skcipher *sk;
	bc_aead *ae;
	bc_shash *sh;
	uint8_t *buf;                /* the operation's data, worked on in place */
	uint8_t *ring;               /* AEAD decryption: nring slots of iv || tag || ciphertext */
	unsigned nring;
	uint8_t out[64];             /* tag or digest */
	size_t ivlen, adlen;         /* AEAD: the IV and associated data of a request (speed_aead_shape; ccm 16) */
	uint8_t ad[16];
	uint64_t counter;            /* the IV of the next operation */
	uint64_t iv_base;            /* ccm: iv[0] = L - 1 = 3, the operation number in the nonce after it */
	unsigned iv_shift;
	uint64_t per_batch;
	struct batch {
		double wall, cpu, hz;        /* seconds, seconds, core clock */
	} *b;
	int err;
};

struct control {
	pthread_mutex_t gate;
	pthread_cond_t open;
	int go;                      /* 1: the barrier is ready; -1: give up */
	pthread_barrier_t barrier;
	struct worker *w;
	unsigned threads, batches, max_batches;
	double seconds, batch_s, measured;   /* measured: the first thread's time in batches so far */
	int done;
};

static size_t slot_bytes(const struct worker *w)
{
	return AEAD_IVLEN + 64 + w->size;
}

/* A fresh IV per operation: the operation number, as a little-endian sector number
 * (xts plain64, essiv) or a packet counter (ctr, gcm), stored as one 8-byte word as
 * dm-crypt does. Written byte by byte it cost more than a short operation itself:
 * the library's wider load of the IV cannot be forwarded from eight byte stores
 * and waits for them to reach the cache (gcm(aes) at 16 bytes ran at half speed). */
static void make_iv(uint8_t *iv, size_t len, uint64_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	n = __builtin_bswap64(n);
#endif
	memset(iv, 0, len);
	memcpy(iv, &n, 8);
}

static int one_op(struct worker *w)
{
	const struct speed_job *j = w->job;
	uint8_t iv[16];

	make_iv(iv, sizeof(iv), w->iv_base | w->counter++ << w->iv_shift);
	switch (j->type) {
	case BC_TYPE_SKCIPHER:
		if (j->op == SPEED_DECRYPT)
			return bc_skcipher_decrypt(w->sk, iv, w->buf, w->buf, w->size);
		return bc_skcipher_encrypt(w->sk, iv, w->buf, w->buf, w->size);
	case BC_TYPE_AEAD:
		if (j->op == SPEED_DECRYPT) {
			/* A real tag over real ciphertext: verification passes, so the whole decryption runs. */
			const uint8_t *slot = w->ring + (w->counter % w->nring) * slot_bytes(w);

			return bc_aead_decrypt(w->ae, slot, w->ivlen, w->ad, w->adlen, slot + AEAD_IVLEN + 64, w->buf,
			                       w->size, slot + AEAD_IVLEN);
		}
		return bc_aead_encrypt(w->ae, iv, w->ivlen, w->ad, w->adlen, w->buf, w->buf, w->size, w->out);
	default:
		return bc_shash_digest(w->sh, w->buf, w->size, w->out);
	}
}

static void run_ops(struct worker *w, uint64_t n)
{
	for (uint64_t i = 0; i < n && !w->err; i++)
		w->err = one_op(w);
}

static int fill_ring(struct worker *w)
{
	w->nring = (unsigned)(RING_BYTES / w->size);
	if (w->nring < 2)
		w->nring = 2;
	if (w->nring > RING_MAX)
		w->nring = RING_MAX;
	w->ring = malloc(w->nring * slot_bytes(w));
	if (!w->ring)
		return -ENOMEM;
	for (unsigned i = 0; i < w->nring; i++) {
		uint8_t *slot = w->ring + i * slot_bytes(w);
		int r;

		make_iv(slot, w->ivlen, w->iv_base | (uint64_t)i << w->iv_shift);
		r = bc_aead_encrypt(w->ae, slot, w->ivlen, w->ad, w->adlen, w->buf, slot + AEAD_IVLEN + 64, w->size,
		                    slot + AEAD_IVLEN);
		if (r < 0)
			return r;
	}
	return 0;
}

/* A key with distinct halves (xts refuses equal ones) that is the same in every run. */
static void make_key(uint8_t *key, size_t len)
{
	for (size_t i = 0; i < len; i++)
		key[i] = (uint8_t)(i * 37 + 11);
}

static int worker_init(struct worker *w, const struct speed_job *j, size_t size)
{
	uint8_t key[SPEED_KEY_MAX];
	size_t keylen = speed_job_key(j->name, j->keylen, key, sizeof(key), make_key);
	int r;

	w->job = j;
	w->size = size;
	if (j->keylen && !keylen)
		return -EINVAL;
	speed_aead_shape(j->name, &w->ivlen, &w->adlen);
	memset(w->ad, 0x5a, sizeof(w->ad));
	/* Room for a size rounded up to the block size; 64-byte aligned like a page cache buffer. */
	w->buf = aligned_alloc(64, (size + 64 + 63) / 64 * 64);
	if (!w->buf)
		return -ENOMEM;
	for (size_t i = 0; i < size + 64; i++)
		w->buf[i] = (uint8_t)(i * 7 + 1);
	switch (j->type) {
	case BC_TYPE_SKCIPHER:
		r = bc_skcipher_alloc(&w->sk, j->name);
		if (r == 0)
			r = bc_skcipher_setkey(w->sk, key, keylen);
		break;
	case BC_TYPE_AEAD:
		r = bc_aead_alloc(&w->ae, j->name);
		if (r == 0)
			r = bc_aead_setkey(w->ae, key, keylen);
		/* gcm's fast-path IV; ccm's is the kernel's 16-byte counter block
		 * (ccm-* and ccm_base(...) drivers) */
		if (r == 0 && !strncmp(bc_aead_driver(w->ae), "ccm", 3)) {
			w->ivlen = 16;
			w->iv_base = 3;
			w->iv_shift = 8;
		}
		break;
	default:
		r = bc_shash_alloc(&w->sh, j->name);
		if (r == 0 && j->keylen)
			r = bc_shash_setkey(w->sh, key, keylen);
		break;
	}
	return r;
}

static void worker_free(struct worker *w)
{
	if (w->sk)
		bc_skcipher_free(w->sk);
	if (w->ae)
		bc_aead_free(w->ae);
	if (w->sh)
		bc_shash_free(w->sh);
	free(w->buf);
	free(w->ring);
	free(w->b);
}

static int batch_kept(const struct control *ctl, unsigned b)
{
	for (unsigned t = 0; t < ctl->threads; t++)
		if (ctl->w[t].b[b].cpu < SPEED_MIN_CPU_SHARE * ctl->w[t].b[b].wall)
			return 0;
	return 1;
}

/* Run by one thread between batches: stop when enough batches kept their CPU, or on an error. */
static int enough(const struct control *ctl)
{
	unsigned kept = 0;

	for (unsigned t = 0; t < ctl->threads; t++)
		if (ctl->w[t].err)
			return 1;
	for (unsigned b = 0; b < ctl->batches; b++)
		kept += (unsigned)batch_kept(ctl, b);
	return ctl->batches >= ctl->max_batches ||
	       (ctl->batches >= SPEED_MIN_BATCHES && ctl->measured >= ctl->seconds && kept >= MIN_KEPT);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct control *ctl = w->ctl;
	double t0, elapsed, warmup = ctl->seconds / 10;
	uint64_t done = 0;

	pthread_mutex_lock(&ctl->gate);
	while (ctl->go == 0)
		pthread_cond_wait(&ctl->open, &ctl->gate);
	pthread_mutex_unlock(&ctl->gate);
	if (ctl->go < 0)
		return NULL;
	/* Warm-up (caches, branch predictors, the clock ramping up), which also sizes the batches. */
	if (warmup > WARMUP_MAX_S)
		warmup = WARMUP_MAX_S;
	if (warmup < ctl->batch_s)
		warmup = ctl->batch_s;
	t0 = speed_seconds(CLOCK_MONOTONIC);
	for (uint64_t step = 1;; step *= 2) {
		run_ops(w, step);
		done += step;
		elapsed = speed_seconds(CLOCK_MONOTONIC) - t0;
		if (elapsed >= warmup || w->err)
			break;
	}
	w->per_batch = (uint64_t)((double)done / elapsed * ctl->batch_s) + 1;
	for (unsigned b = 0;; b++) {
		pthread_barrier_wait(&ctl->barrier);
		if (ctl->done)
			break;
		double hz0 = speed_core_hz();
		double c0 = speed_seconds(CLOCK_THREAD_CPUTIME_ID), m0 = speed_seconds(CLOCK_MONOTONIC);

		run_ops(w, w->per_batch);
		w->b[b].wall = speed_seconds(CLOCK_MONOTONIC) - m0;
		w->b[b].cpu = speed_seconds(CLOCK_THREAD_CPUTIME_ID) - c0;
		double hz1 = speed_core_hz();

		w->b[b].hz = hz0 > hz1 ? hz0 : hz1;
		if (pthread_barrier_wait(&ctl->barrier) == PTHREAD_BARRIER_SERIAL_THREAD) {
			ctl->batches = b + 1;
			ctl->measured += ctl->w[0].b[b].wall;
			ctl->done = enough(ctl);
		}
	}
	return NULL;
}

/* The best batch (all threads' operations per second added up), among the kept ones if any. */
static void summarise(const struct control *ctl, struct speed_result *res)
{
	double best = -1;

	res->kept = 0;
	for (unsigned b = 0; b < ctl->batches; b++)
		res->kept += (unsigned)batch_kept(ctl, b);
	for (unsigned b = 0; b < ctl->batches; b++) {
		double rate = 0, cycles = 0, bytes = 0;

		if (res->kept && !batch_kept(ctl, b))
			continue;
		for (unsigned t = 0; t < ctl->threads; t++) {
			const struct worker *w = &ctl->w[t];

			/* A clock that did not move is one tick: the batch still counts, at its slowest. */
			rate += (double)w->per_batch / (w->b[b].wall > 1e-9 ? w->b[b].wall : 1e-9);
			cycles += w->b[b].wall * w->b[b].hz;
			bytes += (double)w->per_batch * (double)w->size;
		}
		if (rate > best) {
			best = rate;
			res->ops_per_s = rate;
			res->cycles_per_byte = cycles / bytes;
		}
	}
	res->bytes_per_s = res->ops_per_s * (double)res->size;
}

/* The operation size to use: as asked, or rounded up to the block size when the mode
 * refuses it (cbc at 1420 bytes), as tcrypt does. Hashes take any size, AEADs too but
 * authenc over cbc (rounded to 16 bytes, a multiple of every cbc block). */
static int trial_op(struct worker *w)
{
	uint8_t iv[16];

	make_iv(iv, sizeof(iv), w->iv_base);   /* ccm: iv[0] = L - 1 */
	if (w->job->type == BC_TYPE_AEAD)   /* an encryption: decryption's ring is filled once the size is known */
		return bc_aead_encrypt(w->ae, iv, w->ivlen, w->ad, w->adlen, w->buf, w->buf, w->size, w->out);
	return one_op(w);
}

static int settle_size(struct worker *w)
{
	size_t bs;
	int r;

	if (w->job->type == BC_TYPE_SHASH)
		return 0;
	r = trial_op(w);
	if (r != -EINVAL)
		return r;
	bs = w->job->type == BC_TYPE_AEAD ? 16 : bc_skcipher_blocksize(w->sk);
	w->size = (w->size + bs - 1) / bs * bs;
	if (w->size == 0)
		w->size = bs;
	return trial_op(w);
}

/* Runs worker_main on every worker, the first on this thread. The others wait at the gate
 * until the barrier is set up for as many threads as could be started. */
static int run_threads(struct control *ctl)
{
	unsigned started = 1;

	for (; started < ctl->threads; started++)
		if (pthread_create(&ctl->w[started].thread, NULL, worker_main, &ctl->w[started]))
			break;
	pthread_mutex_lock(&ctl->gate);
	if (pthread_barrier_init(&ctl->barrier, NULL, started) == 0)
		ctl->go = 1;
	else
		ctl->go = -1;
	/* Workers stop at their first barrier if not all of them could start. */
	ctl->done = started < ctl->threads;
	pthread_cond_broadcast(&ctl->open);
	pthread_mutex_unlock(&ctl->gate);
	if (ctl->go > 0)
		worker_main(&ctl->w[0]);
	for (unsigned t = 1; t < started; t++)
		pthread_join(ctl->w[t].thread, NULL);
	if (ctl->go < 0)
		return -ENOMEM;
	pthread_barrier_destroy(&ctl->barrier);
	return started < ctl->threads ? -EAGAIN : 0;
}

double speed_batch_seconds(double seconds)
{
	return seconds / 10 < SPEED_BATCH_S ? seconds / 10 : SPEED_BATCH_S;
}

int speed_measure(const struct speed_job *job, struct speed_result *res)
{
	struct control ctl = { .gate = PTHREAD_MUTEX_INITIALIZER, .open = PTHREAD_COND_INITIALIZER,
	                       .threads = job->threads, .seconds = job->seconds,
	                       .batch_s = speed_batch_seconds(job->seconds) };
	int r;

	if (job->threads == 0 || job->size == 0 || job->seconds <= 0)
		return -EINVAL;
	ctl.w = calloc(job->threads, sizeof(*ctl.w));
	if (!ctl.w)
		return -ENOMEM;
	r = worker_init(&ctl.w[0], job, job->size);
	if (r == 0)
		r = settle_size(&ctl.w[0]);
	for (unsigned t = 1; t < job->threads && r == 0; t++)
		r = worker_init(&ctl.w[t], job, ctl.w[0].size);
	ctl.max_batches = (unsigned)(2 * ctl.seconds / ctl.batch_s) + SPEED_MIN_BATCHES;
	for (unsigned t = 0; t < job->threads && r == 0; t++) {
		ctl.w[t].ctl = &ctl;
		ctl.w[t].b = calloc(ctl.max_batches, sizeof(*ctl.w[t].b));
		if (!ctl.w[t].b)
			r = -ENOMEM;
		else if (job->type == BC_TYPE_AEAD && job->op == SPEED_DECRYPT)
			r = fill_ring(&ctl.w[t]);
	}
	if (r == 0)
		r = run_threads(&ctl);
	for (unsigned t = 0; t < job->threads && r == 0; t++)
		r = ctl.w[t].err;
	if (r == 0) {
		res->size = ctl.w[0].size;
		summarise(&ctl, res);
	}
	for (unsigned t = 0; t < job->threads; t++)
		worker_free(&ctl.w[t]);
	free(ctl.w);
	return r;
}

/* Which of the usual key lengths the tfm takes: what tcrypt measures (128/192/256-bit keys,
 * doubled for xts; 64 bits for des), and nhpoly1305's one length (Poly1305's r and the NH key). */
static const size_t usual_keys[SPEED_MAX_KEYS] = { 8, 16, 24, 32, 48, 64, 1088 };

static void probe_keys(struct speed_alg *alg, const char *name, int (*setkey)(void *tfm, const uint8_t *key, size_t len),
		       void *tfm)
{
	uint8_t key[SPEED_KEY_MAX];

	for (unsigned i = 0; i < SPEED_MAX_KEYS; i++) {
		size_t n = speed_job_key(name, usual_keys[i], key, sizeof(key), make_key);

		if (n && setkey(tfm, key, n) == 0)
			alg->keylen[alg->nkeys++] = usual_keys[i];
	}
}

static int sk_setkey(void *tfm, const uint8_t *key, size_t len)
{
	return bc_skcipher_setkey(tfm, key, len);
}

static int ae_setkey(void *tfm, const uint8_t *key, size_t len)
{
	return bc_aead_setkey(tfm, key, len);
}

static int sh_setkey(void *tfm, const uint8_t *key, size_t len)
{
	return bc_shash_setkey(tfm, key, len);
}

int speed_lookup(const char *name, struct speed_alg *alg)
{
	bc_skcipher *sk;
	bc_aead *ae;
	bc_shash *sh;
	int r;

	memset(alg, 0, sizeof(*alg));
	r = bc_skcipher_alloc(&sk, name);
	if (r == 0) {
		alg->type = BC_TYPE_SKCIPHER;
		snprintf(alg->driver, sizeof(alg->driver), "%s", bc_skcipher_driver(sk));
		probe_keys(alg, name, sk_setkey, sk);
		bc_skcipher_free(sk);
		return alg->nkeys ? 0 : -EINVAL;
	}
	if (r == -ENOENT)
		r = bc_aead_alloc(&ae, name);
	if (r == 0) {
		alg->type = BC_TYPE_AEAD;
		snprintf(alg->driver, sizeof(alg->driver), "%s", bc_aead_driver(ae));
		probe_keys(alg, name, ae_setkey, ae);
		bc_aead_free(ae);
		return alg->nkeys ? 0 : -EINVAL;
	}
	if (r == -ENOENT)
		r = bc_shash_alloc(&sh, name);
	if (r == 0) {
		alg->type = BC_TYPE_SHASH;
		snprintf(alg->driver, sizeof(alg->driver), "%s", bc_shash_driver(sh));
		probe_keys(alg, name, sh_setkey, sh);
		bc_shash_free(sh);
	}
	return r;
}
