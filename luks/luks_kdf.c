/* blockcrypt-luks: the keyslot KDFs (PBKDF2-HMAC, Argon2i/Argon2id), their cost benchmark, the anti-forensic splitter,
 * plain mode's passphrase hash. LUKS1 2.3-2.4, LUKS2 3.2.5, RFC 8018 5.2; plain mode as cryptsetup(8).
 * Hashes and HMAC come from blockcrypt; OpenSSL's libcrypto only for hashes blockcrypt lacks; Argon2 from libargon2. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <argon2.h>
#include <blockcrypt.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include "luks_internal.h"

/* The hashes blockcrypt itself has: these and their HMACs go through libblockcrypt. OpenSSL's libcrypto
 * serves only the names blockcrypt lacks (ripemd160, whirlpool and the like), which old images still use. */
static const char *const own_hashes[] = { "sha1", "sha224", "sha256", "sha384", "sha512", "sm3", "md5" };

static int own_hash(const char *hash)
{
	for (size_t i = 0; i < sizeof(own_hashes) / sizeof(own_hashes[0]); i++)
		if (!strcmp(hash, own_hashes[i]))
			return 1;
	return 0;
}

/* One hash by its cryptsetup name, from either library. */
struct luks_md {
	bc_shash *bc;
	EVP_MD *evp;
	EVP_MD_CTX *ctx;
	size_t size;
};

/* The digest is fetched once for all its uses: a digest looked up by name is fetched again on every use
 * (OpenSSL 3), which made an AF merge of 4000 stripes cost milliseconds, and a crafted header with 32
 * keyslots seconds. */
static void md_close(struct luks_md *m);

/* whirlpool and other old digests are in OpenSSL 3's legacy provider, which cryptsetup loads too. A provider
 * loaded by name stops the default one from loading by itself, so the default is loaded first. */
static pthread_once_t legacy_once = PTHREAD_ONCE_INIT;

static void load_legacy(void)
{
	if (OSSL_PROVIDER_load(NULL, "default"))
		OSSL_PROVIDER_load(NULL, "legacy");
}

static int md_open(struct luks_md *m, const char *hash)
{
	const EVP_MD *named;
	int r;

	memset(m, 0, sizeof(*m));
	if (own_hash(hash)) {
		r = bc_shash_alloc(&m->bc, hash);
		if (r == -ENOMEM)
			return luks_fail(-ENOMEM, "out of memory");
		if (r)
			return luks_fail(-ENOTSUP, "hash %s is not supported", hash);
		m->size = bc_shash_digestsize(m->bc);
		return 0;
	}
	named = EVP_get_digestbyname(hash);
	m->evp = named ? EVP_MD_fetch(NULL, EVP_MD_get0_name(named), NULL) : NULL;
	if (named && !m->evp) {
		pthread_once(&legacy_once, load_legacy);
		m->evp = EVP_MD_fetch(NULL, EVP_MD_get0_name(named), NULL);
	}
	if (!m->evp || EVP_MD_get_size(m->evp) < 1 || EVP_MD_get_size(m->evp) > (int)LUKS_MAX_DIGEST)
		r = luks_fail(-ENOTSUP, "hash %s is not supported", hash);
	else if (!(m->ctx = EVP_MD_CTX_new()))
		r = luks_fail(-ENOMEM, "out of memory");
	else {
		m->size = (size_t)EVP_MD_get_size(m->evp);
		return 0;
	}
	md_close(m);
	return r;
}

static void md_close(struct luks_md *m)
{
	bc_shash_free(m->bc);
	EVP_MD_CTX_free(m->ctx);
	EVP_MD_free(m->evp);
	memset(m, 0, sizeof(*m));
}

