/* blockcrypt tests: HKDF (bc_hkdf_extract/expand) and fscrypt's key derivation, IVs and name encryption.
 * RFC 5869 appendix A, Wycheproof hkdf_sha*, and fscrypt known answers from xfstests' fscrypt-crypt-util and OpenSSL. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "blockcrypt-fscrypt.h"

#define OKM_MAX (255 * 64 + 2)

/* One HKDF: extract into prk (when want_prk is given, compared), then expand. */
static void hkdf_case(const char *hmac_name, const uint8_t *ikm, size_t ikmlen, const uint8_t *salt, size_t saltlen,
                      const uint8_t *info, size_t infolen, const uint8_t *want_prk, const uint8_t *want, size_t len,
                      int valid)
{
	static uint8_t okm[OKM_MAX];
	uint8_t prk[64];
	bc_shash *h;
	int err;

	if (bc_shash_alloc(&h, hmac_name)) {
		CHECK(0, "cannot allocate %s", hmac_name);
		return;
	}
	err = bc_hkdf_extract(h, ikm, ikmlen, salt, saltlen, prk);
	CHECK(err == 0, "extract: %d", err);
	if (want_prk)
		CHECK(!memcmp(prk, want_prk, bc_shash_digestsize(h)), "prk %s", hex_str(prk, bc_shash_digestsize(h)));
	memset(okm, 0xa5, len);
	err = bc_hkdf_expand(h, info, infolen, okm, len);
	if (valid) {
		CHECK(err == 0 && !memcmp(okm, want, len), "expand: %d, okm %s", err, hex_str(okm, len < 64 ? len : 64));
		/* a shorter output is the longer one's beginning */
		if (len > 1) {
			memset(okm, 0xa5, len);
			err = bc_hkdf_expand(h, info, infolen, okm, len - 1);
			CHECK(err == 0 && !memcmp(okm, want, len - 1) && okm[len - 1] == 0xa5, "expand of L - 1");
		}
	} else {
		CHECK(err == -EINVAL && untouched(okm, len, 0xa5), "invalid length %zu: %d", len, err);
	}
	bc_shash_free(h);
}

static void rfc5869(void)
{
	struct vfile vf;

	if (vfile_load(&vf, "rfc/rfc5869_hkdf.txt")) {
		CHECK(0, "cannot read rfc/rfc5869_hkdf.txt");
		return;
	}
	for (size_t i = 0; i < vf.n; i++) {
		const struct vrec *r = &vf.r[i];
		uint8_t *ikm, *salt, *info, *prk, *okm;
		size_t ni, ns, nf, np, no;

		set_context("rfc5869 line %d", r->line);
		if (vrec_bytes(r, "ikm", &ikm, &ni) || vrec_bytes(r, "salt", &salt, &ns) ||
		    vrec_bytes(r, "info", &info, &nf) || vrec_bytes(r, "prk", &prk, &np) || vrec_bytes(r, "okm", &okm, &no)) {
			CHECK(0, "incomplete record");
			continue;
		}
		/* "hkdf(hmac(sha256))" -> "hmac(sha256)" */
		char name[32];
		snprintf(name, sizeof(name), "%.*s", (int)strlen(vrec_get(r, "alg")) - 6, vrec_get(r, "alg") + 5);
		hkdf_case(name, ikm, ni, salt, ns, info, nf, prk, okm, no, 1);
	}
	CHECK(vf.n == 7, "rfc5869: %zu records, 7 expected", vf.n);
	vfile_free(&vf);
}

static int jbytes(const struct json *t, const char *name, uint8_t **p, size_t *n)
{
	const char *s = json_str(t, name);

	return s ? hex_decode(s, p, n) : -1;
}

static void wycheproof(const char *rel, const char *hmac_name, long expect)
{
	char *buf;
	struct json *root = json_load(rel, &buf);
	long n = 0, invalid = 0;

	if (!root) {
		CHECK(0, "cannot read %s", rel);
		return;
	}
	for (const struct json *g = json_get(root, "testGroups")->child; g; g = g->next)
		for (const struct json *t = json_get(g, "tests")->child; t; t = t->next, n++) {
			uint8_t *ikm, *salt, *info, *okm;
			size_t ni, ns, nf, no;
			long size = json_long(t, "size", -1);
			int valid = !strcmp(json_str(t, "result"), "valid");

			set_context("%s tcId %ld", rel, json_long(t, "tcId", 0));
			if (jbytes(t, "ikm", &ikm, &ni) || jbytes(t, "salt", &salt, &ns) || jbytes(t, "info", &info, &nf) ||
			    jbytes(t, "okm", &okm, &no) || size < 0 || size >= OKM_MAX || (valid && (size_t)size != no)) {
				CHECK(0, "malformed test");
				continue;
			}
			invalid += !valid;
			hkdf_case(hmac_name, ikm, ni, salt, ns, info, nf, NULL, okm, (size_t)size, valid);
			tmp_free_all();
		}
	CHECK(n == expect && n == json_long(root, "numberOfTests", -1) && invalid > 0,
	      "%s: %ld tests (%ld invalid), %ld expected", rel, n, invalid, expect);
	json_free(root, buf);
}

