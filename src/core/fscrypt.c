/* blockcrypt: fscrypt's key derivation (v1 AES-128-ECB, v2 HKDF-SHA512), IVs and file-name encryption.
 * Specification: Linux Documentation/filesystems/fscrypt.rst ("Key hierarchy", "Encryption modes and usage"). */
#include "internal.h"
#include "blockcrypt-fscrypt.h"

struct fscrypt_mode {
	const char *alg;
	uint8_t keysize, ivsize, strength;
};

static const struct fscrypt_mode *mode_of(unsigned mode)
{
	static const struct fscrypt_mode modes[] = {
		[BC_FSCRYPT_MODE_AES_256_XTS] = { "xts(aes)", 64, 16, 32 },
		[BC_FSCRYPT_MODE_AES_256_CTS] = { "cts(cbc(aes))", 32, 16, 32 },
		[BC_FSCRYPT_MODE_AES_128_CBC] = { "essiv(cbc(aes),sha256)", 16, 16, 16 },
		[BC_FSCRYPT_MODE_AES_128_CTS] = { "cts(cbc(aes))", 16, 16, 16 },
		[BC_FSCRYPT_MODE_ADIANTUM] = { "adiantum(xchacha12,aes)", 32, 32, 32 },
		[BC_FSCRYPT_MODE_AES_256_HCTR2] = { "hctr2(aes)", 32, 32, 32 },
	};

	if (mode >= sizeof(modes) / sizeof(modes[0]) || !modes[mode].alg)
		return NULL;
	return &modes[mode];
}

int bc_fscrypt_mode_info(unsigned mode, const char **alg, size_t *keysize, size_t *ivsize)
{
	const struct fscrypt_mode *m = mode_of(mode);

	if (!m)
		return -EINVAL;
	if (alg)
		*alg = m->alg;
	if (keysize)
		*keysize = m->keysize;
	if (ivsize)
		*ivsize = m->ivsize;
	return 0;
}

struct bc_fscrypt_key {
	bc_shash *hkdf;                        /* hmac(sha512) keyed with the PRK */
	size_t len;
	uint8_t raw[BC_FSCRYPT_MAX_KEY_SIZE];  /* v1 policies use the key itself */
};

void bc_fscrypt_key_free(bc_fscrypt_key *key)
{
	if (!key)
		return;
	bc_shash_free(key->hkdf);
	bc_ctx_free(key, sizeof(*key));
}

int bc_fscrypt_key_alloc(bc_fscrypt_key **key, const uint8_t *master, size_t len)
{
	uint8_t prk[64];
	bc_fscrypt_key *k;
	int err;

	if (!key)
		return -EINVAL;
	*key = NULL;
	if (!master || len < BC_FSCRYPT_MIN_KEY_SIZE || len > BC_FSCRYPT_MAX_KEY_SIZE)
		return -EINVAL;
	k = bc_ctx_alloc(sizeof(*k));
	if (!k)
		return -ENOMEM;
	err = bc_shash_alloc(&k->hkdf, "hmac(sha512)");
	if (!err)
		err = bc_hkdf_extract(k->hkdf, master, len, NULL, 0, prk);
	bc_wipe(prk, sizeof(prk));
	if (err) {
		bc_fscrypt_key_free(k);
		return err;
	}
	memcpy(k->raw, master, len);
	k->len = len;
	*key = k;
	return 0;
}

int bc_fscrypt_hkdf(bc_fscrypt_key *key, uint8_t context, const uint8_t *info, size_t infolen,
                    uint8_t *out, size_t outlen)
{
	uint8_t buf[9 + 64] = "fscrypt";
	int err;

	if (!key || infolen > sizeof(buf) - 9 || (infolen && !info))
		return -EINVAL;
	buf[8] = context;
	if (infolen)
		memcpy(buf + 9, info, infolen);
	err = bc_hkdf_expand(key->hkdf, buf, 9 + infolen, out, outlen);
	bc_wipe(buf, sizeof(buf));
	return err;
}

int bc_fscrypt_key_identifier(bc_fscrypt_key *key, uint8_t id[BC_FSCRYPT_KEY_IDENTIFIER_SIZE])
{
	return bc_fscrypt_hkdf(key, BC_FSCRYPT_CTX_KEY_IDENTIFIER, NULL, 0, id, BC_FSCRYPT_KEY_IDENTIFIER_SIZE);
}

/* The key encrypted block by block with AES-128-ECB under the nonce. */
static int v1_derive(const bc_fscrypt_key *key, const uint8_t nonce[BC_FSCRYPT_NONCE_SIZE], uint8_t *out,
                     size_t len)
{
	bc_skcipher *ecb;
	int err = bc_skcipher_alloc(&ecb, "ecb(aes)");

	if (err)
		return err;
	err = bc_skcipher_setkey(ecb, nonce, BC_FSCRYPT_NONCE_SIZE);
	if (!err)
		err = bc_skcipher_encrypt(ecb, NULL, key->raw, out, len);
	bc_skcipher_free(ecb);
	return err;
}