/* hash(a || b) into out (m->size bytes). */
static int md_digest2(struct luks_md *m, const void *a, size_t alen, const void *b, size_t blen, uint8_t *out)
{
	if (m->bc)
		return bc_shash_init(m->bc) || bc_shash_update(m->bc, a, alen) || bc_shash_update(m->bc, b, blen) ||
		       bc_shash_final(m->bc, out) ? luks_fail(-EINVAL, "hashing failed") : 0;
	return EVP_DigestInit_ex(m->ctx, m->evp, NULL) && EVP_DigestUpdate(m->ctx, a, alen) &&
	       EVP_DigestUpdate(m->ctx, b, blen) && EVP_DigestFinal_ex(m->ctx, out, NULL) ?
	       0 : luks_fail(-EINVAL, "hashing failed");
}

int luks_hash_size(const char *hash)
{
	struct luks_md m;
	int r = md_open(&m, hash), size = (int)m.size;

	md_close(&m);
	return r ? r : size;
}

int luks_hash(const char *hash, const uint8_t *in, size_t len, uint8_t *out)
{
	return luks_hash_blocks(hash, in, len, len, out);
}

/* One hash object for every block: opening one per block (a reencryption's 4096-byte checksum blocks) costs
 * more than the hashing. */
int luks_hash_blocks(const char *hash, const uint8_t *in, size_t len, size_t block, uint8_t *out)
{
	struct luks_md m;
	int r = md_open(&m, hash);

	for (size_t b = 0; !r && b < len; b += block, out += m.size)
		r = md_digest2(&m, in + b, len - b < block ? len - b : block, "", 0, out);
	if (!r && !len)
		r = md_digest2(&m, in, 0, "", 0, out);
	md_close(&m);
	return r;
}

/* hash(A^round || pass) for round 0, 1, 2... concatenated and cut to keylen: the "hashalot" construction that
 * cryptsetup's plain mode applies, so that a key longer than the hash gets distinct pieces. */
static int plain_hash_rounds(struct luks_md *m, const uint8_t *pass, size_t passlen, uint8_t *key, size_t keylen)
{
	uint8_t prefix[LUKS_MAX_KEY], out[LUKS_MAX_DIGEST];   /* round r hashes r bytes 'A' first */
	int r = 0;

	memset(prefix, 'A', sizeof(prefix));
	for (size_t round = 0, done = 0; !r && done < keylen; round++) {
		size_t n = keylen - done < m->size ? keylen - done : m->size;

		r = md_digest2(m, prefix, round, pass, passlen, out);
		memcpy(key + done, out, n);
		done += n;
	}
	explicit_bzero(out, sizeof(out));
	return r;
}

int bc_luks_plain_key(const char *hash, const char *pass, size_t passlen, uint8_t *key, size_t keylen)
{
	char name[64];
	const char *colon = strchr(hash, ':');
	size_t len = keylen, nlen = colon ? (size_t)(colon - hash) : strlen(hash);
	struct luks_md m = { 0 };
	int r = 0, hashed;

	if (keylen < 1 || keylen > LUKS_MAX_KEY)
		return luks_fail(-EINVAL, "plain: key size %zu out of range (1..%u bytes)", keylen, LUKS_MAX_KEY);
	if (nlen >= sizeof(name))
		return luks_fail(-ENOTSUP, "hash %s is not supported", hash);
	memcpy(name, hash, nlen);
	name[nlen] = 0;
	if (colon) {   /* HASH:N: N bytes of hash, the rest zero */
		char *end;
		unsigned long n = strtoul(colon + 1, &end, 10);

		if (colon[1] < '0' || colon[1] > '9' || *end || n < 1 || n > keylen)
			return luks_fail(-EINVAL, "hash length in %s must be 1..%zu bytes (the key size)", hash, keylen);
		len = n;
	}
	hashed = strcmp(name, "plain") != 0;
	if (hashed && (r = md_open(&m, name)) != 0)
		return r;
	memset(key, 0, keylen);
	if (hashed)
		r = plain_hash_rounds(&m, (const uint8_t *)pass, passlen, key, len);
	else if (colon && passlen < len)   /* plain:N takes exactly N bytes of the passphrase */
		r = luks_fail(-EINVAL, "plain:%zu needs a passphrase of at least %zu bytes", len, len);
	else   /* plain: the passphrase itself, zero-padded or cut to the key size */
		memcpy(key, pass, passlen < len ? passlen : len);
	md_close(&m);
	if (r)
		explicit_bzero(key, keylen);
	return r;
}

