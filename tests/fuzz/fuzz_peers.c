/* libFuzzer harness: every driver against OpenSSL's libcrypto and libgcrypt wherever they have the algorithm,
 * so a bug the generic and the accelerated code share is still caught. Modes: SP 800-38A/B/C/D/E, RFC 3566, kernel essiv;
 * ciphers AES, SM4, DES and TDES (FIPS 46-3, SP 800-67), Camellia (RFC 3713), Serpent and Twofish (their AES
 * submissions); ChaCha20 and its AEAD with Poly1305 (RFC 8439, the ESP form RFC 7634). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <gcrypt.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "fuzz_common.h"
#include "../common.h"

#define MAX_LEN 4096

enum mode { ECB, CBC, CTR, XTS, CTS, STREAM };

/* des and des3_ede have 8-byte blocks (and IVs), the others 16 (chacha20: its 16-byte IV, the kernel's layout
 * that both peers take too: the 32-bit LE block counter, then the 96-bit nonce). */
static size_t block_of(const char *c)
{
	return strstr(c, "des") ? 8 : 16;
}

/* ---- OpenSSL -------------------------------------------------------------------- */
/* OpenSSL's name of cipher c in mode mode ("CBC", "GCM", "" for a stream cipher...) with a key of keybits; -1 where OpenSSL has
 * no such cipher (Twofish, Serpent: libgcrypt alone is compared). A name it lacks (camellia's xts, des's ctr)
 * is refused later, by the fetch. */
static int ossl_name(char *name, size_t n, const char *c, size_t keybits, const char *mode)
{
	static const struct { const char *ours, *theirs; int sized; } names[] = {
		{ "aes", "AES", 1 }, { "camellia", "CAMELLIA", 1 }, { "sm4", "SM4", 0 },
		{ "des", "DES", 0 }, { "des3_ede", "DES-EDE3", 0 },   /* single DES: the legacy provider */
		{ "chacha20", "ChaCha20", 0 },   /* "ChaCha20" and "ChaCha20-Poly1305" */
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(c, names[i].ours)) {
			if (names[i].sized)
				snprintf(name, n, "%s-%zu-%s", names[i].theirs, keybits, mode);
			else
				snprintf(name, n, "%s%s%s", names[i].theirs, *mode ? "-" : "", mode);
			return 0;
		}
	return -1;
}

static int ossl_cipher(const char *c, enum mode m, const uint8_t *key, size_t keylen, const uint8_t *iv,
		       const uint8_t *in, uint8_t *out, size_t len, int enc)
{
	static const char *const mname[] = { "ECB", "CBC", "CTR", "XTS", "CBC-CTS", "" };
	char name[32];
	EVP_CIPHER *ci;
	EVP_CIPHER_CTX *x;
	int ok, n1 = 0, n2 = 0;

	if (ossl_name(name, sizeof(name), c, (m == XTS ? keylen / 2 : keylen) * 8, mname[m]))
		return -1;
	ci = EVP_CIPHER_fetch(NULL, name, NULL);
	if (!ci)
		return -1;
	x = EVP_CIPHER_CTX_new();
	ok = EVP_CipherInit_ex2(x, ci, key, iv, enc, NULL);
	if (ok && m == CTS) {
		OSSL_PARAM p[] = { OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_CTS_MODE, "CS3", 0),
				   OSSL_PARAM_construct_end() };
		ok = EVP_CIPHER_CTX_set_params(x, p);
	}
	if (ok)
		EVP_CIPHER_CTX_set_padding(x, 0);
	ok = ok && EVP_CipherUpdate(x, out, &n1, in, (int)len) && EVP_CipherFinal_ex(x, out + n1, &n2) &&
	     (size_t)(n1 + n2) == len;
	EVP_CIPHER_CTX_free(x);
	EVP_CIPHER_free(ci);
	return ok ? 0 : -1;
}

/* mode "GCM" (any IV length, 16-byte tags), "Poly1305" (chacha20's: a 12-byte nonce, 16-byte tags) or "CCM"
 * (an ivlen-byte nonce of 7..13, taglen-byte tags: those lengths before the key, and the total text length before
 * the AD). */