/* Refusals: not an hmac, no key, too long an output (nothing written). */
static void hkdf_errors(void)
{
	uint8_t out[255 * 32 + 1], prk[64];
	bc_shash *h, *s;

	set_context("hkdf errors");
	if (bc_shash_alloc(&h, "hmac(sha256)") || bc_shash_alloc(&s, "cmac(aes)")) {
		CHECK(0, "alloc");
		return;
	}
	memset(out, 0xa5, sizeof(out));
	CHECK(bc_hkdf_expand(h, NULL, 0, out, 16) == -ENOKEY && untouched(out, sizeof(out), 0xa5), "unkeyed hmac");
	CHECK(bc_hkdf_extract(h, (const uint8_t *)"k", 1, NULL, 0, prk) == 0, "extract");
	CHECK(bc_hkdf_expand(h, NULL, 0, out, sizeof(out)) == -EINVAL && untouched(out, sizeof(out), 0xa5),
	      "255 * HashLen + 1 bytes");
	CHECK(bc_hkdf_expand(h, NULL, 0, out, sizeof(out) - 1) == 0 && out[sizeof(out) - 1] == 0xa5,
	      "255 * HashLen bytes");
	CHECK(bc_hkdf_expand(h, NULL, 0, out, 0) == 0, "empty output");
	CHECK(bc_hkdf_expand(h, NULL, 5, out, 16) == -EINVAL, "NULL info with a length");
	CHECK(bc_hkdf_expand(NULL, NULL, 0, out, 16) == -EINVAL, "NULL tfm");
	uint8_t key[16] = { 0 };
	CHECK(bc_shash_setkey(s, key, 16) == 0, "cmac key");
	CHECK(bc_hkdf_extract(s, key, 16, NULL, 0, prk) == -EINVAL, "extract over cmac");
	CHECK(bc_hkdf_expand(s, NULL, 0, out, 16) == -EINVAL, "expand over cmac");
	bc_shash_free(s);
	bc_shash_free(h);
}

/* ---- fscrypt ------------------------------------------------------------------ */
static int field(const struct vrec *r, const char *name, uint8_t **p, size_t *n)
{
	if (vrec_bytes(r, name, p, n) == 0)
		return 0;
	CHECK(0, "record without %s", name);
	return -1;
}

/* A field that may exceed a 32-bit long (an index near 2^32). */
static uint64_t field_u64(const struct vrec *r, const char *name)
{
	const char *v = vrec_get(r, name);

	return v ? strtoull(v, NULL, 10) : 0;
}

/* The policy, nonce, inode number and key of a contents or name record. */
struct file_case {
	struct bc_fscrypt_policy pol;
	bc_fscrypt_key *key;
	uint8_t *nonce, *pt, *ct;
	size_t npt, nct;
	uint64_t ino;
};

static int file_case(const struct vrec *r, int dir, struct file_case *c)
{
	uint8_t *mk, *uuid;
	size_t nmk, nn, nu;
	int err;

	memset(c, 0, sizeof(*c));
	if (field(r, "master", &mk, &nmk) || field(r, "nonce", &c->nonce, &nn) || field(r, "fs_uuid", &uuid, &nu) ||
	    field(r, "ptext", &c->pt, &c->npt) || field(r, "ctext", &c->ct, &c->nct) || nn != 16 || nu != 16)
		return -1;
	c->pol.version = vrec_long(r, "version", 0) == 1 ? BC_FSCRYPT_POLICY_V1 : BC_FSCRYPT_POLICY_V2;
	if (dir)
		c->pol.filenames_mode = (uint8_t)vrec_long(r, "mode", 0);
	else
		c->pol.contents_mode = (uint8_t)vrec_long(r, "mode", 0);
	c->pol.flags = (uint8_t)vrec_long(r, "flags", 0);
	memcpy(c->pol.fs_uuid, uuid, 16);
	c->ino = field_u64(r, "ino");
	err = bc_fscrypt_key_alloc(&c->key, mk, nmk);
	CHECK(err == 0, "key_alloc: %d", err);
	return err;
}