/* PBKDF2 (RFC 8018 section 5.2) over blockcrypt's hmac: the passphrase's inner and outer states are computed
 * once at setkey, so an iteration costs two compressions, and the chains of the output blocks (a 64-byte key
 * from sha256 has two) run side by side through bc_shash_digest_many, which interleaves them where the hash
 * driver can. */
#define PBKDF2_LANES 8

static int pbkdf2_own(const char *hash, const uint8_t *pass, size_t passlen, const uint8_t *salt, size_t saltlen,
                      uint32_t iterations, uint8_t *out, size_t outlen)
{
	char name[48];
	bc_shash *h = NULL;
	uint8_t u[2][PBKDF2_LANES][LUKS_MAX_DIGEST], t[PBKDF2_LANES][LUKS_MAX_DIGEST], be[4];
	const uint8_t *msgs[PBKDF2_LANES];
	uint8_t *outs[PBKDF2_LANES];
	size_t lens[PBKDF2_LANES], hlen, nblk;
	int r;

	snprintf(name, sizeof(name), "hmac(%s)", hash);
	r = bc_shash_alloc(&h, name);
	if (r)
		return r == -ENOMEM ? luks_fail(-ENOMEM, "out of memory") :
		                      luks_fail(-ENOTSUP, "PBKDF2 hash %s is not supported", hash);
	r = bc_shash_setkey(h, pass, passlen);
	hlen = bc_shash_digestsize(h);
	nblk = (outlen + hlen - 1) / hlen;
	for (size_t first = 0; !r && first < nblk; first += PBKDF2_LANES) {
		unsigned k = nblk - first < PBKDF2_LANES ? (unsigned)(nblk - first) : PBKDF2_LANES;

		/* U1 = PRF(P, S || INT(i)) */
		for (unsigned j = 0; !r && j < k; j++) {
			luks_put_be32(be, (uint32_t)(first + j + 1));
			r = bc_shash_init(h) || bc_shash_update(h, salt, saltlen) || bc_shash_update(h, be, 4) ||
			    bc_shash_final(h, u[0][j]);
			memcpy(t[j], u[0][j], hlen);
			lens[j] = hlen;
		}
		/* Uc = PRF(P, Uc-1), T = U1 ^ ... ^ Uc */
		for (uint32_t c = 1; !r && c < iterations; c++) {
			for (unsigned j = 0; j < k; j++) {
				msgs[j] = u[(c - 1) & 1][j];
				outs[j] = u[c & 1][j];
			}
			r = bc_shash_digest_many(h, k, msgs, lens, outs);
			for (unsigned j = 0; j < k; j++)
				for (size_t b = 0; b < hlen; b++)
					t[j][b] ^= outs[j][b];
		}
		for (unsigned j = 0; j < k; j++) {
			size_t off = (first + j) * hlen;

			memcpy(out + off, t[j], outlen - off < hlen ? outlen - off : hlen);
		}
	}
	explicit_bzero(u, sizeof(u));
	explicit_bzero(t, sizeof(t));
	bc_shash_free(h);
	return r ? luks_fail(-EINVAL, "PBKDF2-%s failed", hash) : 0;
}

int luks_pbkdf2(const char *hash, const uint8_t *pass, size_t passlen, const uint8_t *salt, size_t saltlen,
                uint32_t iterations, uint8_t *out, size_t outlen)
{
	const EVP_MD *md;

	if (iterations < 1 || iterations > INT32_MAX)
		return luks_fail(-EINVAL, "PBKDF2 iterations %u out of range", iterations);
	if (own_hash(hash))
		return pbkdf2_own(hash, pass, passlen, salt, saltlen, iterations, out, outlen);
	md = EVP_get_digestbyname(hash);
	if (!md)
		return luks_fail(-ENOTSUP, "PBKDF2 hash %s is not supported", hash);
	/* OpenSSL takes (const char *)NULL for an empty password only with length 0; keep a pointer. */
	if (!PKCS5_PBKDF2_HMAC(passlen ? (const char *)pass : "", (int)passlen, salt, (int)saltlen, (int)iterations, md,
	                       (int)outlen, out))
		return luks_fail(-EINVAL, "PBKDF2-%s failed", hash);
	return 0;
}