static int ossl_aead(const char *c, const char *mode, const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
		     const uint8_t *ad, size_t adlen, const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag,
		     size_t taglen)
{
	char name[32];
	EVP_CIPHER *ci;
	EVP_CIPHER_CTX *x;
	int ok, n = 0, ccm = !strcmp(mode, "CCM");

	if (ossl_name(name, sizeof(name), c, keylen * 8, mode))
		return -1;
	ci = EVP_CIPHER_fetch(NULL, name, NULL);
	if (!ci)
		return -1;
	x = EVP_CIPHER_CTX_new();
	ok = EVP_EncryptInit_ex2(x, ci, NULL, NULL, NULL) &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, (int)ivlen, NULL) &&
	     (!ccm || EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)taglen, NULL)) &&
	     EVP_EncryptInit_ex2(x, NULL, key, iv, NULL) && (!ccm || EVP_EncryptUpdate(x, NULL, &n, NULL, (int)len)) &&
	     (adlen == 0 || EVP_EncryptUpdate(x, NULL, &n, ad, (int)adlen)) &&
	     ((len == 0 && !ccm) || EVP_EncryptUpdate(x, out, &n, in, (int)len)) && EVP_EncryptFinal_ex(x, out + len, &n) &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, (int)taglen, tag);
	EVP_CIPHER_CTX_free(x);
	EVP_CIPHER_free(ci);
	return ok ? 0 : -1;
}

static int ossl_gcm(const char *c, const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
		    const uint8_t *ad, size_t adlen, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16])
{
	return ossl_aead(c, "GCM", key, keylen, iv, ivlen, ad, adlen, in, out, len, tag, 16);
}

static int ossl_poly1305(const char *c, const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
			 const uint8_t *ad, size_t adlen, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16])
{
	return ossl_aead(c, "Poly1305", key, keylen, iv, ivlen, ad, adlen, in, out, len, tag, 16);
}

static int ossl_ccm(const char *c, const uint8_t *key, size_t keylen, const uint8_t *nonce, size_t nlen,
		    const uint8_t *ad, size_t adlen, const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag,
		    size_t taglen)
{
	return ossl_aead(c, "CCM", key, keylen, nonce, nlen, ad, adlen, in, out, len, tag, taglen);
}

static int ossl_cmac(const char *c, const uint8_t *key, size_t keylen, const uint8_t *msg, size_t len,
		     uint8_t mac[16])
{
	char name[32];
	EVP_MAC *m = EVP_MAC_fetch(NULL, "CMAC", NULL);
	EVP_MAC_CTX *x;
	size_t n = 0, bs = block_of(c);
	int ok;

	if (!m)
		return -1;
	if (ossl_name(name, sizeof(name), c, keylen * 8, "CBC")) {
		EVP_MAC_free(m);
		return -1;
	}
	OSSL_PARAM p[] = { OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, name, 0), OSSL_PARAM_construct_end() };
	x = EVP_MAC_CTX_new(m);
	ok = x && EVP_MAC_init(x, key, keylen, p) && EVP_MAC_update(x, msg, len) && EVP_MAC_final(x, mac, &n, 16) &&
	     n == bs;
	EVP_MAC_CTX_free(x);
	EVP_MAC_free(m);
	return ok ? 0 : -1;
}

/* The hashes by name in each peer: OpenSSL's names and libgcrypt's numbers. */
static const struct { const char *name, *ossl; int gcry; } hashes[] = {
	{ "sha256", "SHA256", GCRY_MD_SHA256 }, { "sm3", "SM3", GCRY_MD_SM3 },
	{ "sha1", "SHA1", GCRY_MD_SHA1 }, { "sha224", "SHA224", GCRY_MD_SHA224 }, { "sha384", "SHA384", GCRY_MD_SHA384 },
	{ "sha512", "SHA512", GCRY_MD_SHA512 }, { "md5", "MD5", GCRY_MD_MD5 },
};

static size_t hash_index(const char *h)
{
	size_t i = 0;

	while (i + 1 < sizeof(hashes) / sizeof(hashes[0]) && strcmp(hashes[i].name, h))
		i++;
	if (strcmp(hashes[i].name, h))
		abort();
	return i;
}