/* Data units of du_size bytes from `index` on, each under its own IV. */
static void contents(const struct vrec *r)
{
	struct file_case c;
	uint8_t key[BC_FSCRYPT_MAX_KEY_SIZE], iv[BC_FSCRYPT_MAX_IV_SIZE], ivc[BC_FSCRYPT_MAX_IV_SIZE];
	uint64_t index = field_u64(r, "index");
	size_t du = (size_t)vrec_long(r, "du_size", 0);
	uint32_t hashed = 0;
	bc_skcipher *tfm;
	int err;

	if (file_case(r, 0, &c))
		return;
	uint8_t *buf = tmp_alloc(c.npt), *back = tmp_alloc(c.npt);
	err = bc_fscrypt_file_key(c.key, &c.pol, 0, c.nonce, key);
	CHECK(err == 0, "file_key: %d", err);
	if (c.pol.flags & BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32)
		CHECK(bc_fscrypt_hash_ino(c.key, c.ino, &hashed) == 0, "hash_ino");
	err = bc_fscrypt_cipher_alloc(&tfm, c.pol.contents_mode, key);
	CHECK(err == 0, "cipher_alloc: %d", err);
	if (err || !du || c.npt % du || c.npt != c.nct)
		goto out;
	for (size_t off = 0; off < c.npt; off += du) {
		err = bc_fscrypt_iv(&c.pol, c.nonce, c.ino, hashed, index + off / du, iv);
		CHECK(err == 0, "iv: %d", err);
		memcpy(ivc, iv, sizeof(iv));
		CHECK(bc_skcipher_encrypt(tfm, ivc, c.pt + off, buf + off, du) == 0, "encrypt");
		memcpy(ivc, iv, sizeof(iv));
		CHECK(bc_skcipher_decrypt(tfm, ivc, c.ct + off, back + off, du) == 0, "decrypt");
	}
	CHECK(!memcmp(back, c.pt, c.npt), "decryption");
	CHECK(!memcmp(buf, c.ct, c.nct), "ciphertext %s", hex_str(buf, 32));
	bc_skcipher_free(tfm);
out:
	bc_fscrypt_key_free(c.key);
}

static void name(const struct vrec *r)
{
	struct file_case c;
	uint8_t key[BC_FSCRYPT_MAX_KEY_SIZE], iv[BC_FSCRYPT_MAX_IV_SIZE], out[BC_FSCRYPT_NAME_MAX];
	uint32_t hashed = 0;
	bc_skcipher *tfm;
	size_t n = 0;
	int err;

	if (file_case(r, 1, &c))
		return;
	err = bc_fscrypt_file_key(c.key, &c.pol, 1, c.nonce, key);
	CHECK(err == 0, "file_key: %d", err);
	if (c.pol.flags & BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32)
		CHECK(bc_fscrypt_hash_ino(c.key, c.ino, &hashed) == 0, "hash_ino");
	CHECK(bc_fscrypt_iv(&c.pol, c.nonce, c.ino, hashed, 0, iv) == 0, "iv");
	err = bc_fscrypt_cipher_alloc(&tfm, c.pol.filenames_mode, key);
	CHECK(err == 0, "cipher_alloc: %d", err);
	if (!err) {
		err = bc_fscrypt_name_encrypt(tfm, c.pol.flags, iv, c.pt, c.npt, out, &n);
		CHECK(err == 0 && n == c.nct && !memcmp(out, c.ct, n), "name_encrypt: %d, %zu bytes %s", err, n,
		      hex_str(out, n));
		memset(out, 0xa5, sizeof(out));
		err = bc_fscrypt_name_decrypt(tfm, iv, c.ct, c.nct, out, &n);
		CHECK(err == 0 && n == c.npt && !memcmp(out, c.pt, n) && untouched(out + n, sizeof(out) - n, 0xa5),
		      "name_decrypt: %d, %zu bytes", err, n);
		bc_skcipher_free(tfm);
	}
	bc_fscrypt_key_free(c.key);
}