int luks_argon2(enum bc_luks_pbkdf type, const uint8_t *pass, size_t passlen, const uint8_t *salt,
                size_t saltlen, uint32_t time, uint32_t memory_kib, uint32_t cpus, uint8_t *out, size_t outlen)
{
	int r = argon2_hash(time, memory_kib, cpus, pass, passlen, salt, saltlen, out, outlen, NULL, 0,
	                    type == BC_LUKS_ARGON2I ? Argon2_i : Argon2_id, ARGON2_VERSION_13);

	if (r == ARGON2_MEMORY_ALLOCATION_ERROR)
		return luks_fail(-ENOMEM, "Argon2: cannot allocate %u KiB", memory_kib);
	if (r != ARGON2_OK)
		return luks_fail(-EINVAL, "Argon2: %s", argon2_error_message(r));
	return 0;
}

int luks_kdf_check_bounds(enum bc_luks_pbkdf type, uint32_t iterations, uint32_t memory_kib, uint32_t cpus)
{
	if (type == BC_LUKS_PBKDF2) {
		if (iterations < 1)
			return luks_fail(-EINVAL, "PBKDF2 iterations must be at least 1");
		if (iterations > luks_max_iterations)
			return luks_fail(-E2BIG, "PBKDF2 iterations %u above the limit %u", iterations, luks_max_iterations);
		return 0;
	}
	if (iterations < 1 || cpus < 1 || cpus > ARGON2_MAX_LANES || memory_kib < 8 * cpus)
		return luks_fail(-EINVAL, "Argon2 parameters out of range (time %u, memory %u KiB, threads %u)", iterations,
		                 memory_kib, cpus);
	if (iterations > luks_max_time || memory_kib > luks_max_memory_kib || cpus > 64)
		return luks_fail(-E2BIG, "Argon2 cost above the limits (time %u of %u, memory %u of %u KiB, threads %u of 64)",
		                 iterations, luks_max_time, memory_kib, luks_max_memory_kib, cpus);
	return 0;
}

int luks_slot_kdf(const struct luks_slot *s, const char *pass, size_t passlen, uint8_t *out)
{
	int r = luks_kdf_check_bounds(s->kdf, s->iterations, s->memory_kib, s->cpus);

	if (r)
		return r;
	if (s->kdf == BC_LUKS_PBKDF2)
		return luks_pbkdf2(s->kdf_hash, (const uint8_t *)pass, passlen, s->salt, s->salt_len, s->iterations, out,
		                   s->area_key_bytes);
	return luks_argon2(s->kdf, (const uint8_t *)pass, passlen, s->salt, s->salt_len, s->iterations, s->memory_kib,
	                   s->cpus, out, s->area_key_bytes);
}

/* H1 of LUKS1 section 2.4.1: each digest-sized piece i of d becomes hash(be32(i) || piece), cut to its length. */
static int af_diffuse(struct luks_md *m, uint8_t *d, size_t len)
{
	uint8_t in[4], out[LUKS_MAX_DIGEST];
	int r = 0;

	for (size_t i = 0, off = 0; !r && off < len; i++, off += m->size) {
		size_t n = len - off < m->size ? len - off : m->size;

		luks_put_be32(in, (uint32_t)i);
		r = md_digest2(m, in, 4, d + off, n, out);
		memcpy(d + off, out, n);
	}
	explicit_bzero(out, sizeof(out));
	return r;
}

/* d(n-1) of LUKS1 section 2.4: XOR each stripe into d and diffuse, all but the last stripe. */
static int af_chain(const char *hash, const uint8_t *split, size_t keylen, uint32_t stripes, uint8_t *d)
{
	struct luks_md m;
	int r = md_open(&m, hash);

	memset(d, 0, keylen);
	for (uint32_t i = 0; !r && i + 1 < stripes; i++) {
		for (size_t j = 0; j < keylen; j++)
			d[j] ^= split[i * keylen + j];
		r = af_diffuse(&m, d, keylen);
	}
	md_close(&m);
	return r;
}