static int ossl_hash(const char *h, const uint8_t *msg, size_t len, uint8_t out[64])
{
	EVP_MD *md = EVP_MD_fetch(NULL, hashes[hash_index(h)].ossl, NULL);
	int ok;

	if (!md)
		return -1;
	ok = EVP_Digest(msg, len, out, NULL, md, NULL);
	EVP_MD_free(md);
	return ok ? 0 : -1;
}

/* ---- libgcrypt -------------------------------------------------------------------- */
/* libgcrypt's cipher and CMAC numbers for cipher c with a keylen-byte key; -1 where it has no such key size
 * (its Twofish takes 128- and 256-bit keys only). */
static const struct {
	const char *name;
	int k128, k192, k256, cmac;
} gc_ciphers[] = {
	{ "aes", GCRY_CIPHER_AES128, GCRY_CIPHER_AES192, GCRY_CIPHER_AES256, GCRY_MAC_CMAC_AES },
	{ "sm4", GCRY_CIPHER_SM4, -1, -1, GCRY_MAC_CMAC_SM4 },
	{ "twofish", GCRY_CIPHER_TWOFISH128, -1, GCRY_CIPHER_TWOFISH, GCRY_MAC_CMAC_TWOFISH },
	{ "serpent", GCRY_CIPHER_SERPENT128, GCRY_CIPHER_SERPENT192, GCRY_CIPHER_SERPENT256, GCRY_MAC_CMAC_SERPENT },
	{ "camellia", GCRY_CIPHER_CAMELLIA128, GCRY_CIPHER_CAMELLIA192, GCRY_CIPHER_CAMELLIA256, GCRY_MAC_CMAC_CAMELLIA },
	{ "des", GCRY_CIPHER_DES, -1, -1, -1 },
	{ "des3_ede", -1, GCRY_CIPHER_3DES, -1, GCRY_MAC_CMAC_3DES },
	{ "chacha20", -1, -1, GCRY_CIPHER_CHACHA20, -1 },
};

static int gc_index(const char *c)
{
	for (size_t i = 0; i < sizeof(gc_ciphers) / sizeof(gc_ciphers[0]); i++)
		if (!strcmp(c, gc_ciphers[i].name))
			return (int)i;
	return -1;
}

static int gc_algo(const char *c, size_t keylen)
{
	int i = gc_index(c);

	if (i < 0)
		return -1;
	if (!strcmp(c, "des"))
		return keylen == 8 ? gc_ciphers[i].k128 : -1;
	return keylen == 16 ? gc_ciphers[i].k128 : keylen == 24 ? gc_ciphers[i].k192 : keylen == 32 ? gc_ciphers[i].k256 : -1;
}

static int gc_cipher(const char *c, enum mode m, const uint8_t *key, size_t keylen, const uint8_t *iv,
		     const uint8_t *in, uint8_t *out, size_t len, int enc)
{
	static const int gm[] = { GCRY_CIPHER_MODE_ECB, GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_MODE_CTR,
				  GCRY_CIPHER_MODE_XTS, GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_MODE_STREAM };
	gcry_cipher_hd_t h;
	gcry_error_t e;

	if (gcry_cipher_open(&h, gc_algo(c, m == XTS ? keylen / 2 : keylen), gm[m], m == CTS ? GCRY_CIPHER_CBC_CTS : 0))
		return -1;
	e = gcry_cipher_setkey(h, key, keylen);   /* refuses DES weak keys: then not compared */
	if (!e && m == CTR)
		e = gcry_cipher_setctr(h, iv, block_of(c));
	else if (!e && m != ECB)
		e = gcry_cipher_setiv(h, iv, block_of(c));
	if (!e)
		e = enc ? gcry_cipher_encrypt(h, out, len, in, len) : gcry_cipher_decrypt(h, out, len, in, len);
	gcry_cipher_close(h);
	return e ? -1 : 0;
}