static int one_iv_flag(uint8_t flags)
{
	unsigned f = flags & (BC_FSCRYPT_POLICY_FLAG_DIRECT_KEY | BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64 |
	                      BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32);

	return (f & (f - 1)) == 0;
}

int bc_fscrypt_file_key(bc_fscrypt_key *key, const struct bc_fscrypt_policy *policy, int dir,
                        const uint8_t nonce[BC_FSCRYPT_NONCE_SIZE], uint8_t *out)
{
	const struct fscrypt_mode *m;
	unsigned mode;
	uint8_t info[1 + BC_FSCRYPT_UUID_SIZE];

	if (!key || !policy || !nonce || !out || !one_iv_flag(policy->flags))
		return -EINVAL;
	mode = dir ? policy->filenames_mode : policy->contents_mode;
	m = mode_of(mode);
	if (!m || ((policy->flags & BC_FSCRYPT_POLICY_FLAG_DIRECT_KEY) && m->ivsize < 8 + BC_FSCRYPT_NONCE_SIZE))
		return -EINVAL;
	if (policy->version == BC_FSCRYPT_POLICY_V1) {
		if (key->len < m->keysize ||
		    (policy->flags & (BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64 | BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32)))
			return -EINVAL;
		if (policy->flags & BC_FSCRYPT_POLICY_FLAG_DIRECT_KEY) {
			memcpy(out, key->raw, m->keysize);
			return 0;
		}
		return v1_derive(key, nonce, out, m->keysize);
	}
	if (policy->version != BC_FSCRYPT_POLICY_V2 || key->len < m->strength)
		return -EINVAL;
	info[0] = (uint8_t)mode;
	memcpy(info + 1, policy->fs_uuid, BC_FSCRYPT_UUID_SIZE);
	if (policy->flags & BC_FSCRYPT_POLICY_FLAG_DIRECT_KEY)
		return bc_fscrypt_hkdf(key, BC_FSCRYPT_CTX_DIRECT_KEY, info, 1, out, m->keysize);
	if (policy->flags & BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64)
		return bc_fscrypt_hkdf(key, BC_FSCRYPT_CTX_IV_INO_LBLK_64, info, sizeof(info), out, m->keysize);
	if (policy->flags & BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32)
		return bc_fscrypt_hkdf(key, BC_FSCRYPT_CTX_IV_INO_LBLK_32, info, sizeof(info), out, m->keysize);
	return bc_fscrypt_hkdf(key, BC_FSCRYPT_CTX_PER_FILE_ENC_KEY, nonce, BC_FSCRYPT_NONCE_SIZE, out, m->keysize);
}