int luks_af_merge(const char *hash, const uint8_t *split, size_t keylen, uint32_t stripes, uint8_t *key)
{
	int r = af_chain(hash, split, keylen, stripes, key);

	if (r)
		return r;
	for (size_t j = 0; j < keylen; j++)
		key[j] ^= split[(stripes - 1) * keylen + j];
	return 0;
}

int luks_af_split(const char *hash, const uint8_t *key, size_t keylen, uint32_t stripes, uint8_t *split)
{
	uint8_t d[LUKS_MAX_KEY];
	int r = bc_luks_random(split, (stripes - 1) * keylen);

	if (!r)
		r = af_chain(hash, split, keylen, stripes, d);
	if (!r)
		for (size_t j = 0; j < keylen; j++)
			split[(stripes - 1) * keylen + j] = d[j] ^ key[j];
	explicit_bzero(d, sizeof(d));
	return r;
}

/* KDF costs are measured in CPU time, as cryptsetup does: on a loaded machine wall time would count other
 * programs' turns, and a benchmark that saw them would choose weaker parameters. */
static double cpu_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Iterations that take `ms` for an outlen-byte PBKDF2 (outlen decides how many HMAC chains run). */
uint32_t luks_pbkdf2_benchmark(const char *hash, uint32_t ms, size_t outlen)
{
	static const uint8_t salt[LUKS_SALT];
	uint8_t out[LUKS_MAX_KEY];
	uint32_t it = 1000;
	double t = 0;

	/* Grow the trial until it runs long enough (50 ms) to time. */
	for (;;) {
		double t0 = cpu_ms(CLOCK_THREAD_CPUTIME_ID);

		if (luks_pbkdf2(hash, (const uint8_t *)"benchmark", 9, salt, sizeof(salt), it, out, outlen))
			return 0;
		t = cpu_ms(CLOCK_THREAD_CPUTIME_ID) - t0;
		if (t >= 50 || it >= UINT32_MAX / 4)
			break;
		it *= t > 5 ? 2 : 8;
	}
	/* the fastest of three: a core shared with another thread only ever makes a run slower (skipped for
	 * short targets, such as the 125 ms volume key digest, where the trials would cost more than the KDF) */
	for (int i = 0; i < 2 && ms > 4 * t; i++) {
		double t0 = cpu_ms(CLOCK_THREAD_CPUTIME_ID), u;

		if (luks_pbkdf2(hash, (const uint8_t *)"benchmark", 9, salt, sizeof(salt), it, out, outlen))
			return 0;
		u = cpu_ms(CLOCK_THREAD_CPUTIME_ID) - t0;
		t = u < t ? u : t;
	}
	double want = (double)it * ms / (t > 0 ? t : 1);

	return want < 1000 ? 1000 : want > INT32_MAX ? INT32_MAX : (uint32_t)want;
}

/* Argon2's lanes run on as many threads as there are cores for them: its unlock time is the process's
 * CPU time divided by that parallelism. */
static double argon2_time(const struct luks_slot *s)
{
	uint8_t out[LUKS_MAX_KEY];
	static const uint8_t salt[LUKS_SALT];
	unsigned par = s->cpus < luks_cpus() ? s->cpus : luks_cpus();
	double t0 = cpu_ms(CLOCK_PROCESS_CPUTIME_ID);

	if (luks_argon2(s->kdf, (const uint8_t *)"benchmark", 9, salt, sizeof(salt), s->iterations, s->memory_kib,
	                s->cpus, out, s->area_key_bytes))
		return -1;
	return (cpu_ms(CLOCK_PROCESS_CPUTIME_ID) - t0) / par;
}

/* Argon2 costs for `ms`: the full memory with the time cost that fits (4 at least, as cryptsetup), or
 * with time 4, the memory that fits. Estimated from a small run, then checked once and rescaled. */