/* gcm, chacha20's poly1305, or ccm with an ivlen-byte nonce, whose lengths come before the AD. */
static int gc_aead(const char *c, int mode, const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
		   const uint8_t *ad, size_t adlen, const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag,
		   size_t taglen)
{
	uint64_t lens[3] = { len, adlen, taglen };
	gcry_cipher_hd_t h;
	gcry_error_t e;
	int ccm = mode == GCRY_CIPHER_MODE_CCM;

	if (gcry_cipher_open(&h, gc_algo(c, keylen), mode, 0))
		return -1;
	e = gcry_cipher_setkey(h, key, keylen);
	if (!e)
		e = gcry_cipher_setiv(h, iv, ivlen);
	if (!e && ccm)
		e = gcry_cipher_ctl(h, GCRYCTL_SET_CCM_LENGTHS, lens, sizeof(lens));
	if (!e)
		e = gcry_cipher_authenticate(h, ad, adlen);
	if (!e && !ccm)
		e = gcry_cipher_final(h);
	if (!e)
		e = gcry_cipher_encrypt(h, out, len, in, len);
	if (!e)
		e = gcry_cipher_gettag(h, tag, taglen);
	gcry_cipher_close(h);
	return e ? -1 : 0;
}

static int gc_gcm(const char *c, const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
		  const uint8_t *ad, size_t adlen, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16])
{
	return gc_aead(c, GCRY_CIPHER_MODE_GCM, key, keylen, iv, ivlen, ad, adlen, in, out, len, tag, 16);
}

static int gc_poly1305(const char *c, const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
		       const uint8_t *ad, size_t adlen, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16])
{
	return gc_aead(c, GCRY_CIPHER_MODE_POLY1305, key, keylen, iv, ivlen, ad, adlen, in, out, len, tag, 16);
}

static int gc_ccm(const char *c, const uint8_t *key, size_t keylen, const uint8_t *nonce, size_t nlen,
		  const uint8_t *ad, size_t adlen, const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag,
		  size_t taglen)
{
	return gc_aead(c, GCRY_CIPHER_MODE_CCM, key, keylen, nonce, nlen, ad, adlen, in, out, len, tag, taglen);
}

static int gc_cmac(const char *c, const uint8_t *key, size_t keylen, const uint8_t *msg, size_t len,
		   uint8_t mac[16])
{
	gcry_mac_hd_t h;
	size_t n = block_of(c);
	gcry_error_t e;

	int i = gc_index(c);

	if (i < 0 || gc_ciphers[i].cmac < 0 || gcry_mac_open(&h, gc_ciphers[i].cmac, 0, NULL))
		return -1;
	e = gcry_mac_setkey(h, key, keylen);
	if (!e)
		e = gcry_mac_write(h, msg, len);
	if (!e)
		e = gcry_mac_read(h, mac, &n);
	gcry_mac_close(h);
	return e || n != block_of(c) ? -1 : 0;
}

static int gc_hash(const char *hname, const uint8_t *msg, size_t len, uint8_t out[64])
{
	gcry_md_hash_buffer(hashes[hash_index(hname)].gcry, out, msg, len);
	return 0;
}

/* ---- the same operations, one table per peer ---------------------------------------- */
struct peer {
	const char *name;
	int (*cipher)(const char *c, enum mode m, const uint8_t *key, size_t keylen, const uint8_t *iv,
		      const uint8_t *in, uint8_t *out, size_t len, int enc);
	int (*gcm)(const char *c, const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
		   const uint8_t *ad, size_t adlen, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16]);
	int (*cmac)(const char *c, const uint8_t *key, size_t keylen, const uint8_t *msg, size_t len, uint8_t mac[16]);
	int (*hash)(const char *h, const uint8_t *msg, size_t len, uint8_t out[64]);
	int (*ccm)(const char *c, const uint8_t *key, size_t keylen, const uint8_t *nonce, size_t nlen,
		   const uint8_t *ad, size_t adlen, const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag,
		   size_t taglen);
	/* chacha20 with poly1305, the gcm call's form */
	int (*poly1305)(const char *c, const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
			const uint8_t *ad, size_t adlen, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16]);
};
static const struct peer peers[] = {
	{ "openssl", ossl_cipher, ossl_gcm, ossl_cmac, ossl_hash, ossl_ccm, ossl_poly1305 },
	{ "libgcrypt", gc_cipher, gc_gcm, gc_cmac, gc_hash, gc_ccm, gc_poly1305 },
};

/* essiv (Linux crypto/essiv.c): cbc whose IV is the sector IV encrypted under the hashed key
 * (SHA-256 -> AES-256; SM3 cut to SM4's 16 bytes), built from the peer's hash, ecb and cbc. */