int bc_fscrypt_dirhash_key(bc_fscrypt_key *key, const uint8_t nonce[BC_FSCRYPT_NONCE_SIZE],
                           uint8_t out[BC_FSCRYPT_SIPHASH_KEY_SIZE])
{
	if (!nonce)
		return -EINVAL;
	return bc_fscrypt_hkdf(key, BC_FSCRYPT_CTX_DIRHASH_KEY, nonce, BC_FSCRYPT_NONCE_SIZE, out,
	                       BC_FSCRYPT_SIPHASH_KEY_SIZE);
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

#define ROTL64(x, n) ((x) << (n) | (x) >> (64 - (n)))

static void sip_rounds(uint64_t v[4], int n)
{
	while (n--) {
		v[0] += v[1]; v[1] = ROTL64(v[1], 13); v[1] ^= v[0]; v[0] = ROTL64(v[0], 32);
		v[2] += v[3]; v[3] = ROTL64(v[3], 16); v[3] ^= v[2];
		v[0] += v[3]; v[3] = ROTL64(v[3], 21); v[3] ^= v[0];
		v[2] += v[1]; v[1] = ROTL64(v[1], 17); v[1] ^= v[2]; v[2] = ROTL64(v[2], 32);
	}
}

/* SipHash-2-4 (Aumasson and Bernstein) of the 8-byte little-endian message m;
 * the key's bytes are its two little-endian words, as the kernel reads them. */
static uint64_t siphash_u64(const uint8_t k[16], uint64_t m)
{
	uint64_t k0 = le64(k), k1 = le64(k + 8), r;
	uint64_t v[4] = { k0 ^ 0x736f6d6570736575ull, k1 ^ 0x646f72616e646f6dull,
	                  k0 ^ 0x6c7967656e657261ull, k1 ^ 0x7465646279746573ull };
	const uint64_t b = 8ull << 56;

	v[3] ^= m;
	sip_rounds(v, 2);
	v[0] ^= m;
	v[3] ^= b;
	sip_rounds(v, 2);
	v[0] ^= b;
	v[2] ^= 0xff;
	sip_rounds(v, 4);
	r = v[0] ^ v[1] ^ v[2] ^ v[3];
	bc_wipe(v, sizeof(v));
	return r;
}

int bc_fscrypt_hash_ino(bc_fscrypt_key *key, uint64_t ino, uint32_t *hashed)
{
	uint8_t k[BC_FSCRYPT_SIPHASH_KEY_SIZE];
	int err;

	if (!hashed)
		return -EINVAL;
	err = bc_fscrypt_hkdf(key, BC_FSCRYPT_CTX_INODE_HASH_KEY, NULL, 0, k, sizeof(k));
	if (!err)
		*hashed = (uint32_t)siphash_u64(k, ino);
	bc_wipe(k, sizeof(k));
	return err;
}

int bc_fscrypt_iv(const struct bc_fscrypt_policy *policy, const uint8_t nonce[BC_FSCRYPT_NONCE_SIZE],
                  uint64_t ino, uint32_t hashed_ino, uint64_t index, uint8_t iv[BC_FSCRYPT_MAX_IV_SIZE])
{
	uint8_t f;

	if (!policy || !iv || !one_iv_flag(policy->flags))
		return -EINVAL;
	f = policy->flags;
	if ((f & BC_FSCRYPT_POLICY_FLAG_DIRECT_KEY) && !nonce)
		return -EINVAL;
	if ((f & (BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64 | BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32)) &&
	    index > UINT32_MAX)
		return -EINVAL;
	if ((f & BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64) && ino > UINT32_MAX)
		return -EINVAL;
	memset(iv, 0, BC_FSCRYPT_MAX_IV_SIZE);
	if (f & BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64)
		index |= ino << 32;
	else if (f & BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32)
		index = (uint32_t)(hashed_ino + index);
	else if (f & BC_FSCRYPT_POLICY_FLAG_DIRECT_KEY)
		memcpy(iv + 8, nonce, BC_FSCRYPT_NONCE_SIZE);
	put_le64(iv, index);
	return 0;
}

int bc_fscrypt_cipher_alloc(bc_skcipher **tfm, unsigned mode, const uint8_t *key)
{
	const struct fscrypt_mode *m = mode_of(mode);
	int err;

	if (!tfm)
		return -EINVAL;
	*tfm = NULL;
	if (!m || !key)
		return -EINVAL;
	err = bc_skcipher_alloc(tfm, m->alg);
	if (!err)
		err = bc_skcipher_setkey(*tfm, key, m->keysize);
	if (err) {
		bc_skcipher_free(*tfm);
		*tfm = NULL;
	}
	return err;
}

/* Names are at most NAME_MAX bytes: a copy of one fits a stack buffer, which
 * is wiped (it holds the plaintext name). The IV is copied too: the cipher
 * may write its chaining value back. */
int bc_fscrypt_name_encrypt(const bc_skcipher *tfm, uint8_t flags, const uint8_t *iv,
                            const uint8_t *name, size_t len, uint8_t *out, size_t *outlen)
{
	uint8_t buf[BC_FSCRYPT_NAME_MAX], ivc[BC_FSCRYPT_MAX_IV_SIZE];
	size_t pad = (size_t)4 << (flags & BC_FSCRYPT_POLICY_FLAGS_PAD_MASK), n;
	int err;

	if (!tfm || !iv || !name || !out || !outlen || len == 0)
		return -EINVAL;
	if (len > BC_FSCRYPT_NAME_MAX)
		return -ENAMETOOLONG;
	n = len < BC_FSCRYPT_NAME_MIN_MSG ? BC_FSCRYPT_NAME_MIN_MSG : len;
	n = (n + pad - 1) / pad * pad;
	if (n > BC_FSCRYPT_NAME_MAX)
		n = BC_FSCRYPT_NAME_MAX;
	memcpy(buf, name, len);
	memset(buf + len, 0, n - len);
	memcpy(ivc, iv, bc_skcipher_ivsize(tfm));
	err = bc_skcipher_encrypt(tfm, ivc, buf, out, n);
	bc_wipe(buf, sizeof(buf));
	if (!err)
		*outlen = n;
	return err;
}

int bc_fscrypt_name_decrypt(const bc_skcipher *tfm, const uint8_t *iv,
                            const uint8_t *ctext, size_t len, uint8_t *name, size_t *namelen)
{
	uint8_t buf[BC_FSCRYPT_NAME_MAX], ivc[BC_FSCRYPT_MAX_IV_SIZE];
	size_t n;
	int err;

	if (!tfm || !iv || !ctext || !name || !namelen || len < BC_FSCRYPT_NAME_MIN_MSG ||
	    len > BC_FSCRYPT_NAME_MAX)
		return -EINVAL;
	memcpy(ivc, iv, bc_skcipher_ivsize(tfm));
	err = bc_skcipher_decrypt(tfm, ivc, ctext, buf, len);
	if (!err) {
		/* the name ends at the first NUL, found without a branch on the bytes */
		size_t found = 0;

		n = len;
		for (size_t i = 0; i < len; i++) {
			size_t zero = (size_t)0 - (((unsigned)buf[i] - 1) >> 8 & 1), first = zero & ~found;

			n = (n & ~first) | (i & first);
			found |= zero;
		}
		memcpy(name, buf, n);
		*namelen = n;
	}
	bc_wipe(buf, sizeof(buf));
	return err;
}