static int argon2_benchmark(struct luks_slot *s, uint32_t ms, uint32_t max_kib)
{
	struct luks_slot probe = *s;
	double per_kib_pass, t;

	probe.iterations = 1;
	probe.memory_kib = max_kib < 65536 ? max_kib : 65536;
	t = argon2_time(&probe);
	if (t < 0)
		return -EINVAL;
	per_kib_pass = (t > 0.01 ? t : 0.01) / probe.memory_kib;
	s->memory_kib = max_kib;
	s->iterations = (uint32_t)(ms / (per_kib_pass * max_kib));
	if (s->iterations < 4) {
		s->iterations = 4;
		s->memory_kib = (uint32_t)(ms / (per_kib_pass * 4));
	}
	for (int round = 0; round < 3; round++) {
		if (s->memory_kib < 32 * s->cpus)
			s->memory_kib = 32 * s->cpus;
		if (s->iterations > luks_max_time)
			s->iterations = luks_max_time;
		t = argon2_time(s);
		if (t < 0)
			return -EINVAL;
		if (t > ms * 0.9 && t < ms * 1.1)
			break;
		double scale = ms / (t > 0.01 ? t : 0.01);

		if (s->memory_kib >= max_kib && s->iterations * scale >= 4)
			s->iterations = (uint32_t)(s->iterations * scale + 0.5);
		else {
			double m = s->memory_kib * scale;

			s->memory_kib = m > max_kib ? max_kib : (uint32_t)m;
		}
	}
	return 0;
}

int luks_kdf_choose(struct luks_slot *s, const struct bc_luks_pbkdf_params *p, size_t outlen)
{
	uint32_t ms = p->iter_time_ms ? p->iter_time_ms : 2000;

	s->kdf = p->type ? p->type : BC_LUKS_ARGON2ID;
	s->area_key_bytes = (unsigned)outlen;
	snprintf(s->kdf_hash, sizeof(s->kdf_hash), "%s", p->hash ? p->hash : "sha256");
	if (luks_hash_size(s->kdf_hash) < 0)
		return -ENOTSUP;
	s->salt_len = LUKS_SALT;
	if (bc_luks_random(s->salt, LUKS_SALT))
		return -EIO;
	if (s->kdf == BC_LUKS_PBKDF2) {
		s->memory_kib = s->cpus = 0;
		s->iterations = p->iterations ? p->iterations : luks_pbkdf2_benchmark(s->kdf_hash, ms, outlen);
		if (!s->iterations)
			return -EINVAL;
		return luks_kdf_check_bounds(s->kdf, s->iterations, 0, 0);
	}
	uint32_t cpus = luks_cpus();

	s->cpus = p->parallel ? p->parallel : cpus < 4 ? cpus : 4;
	s->memory_kib = p->memory_kib ? p->memory_kib : 1048576;
	if (p->iterations)
		s->iterations = p->iterations;
	else if (argon2_benchmark(s, ms, s->memory_kib))
		return -EINVAL;
	return luks_kdf_check_bounds(s->kdf, s->iterations, s->memory_kib, s->cpus);
}

int bc_luks_benchmark_pbkdf(struct bc_luks_pbkdf_params *p, size_t keylen)
{
	struct bc_luks_pbkdf_params q = *p;
	struct luks_slot s;
	int r;

	if (keylen < 1 || keylen > LUKS_MAX_KEY)
		return luks_fail(-EINVAL, "benchmark: a %zu-byte key is out of range", keylen);
	memset(&s, 0, sizeof(s));
	q.iterations = 0;
	if (!q.iter_time_ms)
		q.iter_time_ms = q.type == BC_LUKS_PBKDF2 ? 1000 : 2000;
	r = luks_kdf_choose(&s, &q, keylen);
	if (!r) {
		p->iterations = s.iterations;
		p->memory_kib = s.memory_kib;
		p->parallel = s.cpus;
		p->iter_time_ms = q.iter_time_ms;
	}
	explicit_bzero(&s, sizeof(s));
	return r;
}