static int peer_essiv(const struct peer *p, const char *c, const uint8_t *key, size_t keylen, const uint8_t *iv,
		      const uint8_t *in, uint8_t *out, size_t len)
{
	uint8_t salt[64], civ[16];
	int sm4 = !strcmp(c, "sm4");

	return p->hash(sm4 ? "sm3" : "sha256", key, keylen, salt) || p->cipher(c, ECB, salt, sm4 ? 16 : 32, NULL, iv, civ, 16, 1) ||
	       p->cipher(c, CBC, key, keylen, civ, in, out, len, 1) ? -1 : 0;
}

/* cbcmac as the kernel's (crypto/ccm.c): zero-padded CBC-MAC, all zeros for no data. */
static int peer_cbcmac(const struct peer *p, const char *c, const uint8_t *key, size_t keylen, const uint8_t *msg,
		       size_t len, uint8_t mac[16])
{
	size_t padded = (len + 15) / 16 * 16;
	uint8_t *buf = calloc(1, padded + 16), zero[16] = { 0 };
	int r = 0;

	memcpy(buf, msg, len);
	memset(mac, 0, 16);
	if (len) {
		r = p->cipher(c, CBC, key, keylen, zero, buf, buf, padded, 1);
		memcpy(mac, buf + padded - 16, 16);
	}
	free(buf);
	return r;
}

/* xcbc (RFC 3566, any key length as the kernel takes): K1, K2, K3 from ECB, then CBC-MAC under K1 with the last
 * block XORed with K2 (whole) or, 10*-padded, with K3. */
static int peer_xcbc(const struct peer *p, const char *c, const uint8_t *key, size_t keylen, const uint8_t *msg,
		     size_t len, uint8_t mac[16])
{
	uint8_t consts[48], k[48], zero[16] = { 0 }, *buf;
	size_t padded = len && len % 16 == 0 ? len : (len / 16 + 1) * 16;
	int r;

	for (int i = 0; i < 3; i++)
		memset(consts + 16 * i, i + 1, 16);
	if (p->cipher(c, ECB, key, keylen, NULL, consts, k, 48, 1))
		return -1;
	buf = calloc(1, padded);
	memcpy(buf, msg, len);
	if (len != padded)
		buf[len] = 0x80;
	for (int i = 0; i < 16; i++)
		buf[padded - 16 + i] ^= k[(len == padded ? 16 : 32) + i];
	r = p->cipher(c, CBC, k, 16, zero, buf, buf, padded, 1);
	memcpy(mac, buf + padded - 16, 16);
	free(buf);
	return r;
}

/* hmac (RFC 2104) from the peer's one-shot hash: H(K ^ opad || H(K ^ ipad || m)), a key longer than
 * the block hashed first. */
static int peer_hmac(const struct peer *p, const char *alg, const uint8_t *key, size_t keylen, const uint8_t *msg,
		     size_t len, uint8_t mac[64])
{
	char h[16];
	size_t bs, dl;
	uint8_t k[128] = { 0 }, inner[64], *buf;
	int r;

	snprintf(h, sizeof(h), "%.*s", (int)strlen(alg) - 6, alg + 5);
	bs = !strcmp(h, "sha384") || !strcmp(h, "sha512") ? 128 : 64;
	dl = !strcmp(h, "sha1") ? 20 : !strcmp(h, "sha512") ? 64 : 32;
	if (keylen > bs) {
		if (p->hash(h, key, keylen, k))
			return -1;
	} else {
		memcpy(k, key, keylen);
	}
	buf = malloc(bs + (len > dl ? len : dl));
	for (size_t i = 0; i < bs; i++)
		buf[i] = k[i] ^ 0x36;
	memcpy(buf + bs, msg, len);
	r = p->hash(h, buf, bs + len, inner);
	for (size_t i = 0; i < bs; i++)
		buf[i] = k[i] ^ 0x5c;
	memcpy(buf + bs, inner, dl);
	r |= p->hash(h, buf, bs + dl, mac);
	free(buf);
	return r;
}

