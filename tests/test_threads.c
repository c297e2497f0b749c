/* Threads: the contract of include/blockcrypt.h (one keyed skcipher or aead tfm shared by many threads, an shash
 * tfm per thread) on every driver, and allocation with the first-use self-tests racing; run under TSan (group tsan). */
#include "common.h"
#include "common_tmpl.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NTHREADS 6
#define LEN 531          /* bulk blocks and a partial one */

static pthread_barrier_t barrier;

/* ---- allocation and first-use self-tests, from every thread at once ---------------- */
static const char *const names[] = {
	"xts(aes)", "gcm(aes)", "cmac(aes)", "cts(cbc(aes))", "essiv(cbc(aes),sha256)", "ctr(aes)", "cbc(aes)",
	"ecb(aes)", "xcbc(aes)", "cbcmac(aes)", "xts(sm4)", "gcm(sm4)", "cmac(sm4)", "cts(cbc(sm4))",
	"essiv(cbc(sm4),sm3)", "ctr(sm4)", "cbc(sm4)", "ecb(sm4)", "xcbc(sm4)", "cbcmac(sm4)", "sha256", "sm3", "ghash",
	"xts(ecb(aes-generic))", "gcm_base(ctr(aes-generic),ghash-generic)", "cmac(sm4-generic)",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))
static int alloc_result[NTHREADS][NNAMES];

static int alloc_any(const char *name)
{
	bc_skcipher *s;
	bc_aead *a;
	bc_shash *h;
	int r = bc_skcipher_alloc(&s, name);

	if (r == 0) {
		bc_skcipher_free(s);
		return 0;
	}
	if ((r = bc_aead_alloc(&a, name)) == 0) {
		bc_aead_free(a);
		return 0;
	}
	if ((r = bc_shash_alloc(&h, name)) == 0)
		bc_shash_free(h);
	return r;
}

static void *alloc_race(void *arg)
{
	size_t id = (size_t)arg;

	pthread_barrier_wait(&barrier);
	for (size_t i = 0; i < NNAMES; i++) {
		size_t k = (i + id * 7) % NNAMES;   /* each thread in its own order */
		alloc_result[id][k] = alloc_any(names[k]);
	}
	return NULL;
}

/* ---- one shared tfm per driver ------------------------------------------------------- */
struct job {
	const struct bc_driver_info *info;
	bc_skcipher *sk;
	bc_aead *ae;
	const uint8_t *key;
	size_t keylen, ivlen, len;   /* aead: the IV length (gcm 12; ccm 16, the kernel's counter block, L = 4;
	                             * the templates' own) and the text length its mode takes */
	uint8_t pt[NTHREADS][LEN], want[NTHREADS][LEN + 64], iv[NTHREADS][32];   /* 32: xchacha's IV is the longest */
	int bad[NTHREADS];
};

struct worker { struct job *j; size_t id; };

static void *worker(void *arg)
{
	struct worker *w = arg;
	struct job *j = w->j;
	size_t id = w->id, len = j->len;
	uint8_t out[LEN + 64], iv[32];

	pthread_barrier_wait(&barrier);
	for (int round = 0; round < 20; round++) {
		if (j->sk) {
			memcpy(iv, j->iv[id], 32);
			if (bc_skcipher_encrypt(j->sk, iv, j->pt[id], out, len) || memcmp(out, j->want[id], len))
				j->bad[id]++;
		} else if (j->ae) {
			if (bc_aead_encrypt(j->ae, j->iv[id], j->ivlen, j->iv[id], 16, j->pt[id], out, len, out + len) ||
			    memcmp(out, j->want[id], len + bc_aead_authsize(j->ae)))
				j->bad[id]++;
			if (bc_aead_decrypt(j->ae, j->iv[id], j->ivlen, j->iv[id], 16, j->want[id], out, len, j->want[id] + len) ||
			    memcmp(out, j->pt[id], len))
				j->bad[id]++;
		} else {
			/* an shash tfm of its own, keyed the same */
			bc_shash *h;
			if (bc_shash_alloc(&h, j->info->driver) || (j->keylen && bc_shash_setkey(h, j->key, j->keylen)) ||
			    bc_shash_update(h, j->pt[id], 7) || bc_shash_update(h, j->pt[id] + 7, len - 7) ||
			    bc_shash_final(h, out) || memcmp(out, j->want[id], bc_shash_digestsize(h)))
				j->bad[id]++;
			bc_shash_free(h);
		}
	}
	return NULL;
}