static void key_identifier(const struct vrec *r)
{
	uint8_t *mk, *want, id[16];
	size_t nmk, nw;
	bc_fscrypt_key *k;

	if (field(r, "master", &mk, &nmk) || field(r, "id", &want, &nw) || bc_fscrypt_key_alloc(&k, mk, nmk)) {
		CHECK(0, "record");
		return;
	}
	CHECK(bc_fscrypt_key_identifier(k, id) == 0 && nw == 16 && !memcmp(id, want, 16), "id %s", hex_str(id, 16));
	bc_fscrypt_key_free(k);
}

/* A subkey from OpenSSL's HKDF, through bc_fscrypt_hkdf and through the
 * function that derives that kind of key. */
static void subkey(const struct vrec *r)
{
	uint8_t *mk, *info, *want, out[64], via[64];
	size_t nmk, ni, nw;
	long ctx = vrec_long(r, "context", -1);
	struct bc_fscrypt_policy pol = { .version = BC_FSCRYPT_POLICY_V2 };
	bc_fscrypt_key *k;
	int err = -1;

	if (field(r, "master", &mk, &nmk) || field(r, "info", &info, &ni) || field(r, "okm", &want, &nw) ||
	    nw > 64 || bc_fscrypt_key_alloc(&k, mk, nmk)) {
		CHECK(0, "record");
		return;
	}
	CHECK(bc_fscrypt_hkdf(k, (uint8_t)ctx, info, ni, out, nw) == 0 && !memcmp(out, want, nw), "okm %s",
	      hex_str(out, nw));
	memset(via, 0, sizeof(via));
	switch (ctx) {
	case BC_FSCRYPT_CTX_KEY_IDENTIFIER:
		err = bc_fscrypt_key_identifier(k, via);
		break;
	case BC_FSCRYPT_CTX_PER_FILE_ENC_KEY:
		pol.contents_mode = nw == 64 ? BC_FSCRYPT_MODE_AES_256_XTS : 0;
		pol.filenames_mode = BC_FSCRYPT_MODE_AES_256_CTS;
		err = bc_fscrypt_file_key(k, &pol, nw != 64, info, via);
		break;
	case BC_FSCRYPT_CTX_DIRECT_KEY:
		pol.contents_mode = info[0];
		pol.flags = BC_FSCRYPT_POLICY_FLAG_DIRECT_KEY;
		err = bc_fscrypt_file_key(k, &pol, 0, info, via);
		break;
	case BC_FSCRYPT_CTX_IV_INO_LBLK_64:
	case BC_FSCRYPT_CTX_IV_INO_LBLK_32:
		pol.contents_mode = info[0];
		pol.flags = ctx == BC_FSCRYPT_CTX_IV_INO_LBLK_64 ? BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64
		                                                 : BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32;
		memcpy(pol.fs_uuid, info + 1, 16);
		err = bc_fscrypt_file_key(k, &pol, 0, info, via);
		break;
	case BC_FSCRYPT_CTX_DIRHASH_KEY:
		err = bc_fscrypt_dirhash_key(k, info, via);
		break;
	case BC_FSCRYPT_CTX_INODE_HASH_KEY:
		err = 0;     /* seen through IV_INO_LBLK_32's IVs only */
		memcpy(via, want, nw);
		break;
	}
	CHECK(err == 0 && !memcmp(via, want, nw), "the context-%ld function: %d, %s", ctx, err, hex_str(via, nw));
	bc_fscrypt_key_free(k);
}

static void fscrypt_vectors(void)
{
	static const char rel[] = "xfstests/fscrypt_crypt_util.txt";
	unsigned long counts[4] = { 0 };
	struct vfile vf;

	if (vfile_load(&vf, rel)) {
		CHECK(0, "cannot read %s", rel);
		return;
	}
	for (size_t i = 0; i < vf.n; i++) {
		const struct vrec *r = &vf.r[i];
		const char *alg = vrec_get(r, "alg");

		set_context("%s line %d", rel, r->line);
		if (!strcmp(alg, "fscrypt(key_identifier)"))
			key_identifier(r), counts[0]++;
		else if (!strcmp(alg, "fscrypt(hkdf)"))
			subkey(r), counts[1]++;
		else if (!strcmp(alg, "fscrypt(contents)"))
			contents(r), counts[2]++;
		else if (!strcmp(alg, "fscrypt(name)"))
			name(r), counts[3]++;
		else
			CHECK(0, "unknown alg %s", alg);
		tmp_free_all();
	}
	printf("%s: %lu key identifiers, %lu subkeys, %lu contents, %lu names\n", rel, counts[0], counts[1],
	       counts[2], counts[3]);
	CHECK(counts[0] == 3 && counts[1] == 16 && counts[2] == 17 && counts[3] == 62, "record counts");
	vfile_free(&vf);
}