static void compare(const char *what, const struct peer *p, const char *alg, const char *drv, const uint8_t *ours,
		    const uint8_t *theirs, size_t n, size_t len)
{
	if (memcmp(ours, theirs, n)) {
		char msg[128];

		snprintf(msg, sizeof(msg), "%s differs from %s", what, p->name);
		fz_fail(msg, alg, drv, len);
	}
}

static void peer_skcipher(struct fz *f, const struct fz_alg *a, const char *drv, const char *c, const uint8_t *key,
			  size_t keylen)
{
	size_t len = fz_u16(f) % (MAX_LEN + 1);
	enum mode m = !strncmp(a->name, "ecb(", 4) ? ECB : !strncmp(a->name, "ctr(", 4) ? CTR
		      : !strncmp(a->name, "xts(", 4) ? XTS : !strncmp(a->name, "cts(", 4) ? CTS
		      : !strcmp(a->name, "chacha20") ? STREAM : CBC;
	int essiv = !strncmp(a->name, "essiv(", 6);
	uint8_t iv[16], tiv[16], *msg, *ours, *theirs;
	bc_skcipher *t;

	if (m == ECB || m == CBC)
		len &= ~(block_of(c) - 1);
	else if ((m == XTS || m == CTS) && len < 16)
		len += 16;
	fz_bytes(f, iv, 16);
	if (m == STREAM)
		iv[3] = 0;   /* the kernel's 32-bit counter wraps alone, the peers carry into the nonce: kept off the wrap */
	msg = malloc(len + 1);
	ours = malloc(len + 1);
	theirs = malloc(len + 1);
	fz_bytes(f, msg, len);
	if (bc_skcipher_alloc(&t, drv))
		fz_fail("alloc", a->name, drv, len);
	bc_skcipher_set_flags(t, BC_ALLOW_WEAK_KEYS);
	memcpy(tiv, iv, 16);
	if (bc_skcipher_setkey(t, key, keylen) || bc_skcipher_encrypt(t, tiv, msg, ours, len))
		fz_fail("refused a key or length the mode takes", a->name, drv, len);
	for (size_t i = 0; i < sizeof(peers) / sizeof(peers[0]); i++) {
		const struct peer *p = &peers[i];

		if (essiv ? peer_essiv(p, c, key, keylen, iv, msg, theirs, len)
			  : p->cipher(c, m, key, keylen, iv, msg, theirs, len, 1))
			continue;   /* the peer lacks this mode, key size or key (equal xts halves) */
		compare("encryption", p, a->name, drv, ours, theirs, len, len);
		if (!essiv && !p->cipher(c, m, key, keylen, iv, ours, theirs, len, 0))
			compare("decryption", p, a->name, drv, msg, theirs, len, len);
	}
	bc_skcipher_free(t);
	free(msg);
	free(ours);
	free(theirs);
}

static void peer_aead(struct fz *f, const struct fz_alg *a, const char *drv, const char *c, const uint8_t *key,
		      size_t keylen)
{
	static const size_t tags[] = { 4, 8, 12, 13, 14, 15, 16 };
	size_t taglen = tags[fz_u8(f) % 7], ivlen = fz_u8(f) % 64 + 1, adlen = fz_u16(f) % 512;
	size_t len = fz_u16(f) % (MAX_LEN + 1);
	uint8_t iv[64], tag[16], ptag[16], *ad = malloc(adlen + 1), *msg = malloc(len + 1), *ours = malloc(len + 1),
						       *theirs = malloc(len + 16);
	bc_aead *t;

	if (fz_u8(f) & 1)
		ivlen = 12;
	fz_bytes(f, iv, ivlen);
	fz_bytes(f, ad, adlen);
	fz_bytes(f, msg, len);
	if (bc_aead_alloc(&t, drv) || bc_aead_setauthsize(t, taglen) || bc_aead_setkey(t, key, keylen) ||
	    bc_aead_encrypt(t, iv, ivlen, ad, adlen, msg, ours, len, tag))
		fz_fail("refused a valid gcm operation", a->name, drv, len);
	for (size_t i = 0; i < sizeof(peers) / sizeof(peers[0]); i++) {
		if (peers[i].gcm(c, key, keylen, iv, ivlen, ad, adlen, msg, theirs, len, ptag))
			continue;
		compare("ciphertext", &peers[i], a->name, drv, ours, theirs, len, len);
		compare("tag", &peers[i], a->name, drv, tag, ptag, taglen, len);
	}
	bc_aead_free(t);
	free(ad);
	free(msg);
	free(ours);
	free(theirs);
}