static int each(const struct bc_driver_info *info, void *arg)
{
	struct job *j;
	unsigned ks[4];
	uint8_t key[TEST_KEY_MAX], iv[32];
	pthread_t th[NTHREADS];
	struct worker w[NTHREADS];
	size_t len = LEN;

	(void)arg;
	if (info->type == BC_TYPE_CIPHER)
		return 0;
	set_context("%s [%s]", info->name, info->driver);
	j = calloc(1, sizeof(*j));
	j->info = info;
	alg_key_sizes(info->name, ks);
	j->keylen = ks[0];
	j->ivlen = 12;
	rng_fill(key, sizeof(key));
	j->key = key;
	if (info->type == BC_TYPE_SKCIPHER && !alg_len_ok(info->name, len))
		len = LEN / 16 * 16;
	if (composed_name(info->name))
		j->keylen = composed_test_key(info, key, &j->ivlen, &len);
	j->len = len;
	/* the expected results, computed single-threaded on the same tfm */
	for (size_t t = 0; t < NTHREADS; t++) {
		rng_fill(j->pt[t], LEN);
		rng_fill(j->iv[t], 32);
		if (!strncmp(info->name, "ccm(", 4))
			j->iv[t][0] = 3;
	}
	if (!strncmp(info->name, "ccm(", 4))
		j->ivlen = 16;
	if (!strncmp(info->name, "rfc7539esp(", 11))
		j->ivlen = 8;   /* and its 16 bytes of associated data end with a copy of it, as ESP's */
	int ok = 1;
	if (info->type == BC_TYPE_SKCIPHER) {
		ok = !bc_skcipher_alloc(&j->sk, info->driver) && !bc_skcipher_setkey(j->sk, key, j->keylen);
		for (size_t t = 0; ok && t < NTHREADS; t++)
			ok = !bc_skcipher_encrypt(j->sk, memcpy(iv, j->iv[t], 32), j->pt[t], j->want[t], len);
	} else if (info->type == BC_TYPE_AEAD) {
		ok = !bc_aead_alloc(&j->ae, info->driver) && !bc_aead_setkey(j->ae, key, j->keylen);
		for (size_t t = 0; ok && t < NTHREADS; t++)
			ok = !bc_aead_encrypt(j->ae, j->iv[t], j->ivlen, j->iv[t], 16, j->pt[t], j->want[t], len,
					      j->want[t] + len);
	} else {
		bc_shash *h;
		ok = !bc_shash_alloc(&h, info->driver) && (!j->keylen || !bc_shash_setkey(h, key, j->keylen));
		for (size_t t = 0; ok && t < NTHREADS; t++)
			ok = !bc_shash_digest(h, j->pt[t], len, j->want[t]);
		bc_shash_free(h);
	}
	CHECK(ok, "single-threaded reference");
	if (ok) {
		for (size_t t = 0; t < NTHREADS; t++) {
			w[t] = (struct worker){ j, t };
			pthread_create(&th[t], NULL, worker, &w[t]);
		}
		for (size_t t = 0; t < NTHREADS; t++) {
			pthread_join(th[t], NULL);
			CHECK(j->bad[t] == 0, "thread %zu: %d wrong results", t, j->bad[t]);
		}
	}
	bc_skcipher_free(j->sk);
	bc_aead_free(j->ae);
	free(j);
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t th[NTHREADS];

	(void)argc;
	test_init();
	rng_seed(0x7457u);
	/* first: allocation racing the first-use self-tests, before anything else touched the registry */
	pthread_barrier_init(&barrier, NULL, NTHREADS);
	for (size_t t = 0; t < NTHREADS; t++)
		pthread_create(&th[t], NULL, alloc_race, (void *)t);
	for (size_t t = 0; t < NTHREADS; t++)
		pthread_join(th[t], NULL);
	for (size_t i = 0; i < NNAMES; i++)
		for (size_t t = 0; t < NTHREADS; t++)
			CHECK(alloc_result[t][i] == 0, "%s from thread %zu: %d", names[i], t, alloc_result[t][i]);
	bc_list_drivers(each, NULL);
	pthread_barrier_destroy(&barrier);
	return test_summary(argv[0]);
}