/* The padded length of every name length under every padding, and the refusals. */
static void fscrypt_rules(void)
{
	static const uint8_t mk[32] = { 1, 2, 3 }, nonce[16] = { 4 };
	struct bc_fscrypt_policy pol = { .version = BC_FSCRYPT_POLICY_V2, .contents_mode = BC_FSCRYPT_MODE_AES_256_XTS,
	                                 .filenames_mode = BC_FSCRYPT_MODE_AES_256_CTS };
	uint8_t key[64], iv[32], nm[BC_FSCRYPT_NAME_MAX + 1], out[BC_FSCRYPT_NAME_MAX], back[BC_FSCRYPT_NAME_MAX];
	bc_fscrypt_key *k;
	bc_skcipher *tfm;
	size_t n;

	set_context("fscrypt rules");
	CHECK(bc_fscrypt_key_alloc(&k, mk, 15) == -EINVAL && k == NULL, "15-byte master key");
	CHECK(bc_fscrypt_key_alloc(&k, mk, 65) == -EINVAL, "65-byte master key");
	if (bc_fscrypt_key_alloc(&k, mk, 32)) {
		CHECK(0, "key_alloc");
		return;
	}
	CHECK(bc_fscrypt_file_key(k, &pol, 1, nonce, key) == 0, "name key");
	CHECK(bc_fscrypt_iv(&pol, nonce, 0, 0, 0, iv) == 0, "name iv");
	for (int i = 0; i < 32; i++)
		CHECK(iv[i] == 0, "the default name IV is zero");
	if (bc_fscrypt_cipher_alloc(&tfm, pol.filenames_mode, key)) {
		CHECK(0, "cipher_alloc");
		return;
	}
	rng_seed(0xf5c);
	for (unsigned pad = 0; pad < 4; pad++)
		for (size_t len = 1; len <= BC_FSCRYPT_NAME_MAX; len++) {
			size_t p = (size_t)4 << pad, want = len < 16 ? 16 : len, m;

			want = (want + p - 1) / p * p;
			want = want > 255 ? 255 : want;
			for (size_t i = 0; i < len; i++)
				nm[i] = (uint8_t)(1 + rng_below(255));
			CHECK(bc_fscrypt_name_encrypt(tfm, (uint8_t)pad, iv, nm, len, out, &n) == 0 && n == want,
			      "pad %zu, length %zu: %zu bytes", p, len, n);
			CHECK(bc_fscrypt_name_decrypt(tfm, iv, out, n, back, &m) == 0 && m == len && !memcmp(back, nm, len),
			      "pad %zu, length %zu: round trip", p, len);
		}
	memset(out, 0xa5, sizeof(out));
	n = 7;
	CHECK(bc_fscrypt_name_encrypt(tfm, 3, iv, nm, 256, out, &n) == -ENAMETOOLONG && n == 7 &&
	      untouched(out, sizeof(out), 0xa5), "256-byte name");
	CHECK(bc_fscrypt_name_encrypt(tfm, 3, iv, nm, 0, out, &n) == -EINVAL, "empty name");
	CHECK(bc_fscrypt_name_decrypt(tfm, iv, nm, 15, out, &n) == -EINVAL && untouched(out, sizeof(out), 0xa5),
	      "15-byte encrypted name");
	CHECK(bc_fscrypt_name_decrypt(tfm, iv, nm, 256, out, &n) == -EINVAL, "256-byte encrypted name");
	bc_skcipher_free(tfm);

	/* a name with NULs inside ends at the first one */
	memset(nm, 0, 16);
	memcpy(nm, "ab\0cd", 5);
	bc_skcipher_alloc(&tfm, "cts(cbc(aes))");
	bc_skcipher_setkey(tfm, key, 32);
	uint8_t ivz[16] = { 0 };
	bc_skcipher_encrypt(tfm, ivz, nm, out, 16);
	memset(ivz, 0, 16);
	CHECK(bc_fscrypt_name_decrypt(tfm, ivz, out, 16, back, &n) == 0 && n == 2 && !memcmp(back, "ab", 2),
	      "name up to the first NUL: %zu bytes", n);
	bc_skcipher_free(tfm);

	/* derivations refused */
	memset(key, 0xa5, sizeof(key));
	struct bc_fscrypt_policy bad = pol;
	bad.flags = BC_FSCRYPT_POLICY_FLAG_DIRECT_KEY;
	CHECK(bc_fscrypt_file_key(k, &bad, 0, nonce, key) == -EINVAL, "DIRECT_KEY on AES-256-XTS");
	bad.flags = BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64 | BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32;
	CHECK(bc_fscrypt_file_key(k, &bad, 0, nonce, key) == -EINVAL, "two IV flags");
	CHECK(bc_fscrypt_iv(&bad, nonce, 1, 0, 0, iv) == -EINVAL, "two IV flags (iv)");
	bad = pol;
	bad.contents_mode = 2;
	CHECK(bc_fscrypt_file_key(k, &bad, 0, nonce, key) == -EINVAL, "mode 2");
	bad = pol;
	bad.version = 1;
	CHECK(bc_fscrypt_file_key(k, &bad, 0, nonce, key) == -EINVAL, "v1 AES-256-XTS from a 32-byte key");
	bad.flags = BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64;
	bad.contents_mode = BC_FSCRYPT_MODE_AES_128_CBC;
	CHECK(bc_fscrypt_file_key(k, &bad, 0, nonce, key) == -EINVAL, "v1 with IV_INO_LBLK_64");
	CHECK(untouched(key, sizeof(key), 0xa5), "nothing written");
	bc_fscrypt_key_free(k);
	CHECK(bc_fscrypt_key_alloc(&k, mk, 16) == 0, "16-byte key");
	CHECK(bc_fscrypt_file_key(k, &pol, 0, nonce, key) == -EINVAL, "v2 AES-256-XTS from a 16-byte key");
	pol.contents_mode = BC_FSCRYPT_MODE_AES_128_CBC;
	CHECK(bc_fscrypt_file_key(k, &pol, 0, nonce, key) == 0, "v2 AES-128-CBC from a 16-byte key");
	bc_fscrypt_key_free(k);

	/* IV layouts */
	pol.flags = BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64;
	CHECK(bc_fscrypt_iv(&pol, NULL, 1ull << 32, 0, 0, iv) == -EINVAL, "IV_INO_LBLK_64 inode over 32 bits");
	CHECK(bc_fscrypt_iv(&pol, NULL, 1, 0, 1ull << 32, iv) == -EINVAL, "IV_INO_LBLK_64 index over 32 bits");
	CHECK(bc_fscrypt_iv(&pol, NULL, 0x01020304, 0, 0x05060708, iv) == 0 &&
	      !memcmp(iv, "\x08\x07\x06\x05\x04\x03\x02\x01", 8), "IV_INO_LBLK_64 layout");
	pol.flags = BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32;
	CHECK(bc_fscrypt_iv(&pol, NULL, 0, 0xfffffffe, 3, iv) == 0 && !memcmp(iv, "\x01\0\0\0\0\0\0\0", 8),
	      "IV_INO_LBLK_32 wraps at 2^32");
	pol.flags = BC_FSCRYPT_POLICY_FLAG_DIRECT_KEY;
	CHECK(bc_fscrypt_iv(&pol, NULL, 0, 0, 0, iv) == -EINVAL, "DIRECT_KEY without a nonce");
	CHECK(bc_fscrypt_iv(&pol, nonce, 0, 0, 0x1122, iv) == 0 && !memcmp(iv, "\x22\x11\0\0\0\0\0\0", 8) &&
	      !memcmp(iv + 8, nonce, 16), "DIRECT_KEY layout");
	size_t ks, is;
	const char *alg;
	CHECK(bc_fscrypt_mode_info(BC_FSCRYPT_MODE_ADIANTUM, &alg, &ks, &is) == 0 && ks == 32 && is == 32 &&
	      !strcmp(alg, "adiantum(xchacha12,aes)"), "mode info");
	CHECK(bc_fscrypt_mode_info(3, &alg, &ks, &is) == -EINVAL && bc_fscrypt_mode_info(11, NULL, NULL, NULL) == -EINVAL,
	      "unknown modes");
}

int main(void)
{
	test_init();
	rfc5869();
	wycheproof("wycheproof/hkdf_sha1_test.json", "hmac(sha1)", 87);
	wycheproof("wycheproof/hkdf_sha256_test.json", "hmac(sha256)", 86);
	wycheproof("wycheproof/hkdf_sha384_test.json", "hmac(sha384)", 83);
	wycheproof("wycheproof/hkdf_sha512_test.json", "hmac(sha512)", 83);
	hkdf_errors();
	fscrypt_vectors();
	fscrypt_rules();
	tmp_free_all();
	return test_summary("test_fscrypt");
}