/* rfc7539: RFC 8439's 12-byte nonce and 16-byte tag; the ESP form (RFC 7634): the key's last 4 bytes a salt
 * before the 8-byte IV in the nonce, and the AD's last 8 bytes (the IV's copy) not authenticated. */
static void peer_chachapoly(struct fz *f, const struct fz_alg *a, const char *drv, const char *c, const uint8_t *key,
			    size_t keylen)
{
	int esp = !strncmp(a->name, "rfc7539esp(", 11);
	size_t ivlen = esp ? 8 : 12, adlen = fz_u16(f) % 512 + (esp ? 8 : 0), len = fz_u16(f) % (MAX_LEN + 1);
	uint8_t nonce[12], tag[16], ptag[16], *iv = nonce + (esp ? 4 : 0), *ad = malloc(adlen + 1), *msg = malloc(len + 1),
					     *ours = malloc(len + 1), *theirs = malloc(len + 16);
	bc_aead *t;

	if (esp)
		memcpy(nonce, key + 32, 4);
	fz_bytes(f, iv, ivlen);
	fz_bytes(f, ad, adlen);
	fz_bytes(f, msg, len);
	if (bc_aead_alloc(&t, drv) || bc_aead_setkey(t, key, keylen) ||
	    bc_aead_encrypt(t, iv, ivlen, ad, adlen, msg, ours, len, tag))
		fz_fail("refused a valid rfc7539 operation", a->name, drv, len);
	for (size_t i = 0; i < sizeof(peers) / sizeof(peers[0]); i++) {
		if (peers[i].poly1305(c, key, 32, nonce, 12, ad, adlen - (esp ? 8 : 0), msg, theirs, len, ptag))
			continue;
		compare("ciphertext", &peers[i], a->name, drv, ours, theirs, len, len);
		compare("tag", &peers[i], a->name, drv, tag, ptag, 16, len);
	}
	bc_aead_free(t);
	free(ad);
	free(msg);
	free(ours);
	free(theirs);
}

/* ccm: a nonce of 7..13 bytes in the kernel's counter block (iv[0] = L - 1 = 14 - nlen), every tag length,
 * AD of 0..499 bytes or, now and then, across the 0xff00 boundary where its length takes 6 bytes. */
static void peer_ccm(struct fz *f, const struct fz_alg *a, const char *drv, const char *c, const uint8_t *key,
		     size_t keylen)
{
	static const size_t tags[] = { 4, 6, 8, 10, 12, 14, 16 };
	size_t taglen = tags[fz_u8(f) % 7], nlen = 7 + fz_u8(f) % 7, adlen = fz_u16(f) % 512;
	size_t len = fz_u16(f) % (MAX_LEN + 1);
	uint8_t iv[16] = { 0 }, tag[16], ptag[16], *ad, *msg = malloc(len + 1), *ours = malloc(len + 1),
					       *theirs = malloc(len + 16);
	bc_aead *t;

	if (adlen >= 500)
		adlen = 0xfef0 + adlen % 32;
	ad = malloc(adlen + 1);
	iv[0] = (uint8_t)(14 - nlen);
	fz_bytes(f, iv + 1, nlen);
	fz_bytes(f, ad, adlen);
	fz_bytes(f, msg, len);
	if (bc_aead_alloc(&t, drv) || bc_aead_setauthsize(t, taglen) || bc_aead_setkey(t, key, keylen) ||
	    bc_aead_encrypt(t, iv, 16, ad, adlen, msg, ours, len, tag))
		fz_fail("refused a valid ccm operation", a->name, drv, len);
	for (size_t i = 0; i < sizeof(peers) / sizeof(peers[0]); i++) {
		if (peers[i].ccm(c, key, keylen, iv + 1, nlen, ad, adlen, msg, theirs, len, ptag, taglen))
			continue;
		compare("ciphertext", &peers[i], a->name, drv, ours, theirs, len, len);
		compare("tag", &peers[i], a->name, drv, tag, ptag, taglen, len);
	}
	bc_aead_free(t);
	free(ad);
	free(msg);
	free(ours);
	free(theirs);
}

static void peer_shash(struct fz *f, const struct fz_alg *a, const char *drv, const char *c, const uint8_t *key,
		       size_t keylen)
{
	size_t len = fz_u16(f) % (MAX_LEN + 1);
	uint8_t *msg = malloc(len + 1), ours[64], theirs[64];
	size_t ds;
	bc_shash *t;

	fz_bytes(f, msg, len);
	if (bc_shash_alloc(&t, drv) || (a->keysizes[0] && bc_shash_setkey(t, key, keylen)) ||
	    bc_shash_digest(t, msg, len, ours))
		fz_fail("refused a valid digest", a->name, drv, len);
	ds = bc_shash_digestsize(t);
	for (size_t i = 0; i < sizeof(peers) / sizeof(peers[0]); i++) {
		const struct peer *p = &peers[i];
		int r = !strncmp(a->name, "cmac(", 5)     ? p->cmac(c, key, keylen, msg, len, theirs)
			: !strncmp(a->name, "xcbc(", 5)   ? peer_xcbc(p, c, key, keylen, msg, len, theirs)
			: !strncmp(a->name, "cbcmac(", 7) ? peer_cbcmac(p, c, key, keylen, msg, len, theirs)
			: !strncmp(a->name, "hmac(", 5)   ? peer_hmac(p, a->name, key, keylen, msg, len, theirs)
							  : p->hash(a->name, msg, len, theirs);

		if (!r)
			compare("digest", p, a->name, drv, ours, theirs, ds, len);
	}
	bc_shash_free(t);
	free(msg);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The providers loaded here are unloaded at exit, so that LeakSanitizer sees no OpenSSL state left. */
static OSSL_PROVIDER *legacy, *deflt;

static void unload_providers(void)
{
	if (legacy)
		OSSL_PROVIDER_unload(legacy);
	if (deflt)
		OSSL_PROVIDER_unload(deflt);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	gcry_check_version(NULL);
	gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	/* OpenSSL 3 keeps single DES in the legacy provider; without it DES is simply not compared there */
	legacy = OSSL_PROVIDER_load(NULL, "legacy");
	deflt = OSSL_PROVIDER_load(NULL, "default");
	atexit(unload_providers);
	fz_setup();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;
	const struct fz_alg *a;
	const char *drv, *c;
	uint8_t key[64];
	size_t nks = 0, keylen;

	fz_init(&f, data, size);
	a = &fz_algs[fz_u8(&f) % fz_nalgs];
	if (!strcmp(a->name, "ghash") || !strcmp(a->name, "polyval") || !strncmp(a->name, "lrw(", 4) ||
	    !strncmp(a->name, "xctr(", 5) || !strncmp(a->name, "hctr2(", 6) || !strncmp(a->name, "xchacha", 7))
		return 0;   /* no peer has GHASH alone (gcm covers it), POLYVAL, LRW, XCTR, HCTR2 or XChaCha */
	drv = a->cand[fz_u8(&f) % a->ncand];
	c = !strcmp(a->name, "sm3")			? "sm4"
	    : strstr(a->name, "chacha20") != NULL ? "chacha20"
						  : alg_cipher(a->name);
	while (nks < 4 && a->keysizes[nks])
		nks++;
	keylen = nks ? a->keysizes[fz_u8(&f) % nks] : 0;
	fz_bytes(&f, key, keylen);
	if (a->type == BC_TYPE_SKCIPHER)
		peer_skcipher(&f, a, drv, c, key, keylen);
	else if (a->type == BC_TYPE_AEAD && !strncmp(a->name, "ccm(", 4))
		peer_ccm(&f, a, drv, c, key, keylen);
	else if (a->type == BC_TYPE_AEAD && !strncmp(a->name, "rfc7539", 7))
		peer_chachapoly(&f, a, drv, c, key, keylen);
	else if (a->type == BC_TYPE_AEAD)
		peer_aead(&f, a, drv, c, key, keylen);
	else
		peer_shash(&f, a, drv, c, key, keylen);
	return 0;
}
