/* bench/peers.c: blockcrypt side by side with OpenSSL 3 (EVP), libgcrypt and nettle, same workloads, one process.
 * Algorithms per FIPS-197, SP 800-38A/B/D/E, GB/T 32907, FIPS 180-4, GB/T 32905, RFC 8439; outputs are cross-checked
 * before timing. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gcrypt.h>
#include <nettle/aes.h>
#include <nettle/cbc.h>
#include <nettle/ccm.h>
#include <nettle/chacha-poly1305.h>
#include <nettle/chacha.h>
#include <nettle/cmac.h>
#include <nettle/ctr.h>
#include <nettle/gcm.h>
#include <nettle/hmac.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <nettle/sm3.h>
#include <nettle/xts.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "blockcrypt.h"
#include "bench_iv.h"

enum lib { L_BC, L_OSSL, L_GCRY, L_NETTLE, NLIBS };
static const char *const lib_name[NLIBS] = { "blockcrypt", "openssl", "libgcrypt", "nettle" };
static const char *const lib_colour[NLIBS] = { "#d62728", "#1f77b4", "#2ca02c", "#9467bd" };

enum kind { ECB, CBC, CTR, XTS, GCM, CMAC, HASH, HMAC, ESP, CCM, STREAM, CHACHAPOLY };
/* The hashes, and their names and digest lengths in the peers. */
enum hash { H_SHA256, H_SM3, H_SHA1, H_SHA512 };
enum cipher { C_AES, C_SM4, C_TDES, C_TWOFISH, C_SERPENT, C_CAMELLIA, C_CHACHA20 };
static const char *const ossl_md[] = { "SHA256", "SM3", "SHA1", "SHA512" };
static const int gcry_md[] = { GCRY_MD_SHA256, GCRY_MD_SM3, GCRY_MD_SHA1, GCRY_MD_SHA512 };
static const size_t md_len[] = { 32, 32, 20, 64 };

struct alg {
	const char *label;     /* OpenSSL-style name, also the chart's panel title */
	const char *bc;        /* blockcrypt's (the kernel's) name */
	enum kind kind;
	int sm;                /* the cipher (enum cipher), or for a hash which one (enum hash) */
	size_t keylen;         /* the whole key, 0 for a hash */
};

static const struct alg algs[] = {
	{ "aes-128-ecb", "ecb(aes)", ECB, C_AES, 16 },   { "aes-256-ecb", "ecb(aes)", ECB, C_AES, 32 },
	{ "aes-128-cbc", "cbc(aes)", CBC, C_AES, 16 },   { "aes-256-cbc", "cbc(aes)", CBC, C_AES, 32 },
	{ "aes-128-ctr", "ctr(aes)", CTR, C_AES, 16 },   { "aes-256-ctr", "ctr(aes)", CTR, C_AES, 32 },
	{ "aes-128-xts", "xts(aes)", XTS, C_AES, 32 },   { "aes-256-xts", "xts(aes)", XTS, C_AES, 64 },
	{ "aes-128-gcm", "gcm(aes)", GCM, C_AES, 16 },   { "aes-256-gcm", "gcm(aes)", GCM, C_AES, 32 },
	{ "aes-128-cmac", "cmac(aes)", CMAC, C_AES, 16 }, { "aes-256-cmac", "cmac(aes)", CMAC, C_AES, 32 },
	{ "aes-128-ccm", "ccm(aes)", CCM, C_AES, 16 },   { "aes-256-ccm", "ccm(aes)", CCM, C_AES, 32 },
	{ "sm4-ecb", "ecb(sm4)", ECB, C_SM4, 16 },       { "sm4-cbc", "cbc(sm4)", CBC, C_SM4, 16 },
	{ "sm4-ctr", "ctr(sm4)", CTR, C_SM4, 16 },       { "sm4-xts", "xts(sm4)", XTS, C_SM4, 32 },
	{ "sm4-gcm", "gcm(sm4)", GCM, C_SM4, 16 },       { "sm4-cmac", "cmac(sm4)", CMAC, C_SM4, 16 },
	{ "sha256", "sha256", HASH, H_SHA256, 0 },   { "sm3", "sm3", HASH, H_SM3, 0 },
	{ "sha1", "sha1", HASH, H_SHA1, 0 },         { "sha512", "sha512", HASH, H_SHA512, 0 },
	{ "des-ede3-ecb", "ecb(des3_ede)", ECB, C_TDES, 24 }, { "des-ede3-cbc", "cbc(des3_ede)", CBC, C_TDES, 24 },
	{ "twofish-128-ecb", "ecb(twofish)", ECB, C_TWOFISH, 16 }, { "twofish-128-cbc", "cbc(twofish)", CBC, C_TWOFISH, 16 },
	{ "twofish-128-ctr", "ctr(twofish)", CTR, C_TWOFISH, 16 }, { "twofish-128-xts", "xts(twofish)", XTS, C_TWOFISH, 32 },
	{ "twofish-256-cbc", "cbc(twofish)", CBC, C_TWOFISH, 32 }, { "twofish-256-xts", "xts(twofish)", XTS, C_TWOFISH, 64 },
	{ "serpent-128-xts", "xts(serpent)", XTS, C_SERPENT, 32 }, { "serpent-256-xts", "xts(serpent)", XTS, C_SERPENT, 64 },
	{ "serpent-256-cbc", "cbc(serpent)", CBC, C_SERPENT, 32 }, { "serpent-256-ctr", "ctr(serpent)", CTR, C_SERPENT, 32 },
	{ "camellia-128-ecb", "ecb(camellia)", ECB, C_CAMELLIA, 16 }, { "camellia-256-ecb", "ecb(camellia)", ECB, C_CAMELLIA, 32 },
	{ "camellia-128-cbc", "cbc(camellia)", CBC, C_CAMELLIA, 16 }, { "camellia-256-cbc", "cbc(camellia)", CBC, C_CAMELLIA, 32 },
	{ "camellia-128-ctr", "ctr(camellia)", CTR, C_CAMELLIA, 16 }, { "camellia-256-ctr", "ctr(camellia)", CTR, C_CAMELLIA, 32 },
	{ "camellia-128-xts", "xts(camellia)", XTS, C_CAMELLIA, 32 }, { "camellia-256-xts", "xts(camellia)", XTS, C_CAMELLIA, 64 },
	/* rfc4106 (ESP): the key with its 4-byte salt, an 8-byte IV, 16 bytes of associated data
	 * (SPI, sequence number, IV); the peers run the GCM it stands for, nonce salt || IV, AAD
	 * the 8-byte header. */
	{ "aes-128-gcm-esp", "rfc4106(gcm(aes))", ESP, C_AES, 20 },
	{ "hmac-sha256", "hmac(sha256)", HMAC, H_SHA256, 32 }, { "hmac-sha1", "hmac(sha1)", HMAC, H_SHA1, 20 },
	/* chacha20: the 16-byte IV is the kernel's and OpenSSL's layout (32-bit LE block counter, then the
	 * 96-bit nonce); chacha20-poly1305: a 12-byte nonce, no AD, as gcm here */
	{ "chacha20", "chacha20", STREAM, C_CHACHA20, 32 },
	{ "chacha20-poly1305", "rfc7539(chacha20,poly1305)", CHACHAPOLY, C_CHACHA20, 32 },
};
#define NALGS (sizeof(algs) / sizeof(algs[0]))

/* --decrypt: the skciphers (ecb, cbc, ctr, xts) decrypt instead; the other kinds are left out. */
static int decrypt;

static const size_t default_sizes[] = { 16, 64, 256, 1024, 1420, 4096, 8192 };
#define MAX_SIZES 16
#define MAX_LEN 16384        /* longest --sizes entry */
#define MIN_ROUNDS 5
#define ROUND_S 0.002        /* longest batch: short, so that many run between a busy machine's interruptions */
#define MIN_CPU_SHARE 0.95

/* One library's keyed state for one algorithm. */
struct impl {
	const struct alg *a;
	uint8_t key[64];
	bc_skcipher *sk;
	bc_aead *ae;
	bc_shash *sh;
	EVP_CIPHER *ocipher;
	EVP_CIPHER_CTX *octx;
	OSSL_PARAM oparams[2];   /* every (re)initialisation's: SM4-XTS's standard, where settable */
	EVP_MAC *omac;
	EVP_MAC_CTX *omctx;
	EVP_MD *omd;
	EVP_MD_CTX *omdctx;
	gcry_cipher_hd_t gc;
	gcry_mac_hd_t gm;
	union {
		struct aes128_ctx a128;
		struct aes256_ctx a256;
		struct xts_aes128_key x128;
		struct xts_aes256_key x256;
		struct gcm_aes128_ctx g128;
		struct gcm_aes256_ctx g256;
		struct ccm_aes128_ctx m128;
		struct ccm_aes256_ctx m256;
		struct cmac_aes128_ctx c128;
		struct cmac_aes256_ctx c256;
		struct sha256_ctx sha;
		struct sm3_ctx sm3;
		struct sha1_ctx sha1;
		struct sha512_ctx sha512;
		struct hmac_sha256_ctx hs256;
		struct hmac_sha1_ctx hs1;
		struct chacha_ctx cc;
		struct chacha_poly1305_ctx cp;
	} nt;
};

/* One operation: src to dst (may be equal) under the 16-byte iv (gcm, ccm and chacha20-poly1305: its first
 * 12 bytes are the nonce; ccm: 16-byte tags, no AD, so L = 3),
 * which cbc and ctr may advance in place, as each library's API does; tag receives the GCM
 * tag, MAC or digest. 0 or -1. */
struct lib_ops {
	int (*open)(struct impl *im);        /* 0, 1 when the library lacks the algorithm, -1 on error */
	int (*op)(struct impl *im, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag);
	void (*close)(struct impl *im);
};

/* ESP's SPI and sequence number, the AAD of every rfc4106 packet here. */
static const uint8_t esp_header[8] = { 0x00, 0x00, 0x43, 0x21, 0x00, 0x00, 0x00, 0x07 };

/* The GCM nonce an rfc4106 packet stands for: the key's salt, then the packet's IV. */
static void esp_nonce(const struct impl *im, const uint8_t *iv, uint8_t nonce[12])
{
	memcpy(nonce, im->key + 16, 4);
	memcpy(nonce + 4, iv, 8);
}

/* ---- blockcrypt ------------------------------------------------------------------------ */
static int bc_open(struct impl *im)
{
	switch (im->a->kind) {
	case GCM:
	case ESP:
	case CCM:
	case CHACHAPOLY:
		return bc_aead_alloc(&im->ae, im->a->bc) || bc_aead_setkey(im->ae, im->key, im->a->keylen) ? -1 : 0;
	case HMAC:
	case CMAC: {
		int r = bc_shash_alloc(&im->sh, im->a->bc);

		if (r == -ENOENT && im->a->kind == HMAC)
			return 1;                        /* a hash this build lacks */
		return r || bc_shash_setkey(im->sh, im->key, im->a->keylen) ? -1 : 0;
	}
	case HASH:
		return bc_shash_alloc(&im->sh, im->a->bc) ? -1 : 0;
	default:
		return bc_skcipher_alloc(&im->sk, im->a->bc) || bc_skcipher_setkey(im->sk, im->key, im->a->keylen) ? -1 : 0;
	}
}

static int bc_op(struct impl *im, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag)
{
	switch (im->a->kind) {
	case GCM:
	case CHACHAPOLY:
		return bc_aead_encrypt(im->ae, iv, 12, src, 0, src, dst, len, tag) ? -1 : 0;
	case ESP: {
		uint8_t ad[16];

		memcpy(ad, esp_header, 8);
		memcpy(ad + 8, iv, 8);
		return bc_aead_encrypt(im->ae, iv, 8, ad, sizeof(ad), src, dst, len, tag) ? -1 : 0;
	}
	case CCM: {
		/* The caller builds the kernel's counter block from the nonce: iv[0] = L - 1 = 2,
		 * the 12 bytes, a zero counter; as two 8-byte words, which the driver's two
		 * 8-byte loads take straight from the store buffer. */
		uint64_t n0, n1 = 0, w[2];
		uint8_t kiv[16];

		memcpy(&n0, iv, 8);
		memcpy(&n1, iv + 8, 4);
		w[0] = 2 | n0 << 8;
		w[1] = n0 >> 56 | n1 << 8;
		memcpy(kiv, w, 16);
		return bc_aead_encrypt(im->ae, kiv, 16, src, 0, src, dst, len, tag) ? -1 : 0;
	}
	case CMAC:
	case HASH:
	case HMAC:
		return bc_shash_digest(im->sh, src, len, tag) ? -1 : 0;
	default:
		if (decrypt)
			return bc_skcipher_decrypt(im->sk, iv, src, dst, len) ? -1 : 0;
		return bc_skcipher_encrypt(im->sk, iv, src, dst, len) ? -1 : 0;
	}
}

static void bc_close(struct impl *im)
{
	if (im->sk)
		bc_skcipher_free(im->sk);
	if (im->ae)
		bc_aead_free(im->ae);
	if (im->sh)
		bc_shash_free(im->sh);
}

/* ---- OpenSSL 3 EVP --------------------------------------------------------------------- */
static int ossl_open(struct impl *im)
{
	const struct alg *a = im->a;
	char name[32];

	if (a->kind == HASH) {
		im->omd = EVP_MD_fetch(NULL, ossl_md[a->sm], NULL);
		im->omdctx = EVP_MD_CTX_new();
		return im->omd && im->omdctx ? 0 : 1;
	}
	if (a->kind == HMAC) {
		OSSL_PARAM p[2];

		p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)ossl_md[a->sm], 0);
		p[1] = OSSL_PARAM_construct_end();
		im->omac = EVP_MAC_fetch(NULL, "HMAC", NULL);
		if (!im->omac || !(im->omctx = EVP_MAC_CTX_new(im->omac)))
			return 1;
		return EVP_MAC_init(im->omctx, im->key, a->keylen, p) ? 0 : 1;
	}
	if (a->kind == CMAC) {
		OSSL_PARAM p[2];

		snprintf(name, sizeof(name), "%s-CBC", a->sm == C_SM4 ? "SM4" : a->keylen == 16 ? "AES-128" : "AES-256");
		p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, name, 0);
		p[1] = OSSL_PARAM_construct_end();
		im->omac = EVP_MAC_fetch(NULL, "CMAC", NULL);
		if (!im->omac || !(im->omctx = EVP_MAC_CTX_new(im->omac)))
			return 1;
		return EVP_MAC_init(im->omctx, im->key, a->keylen, p) ? 0 : 1;
	}
	/* The EVP name of the mode: AES-128-XTS takes the 32-byte double key. */
	snprintf(name, sizeof(name), "%s", a->kind == ESP ? "aes-128-gcm" : a->label);
	im->ocipher = EVP_CIPHER_fetch(NULL, name, NULL);
	if (!im->ocipher)
		return 1;
	im->octx = EVP_CIPHER_CTX_new();
	if (!im->octx)
		return -1;
	/* OpenSSL 3.2 and later default SM4-XTS to GB/T 17964 and take IEEE 1619 (ours) through this
	 * parameter; 3.0 has no parameter and only IEEE 1619. */
	im->oparams[0] = im->oparams[1] = OSSL_PARAM_construct_end();
	if (a->kind == XTS && OSSL_PARAM_locate_const(EVP_CIPHER_settable_ctx_params(im->ocipher), "xts_standard"))
		im->oparams[0] = OSSL_PARAM_construct_utf8_string("xts_standard", (char *)"IEEE", 0);
	if (a->kind == CCM) {
		/* the nonce and tag lengths come before the key */
		if (!EVP_CipherInit_ex2(im->octx, im->ocipher, NULL, NULL, 1, NULL) ||
		    !EVP_CIPHER_CTX_ctrl(im->octx, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) ||
		    !EVP_CIPHER_CTX_ctrl(im->octx, EVP_CTRL_AEAD_SET_TAG, 16, NULL))
			return -1;
	}
	if (!EVP_CipherInit_ex2(im->octx, a->kind == CCM ? NULL : im->ocipher, im->key, NULL, !decrypt, im->oparams))
		return -1;
	EVP_CIPHER_CTX_set_padding(im->octx, 0);
	return 0;
}

static int ossl_op(struct impl *im, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag)
{
	int n, m;
	size_t tl = 16;
	uint8_t nonce[12];

	switch (im->a->kind) {
	case HMAC:
		tl = md_len[im->a->sm];
		return EVP_MAC_init(im->omctx, NULL, 0, NULL) && EVP_MAC_update(im->omctx, src, len) &&
		       EVP_MAC_final(im->omctx, tag, &tl, tl) ? 0 : -1;
	case ESP:
		esp_nonce(im, iv, nonce);
		return EVP_EncryptInit_ex2(im->octx, NULL, NULL, nonce, NULL) &&
		       EVP_EncryptUpdate(im->octx, NULL, &n, esp_header, 8) &&
		       EVP_EncryptUpdate(im->octx, dst, &n, src, (int)len) && EVP_EncryptFinal_ex(im->octx, dst + n, &m) &&
		       EVP_CIPHER_CTX_ctrl(im->octx, EVP_CTRL_AEAD_GET_TAG, 16, tag) ? 0 : -1;
	case HASH:
		return EVP_DigestInit_ex2(im->omdctx, im->omd, NULL) && EVP_DigestUpdate(im->omdctx, src, len) &&
		       EVP_DigestFinal_ex(im->omdctx, tag, NULL) ? 0 : -1;
	case CMAC:
		return EVP_MAC_init(im->omctx, NULL, 0, NULL) && EVP_MAC_update(im->omctx, src, len) &&
		       EVP_MAC_final(im->omctx, tag, &tl, 16) ? 0 : -1;
	case GCM:
	case CHACHAPOLY:
		return EVP_EncryptInit_ex2(im->octx, NULL, NULL, iv, NULL) &&
		       EVP_EncryptUpdate(im->octx, dst, &n, src, (int)len) && EVP_EncryptFinal_ex(im->octx, dst + n, &m) &&
		       EVP_CIPHER_CTX_ctrl(im->octx, EVP_CTRL_AEAD_GET_TAG, 16, tag) ? 0 : -1;
	case CCM:
		return EVP_EncryptInit_ex2(im->octx, NULL, NULL, iv, NULL) &&
		       EVP_EncryptUpdate(im->octx, dst, &n, src, (int)len) && EVP_EncryptFinal_ex(im->octx, dst + n, &m) &&
		       EVP_CIPHER_CTX_ctrl(im->octx, EVP_CTRL_AEAD_GET_TAG, 16, tag) ? 0 : -1;
	case ECB:
		return EVP_CipherUpdate(im->octx, dst, &n, src, (int)len) ? 0 : -1;
	default:
		return EVP_CipherInit_ex2(im->octx, NULL, NULL, iv, -1, im->oparams) &&
		       EVP_CipherUpdate(im->octx, dst, &n, src, (int)len) ? 0 : -1;
	}
}

static void ossl_close(struct impl *im)
{
	EVP_CIPHER_CTX_free(im->octx);
	EVP_CIPHER_free(im->ocipher);
	EVP_MAC_CTX_free(im->omctx);
	EVP_MAC_free(im->omac);
	EVP_MD_CTX_free(im->omdctx);
	EVP_MD_free(im->omd);
}

/* ---- libgcrypt ------------------------------------------------------------------------- */
static int gcry_open(struct impl *im)
{
	static const int modes[] = { [ECB] = GCRY_CIPHER_MODE_ECB, [CBC] = GCRY_CIPHER_MODE_CBC,
		                     [CTR] = GCRY_CIPHER_MODE_CTR, [XTS] = GCRY_CIPHER_MODE_XTS,
		                     [GCM] = GCRY_CIPHER_MODE_GCM, [CCM] = GCRY_CIPHER_MODE_CCM,
		                     [STREAM] = GCRY_CIPHER_MODE_STREAM, [CHACHAPOLY] = GCRY_CIPHER_MODE_POLY1305 };
	const struct alg *a = im->a;
	size_t cipher_key = a->kind == XTS ? a->keylen / 2 : a->keylen;
	/* libgcrypt's numbers per cipher for 128- and 256-bit keys */
	static const int gcry_algo[][2] = {
		[C_AES] = { GCRY_CIPHER_AES128, GCRY_CIPHER_AES256 }, [C_SM4] = { GCRY_CIPHER_SM4, GCRY_CIPHER_SM4 },
		[C_TDES] = { GCRY_CIPHER_3DES, GCRY_CIPHER_3DES },
		[C_TWOFISH] = { GCRY_CIPHER_TWOFISH128, GCRY_CIPHER_TWOFISH },
		[C_SERPENT] = { GCRY_CIPHER_SERPENT128, GCRY_CIPHER_SERPENT256 },
		[C_CAMELLIA] = { GCRY_CIPHER_CAMELLIA128, GCRY_CIPHER_CAMELLIA256 },
		[C_CHACHA20] = { GCRY_CIPHER_CHACHA20, GCRY_CIPHER_CHACHA20 },
	};
	int algo = gcry_algo[a->kind == HASH || a->kind == HMAC ? C_AES : a->sm][cipher_key == 16 ? 0 : 1];

	if (a->kind == HASH)
		return gcry_md_test_algo(gcry_md[a->sm]) ? 1 : 0;
	if (a->kind == HMAC) {
		if (gcry_mac_open(&im->gm, a->sm == H_SHA1 ? GCRY_MAC_HMAC_SHA1 : GCRY_MAC_HMAC_SHA256, 0, NULL))
			return 1;
		return gcry_mac_setkey(im->gm, im->key, a->keylen) ? -1 : 0;
	}
	if (a->kind == ESP) {
		if (gcry_cipher_open(&im->gc, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_GCM, 0))
			return 1;
		return gcry_cipher_setkey(im->gc, im->key, 16) ? -1 : 0;
	}
	if (a->kind == CMAC) {
		if (gcry_mac_open(&im->gm, a->sm == C_SM4 ? GCRY_MAC_CMAC_SM4 : GCRY_MAC_CMAC_AES, 0, NULL))
			return 1;
		return gcry_mac_setkey(im->gm, im->key, a->keylen) ? -1 : 0;
	}
	if (gcry_cipher_open(&im->gc, algo, modes[a->kind], 0))
		return 1;
	return gcry_cipher_setkey(im->gc, im->key, a->keylen) ? -1 : 0;
}

static int gcry_op(struct impl *im, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag)
{
	const struct alg *a = im->a;
	size_t tl = 16;
	gcry_error_t e = 0;

	uint8_t nonce[12];

	switch (a->kind) {
	case HASH:
		gcry_md_hash_buffer(gcry_md[a->sm], tag, src, len);
		return 0;
	case HMAC:
		tl = md_len[a->sm];
		return gcry_mac_reset(im->gm) || gcry_mac_write(im->gm, src, len) || gcry_mac_read(im->gm, tag, &tl) ? -1 : 0;
	case ESP:
		esp_nonce(im, iv, nonce);
		e = gcry_cipher_setiv(im->gc, nonce, 12);
		if (!e)
			e = gcry_cipher_authenticate(im->gc, esp_header, 8);
		if (!e)
			e = src == dst ? gcry_cipher_encrypt(im->gc, dst, len, NULL, 0) : gcry_cipher_encrypt(im->gc, dst, len, src, len);
		return e || gcry_cipher_gettag(im->gc, tag, 16) ? -1 : 0;
	case CMAC:
		return gcry_mac_reset(im->gm) || gcry_mac_write(im->gm, src, len) || gcry_mac_read(im->gm, tag, &tl) ? -1 : 0;
	case ECB:
		break;
	case CTR:
		e = gcry_cipher_setctr(im->gc, iv, 16);
		break;
	case CCM: {
		uint64_t lens[3] = { len, 0, 16 };   /* text, AD and tag lengths, needed before the text */

		e = gcry_cipher_setiv(im->gc, iv, 12);
		if (!e)
			e = gcry_cipher_ctl(im->gc, GCRYCTL_SET_CCM_LENGTHS, lens, sizeof(lens));
		break;
	}
	default:
		e = gcry_cipher_setiv(im->gc, iv, a->kind == GCM || a->kind == CHACHAPOLY ? 12 : a->sm == C_TDES ? 8 : 16);
		break;
	}
	if (!e)
		e = decrypt ? (src == dst ? gcry_cipher_decrypt(im->gc, dst, len, NULL, 0)
		                          : gcry_cipher_decrypt(im->gc, dst, len, src, len))
		            : (src == dst ? gcry_cipher_encrypt(im->gc, dst, len, NULL, 0)
		                          : gcry_cipher_encrypt(im->gc, dst, len, src, len));
	if (!e && (a->kind == GCM || a->kind == CCM || a->kind == CHACHAPOLY))
		e = gcry_cipher_gettag(im->gc, tag, 16);
	return e ? -1 : 0;
}

static void gcry_close(struct impl *im)
{
	if (im->gc)
		gcry_cipher_close(im->gc);
	if (im->gm)
		gcry_mac_close(im->gm);
}

/* ---- nettle (3.8: AES, SM3 and ChaCha20; no SM4) ------------------------------------------- */
/* nettle's generic modes take a nettle_cipher_func; these give it the exact prototype. */
static void nt_aes128_encrypt(const void *ctx, size_t len, uint8_t *dst, const uint8_t *src)
{
	aes128_encrypt(ctx, len, dst, src);
}

static void nt_aes256_encrypt(const void *ctx, size_t len, uint8_t *dst, const uint8_t *src)
{
	aes256_encrypt(ctx, len, dst, src);
}

static void nt_aes128_decrypt(const void *ctx, size_t len, uint8_t *dst, const uint8_t *src)
{
	aes128_decrypt(ctx, len, dst, src);
}

static void nt_aes256_decrypt(const void *ctx, size_t len, uint8_t *dst, const uint8_t *src)
{
	aes256_decrypt(ctx, len, dst, src);
}

static int nettle_open(struct impl *im)
{
	const struct alg *a = im->a;
	int k128 = a->keylen == 16 || (a->kind == XTS && a->keylen == 32);

	if (a->sm != C_AES && a->sm != C_CHACHA20 && a->kind != HASH && a->kind != HMAC)
		return 1;
	switch (a->kind) {
	case HASH:
		break;
	case STREAM:
		chacha_set_key(&im->nt.cc, im->key);
		break;
	case CHACHAPOLY:
		chacha_poly1305_set_key(&im->nt.cp, im->key);
		break;
	case HMAC:
		if (a->sm == H_SHA1)
			hmac_sha1_set_key(&im->nt.hs1, a->keylen, im->key);
		else
			hmac_sha256_set_key(&im->nt.hs256, a->keylen, im->key);
		break;
	case ESP:
		gcm_aes128_set_key(&im->nt.g128, im->key);
		break;
	case XTS:
		if (k128 && decrypt)
			xts_aes128_set_decrypt_key(&im->nt.x128, im->key);
		else if (k128)
			xts_aes128_set_encrypt_key(&im->nt.x128, im->key);
		else if (decrypt)
			xts_aes256_set_decrypt_key(&im->nt.x256, im->key);
		else
			xts_aes256_set_encrypt_key(&im->nt.x256, im->key);
		break;
	case GCM:
		if (k128)
			gcm_aes128_set_key(&im->nt.g128, im->key);
		else
			gcm_aes256_set_key(&im->nt.g256, im->key);
		break;
	case CCM:
		if (k128)
			ccm_aes128_set_key(&im->nt.m128, im->key);
		else
			ccm_aes256_set_key(&im->nt.m256, im->key);
		break;
	case CMAC:
		if (k128)
			cmac_aes128_set_key(&im->nt.c128, im->key);
		else
			cmac_aes256_set_key(&im->nt.c256, im->key);
		break;
	default:
		/* ctr runs the cipher forwards either way */
		if (k128 && decrypt && a->kind != CTR)
			aes128_set_decrypt_key(&im->nt.a128, im->key);
		else if (k128)
			aes128_set_encrypt_key(&im->nt.a128, im->key);
		else if (decrypt && a->kind != CTR)
			aes256_set_decrypt_key(&im->nt.a256, im->key);
		else
			aes256_set_encrypt_key(&im->nt.a256, im->key);
		break;
	}
	return 0;
}

static int nettle_op(struct impl *im, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag)
{
	const struct alg *a = im->a;
	int k128 = a->keylen == 16 || (a->kind == XTS && a->keylen == 32);

	uint8_t nonce[12];

	switch (a->kind) {
	case STREAM:
		/* the kernel's IV: the 32-bit counter, then the 96-bit nonce */
		chacha_set_nonce96(&im->nt.cc, iv + 4);
		chacha_set_counter32(&im->nt.cc, iv);
		chacha_crypt32(&im->nt.cc, len, dst, src);
		break;
	case CHACHAPOLY:
		chacha_poly1305_set_nonce(&im->nt.cp, iv);
		chacha_poly1305_encrypt(&im->nt.cp, len, dst, src);
		chacha_poly1305_digest(&im->nt.cp, 16, tag);
		break;
	case HMAC:
		if (a->sm == H_SHA1) {
			hmac_sha1_update(&im->nt.hs1, len, src);
			hmac_sha1_digest(&im->nt.hs1, SHA1_DIGEST_SIZE, tag);
		} else {
			hmac_sha256_update(&im->nt.hs256, len, src);
			hmac_sha256_digest(&im->nt.hs256, SHA256_DIGEST_SIZE, tag);
		}
		break;
	case ESP:
		esp_nonce(im, iv, nonce);
		gcm_aes128_set_iv(&im->nt.g128, 12, nonce);
		gcm_aes128_update(&im->nt.g128, 8, esp_header);
		gcm_aes128_encrypt(&im->nt.g128, len, dst, src);
		gcm_aes128_digest(&im->nt.g128, 16, tag);
		break;
	case HASH:
		if (a->sm == H_SM3) {
			sm3_init(&im->nt.sm3);
			sm3_update(&im->nt.sm3, len, src);
			sm3_digest(&im->nt.sm3, SM3_DIGEST_SIZE, tag);
		} else if (a->sm == H_SHA1) {
			sha1_init(&im->nt.sha1);
			sha1_update(&im->nt.sha1, len, src);
			sha1_digest(&im->nt.sha1, SHA1_DIGEST_SIZE, tag);
		} else if (a->sm == H_SHA512) {
			sha512_init(&im->nt.sha512);
			sha512_update(&im->nt.sha512, len, src);
			sha512_digest(&im->nt.sha512, SHA512_DIGEST_SIZE, tag);
		} else {
			sha256_init(&im->nt.sha);
			sha256_update(&im->nt.sha, len, src);
			sha256_digest(&im->nt.sha, SHA256_DIGEST_SIZE, tag);
		}
		break;
	case CMAC:
		if (k128) {
			cmac_aes128_update(&im->nt.c128, len, src);
			cmac_aes128_digest(&im->nt.c128, 16, tag);
		} else {
			cmac_aes256_update(&im->nt.c256, len, src);
			cmac_aes256_digest(&im->nt.c256, 16, tag);
		}
		break;
	case GCM:
		if (k128) {
			gcm_aes128_set_iv(&im->nt.g128, 12, iv);
			gcm_aes128_encrypt(&im->nt.g128, len, dst, src);
			gcm_aes128_digest(&im->nt.g128, 16, tag);
		} else {
			gcm_aes256_set_iv(&im->nt.g256, 12, iv);
			gcm_aes256_encrypt(&im->nt.g256, len, dst, src);
			gcm_aes256_digest(&im->nt.g256, 16, tag);
		}
		break;
	case CCM:
		if (k128) {
			ccm_aes128_set_nonce(&im->nt.m128, 12, iv, 0, len, 16);
			ccm_aes128_encrypt(&im->nt.m128, len, dst, src);
			ccm_aes128_digest(&im->nt.m128, 16, tag);
		} else {
			ccm_aes256_set_nonce(&im->nt.m256, 12, iv, 0, len, 16);
			ccm_aes256_encrypt(&im->nt.m256, len, dst, src);
			ccm_aes256_digest(&im->nt.m256, 16, tag);
		}
		break;
	case XTS:
		if (k128 && decrypt)
			xts_aes128_decrypt_message(&im->nt.x128, iv, len, dst, src);
		else if (k128)
			xts_aes128_encrypt_message(&im->nt.x128, iv, len, dst, src);
		else if (decrypt)
			xts_aes256_decrypt_message(&im->nt.x256, iv, len, dst, src);
		else
			xts_aes256_encrypt_message(&im->nt.x256, iv, len, dst, src);
		break;
	case ECB:
		if (k128)
			(decrypt ? aes128_decrypt : aes128_encrypt)(&im->nt.a128, len, dst, src);
		else
			(decrypt ? aes256_decrypt : aes256_encrypt)(&im->nt.a256, len, dst, src);
		break;
	case CBC:
		if (k128 && decrypt)
			cbc_decrypt(&im->nt.a128, nt_aes128_decrypt, 16, iv, len, dst, src);
		else if (k128)
			cbc_aes128_encrypt(&im->nt.a128, iv, len, dst, src);
		else if (decrypt)
			cbc_decrypt(&im->nt.a256, nt_aes256_decrypt, 16, iv, len, dst, src);
		else
			cbc_aes256_encrypt(&im->nt.a256, iv, len, dst, src);
		break;
	case CTR:
		if (k128)
			ctr_crypt(&im->nt.a128, nt_aes128_encrypt, 16, iv, len, dst, src);
		else
			ctr_crypt(&im->nt.a256, nt_aes256_encrypt, 16, iv, len, dst, src);
		break;
	}
	return 0;
}

static void nettle_close(struct impl *im)
{
	(void)im;
}

static const struct lib_ops libs[NLIBS] = {
	{ bc_open, bc_op, bc_close },
	{ ossl_open, ossl_op, ossl_close },
	{ gcry_open, gcry_op, gcry_close },
	{ nettle_open, nettle_op, nettle_close },
};

/* ---- measurement ------------------------------------------------------------------------ */
static double now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* How each operation's IV is written (--iv-word: as dm-crypt's plain64). */
static void (*make_iv)(uint8_t *, uint64_t) = bench_make_iv;

/* Where each operation writes (--out-of-place: a second buffer, so that no operation waits
 * for the one before it; by default in place, each operation's input the last one's output). */
static uint8_t *out_buf;

static int run(struct impl *im, int lib, uint8_t *buf, size_t len, uint64_t first, uint64_t n)
{
	uint8_t iv[16], tag[64], *dst = out_buf ? out_buf : buf;

	for (uint64_t i = 0; i < n; i++) {
		make_iv(iv, first + i);
		if (libs[lib].op(im, iv, buf, dst, len, tag))
			return -1;
	}
	return 0;
}

struct results {
	double mbps[NALGS][MAX_SIZES][NLIBS];   /* 0: the library lacks the algorithm */
	size_t size[NALGS][MAX_SIZES];           /* bytes per operation actually used */
	int bad[NALGS][MAX_SIZES];               /* outputs disagreed: not timed */
};

static size_t digest_len(const struct alg *a)
{
	return a->kind == HASH || a->kind == HMAC ? md_len[a->sm]
	       : a->kind == GCM || a->kind == ESP || a->kind == CMAC || a->kind == CCM || a->kind == CHACHAPOLY ? 16
												  : 0;
}

/* Every library that has the algorithm must give blockcrypt's output for the same key, IV and data. */
static int agree(struct impl *im, const int *have, const struct alg *a, const uint8_t *src, size_t len)
{
	static uint8_t out[NLIBS][MAX_LEN + 64], tag[NLIBS][64];
	uint8_t iv[16];
	int ok = 1;

	for (uint64_t n = 0; n < 2; n++) {
		for (int l = 0; l < NLIBS; l++) {
			if (!have[l])
				continue;
			bench_make_iv(iv, n * 0x0123456789ull);   /* afresh: cbc and ctr advance it */
			memset(out[l], 0, len);
			if (libs[l].op(&im[l], iv, src, out[l], len, tag[l])) {
				fprintf(stderr, "bench-peers: %s at %zu bytes: %s failed\n", a->label, len, lib_name[l]);
				return 0;
			}
			if (l == L_BC)
				continue;
			if ((a->kind != CMAC && a->kind != HASH && a->kind != HMAC && memcmp(out[l], out[L_BC], len)) ||
			    memcmp(tag[l], tag[L_BC], digest_len(a))) {
				fprintf(stderr, "bench-peers: DISAGREEMENT: %s at %zu bytes: %s and blockcrypt differ; not timed\n",
				        a->label, len, lib_name[l]);
				ok = 0;
			}
		}
	}
	return ok;
}

/* Interleaved rounds, one batch per library each; the best undisturbed batch counts. */
static void measure(struct impl *im, const int *have, uint8_t *buf, size_t len, double seconds, double *mbps)
{
	uint64_t per[NLIBS] = { 0 }, ctr = 0;
	double best[NLIBS] = { 0 }, any[NLIBS] = { 0 };
	double round_s = seconds / MIN_ROUNDS < ROUND_S ? seconds / MIN_ROUNDS : ROUND_S;
	int rounds = (int)(seconds / round_s + 0.5);

	for (int l = 0; l < NLIBS; l++) {
		double t0 = now(CLOCK_MONOTONIC), dt;
		uint64_t n = 0;

		if (!have[l])
			continue;
		for (uint64_t step = 1;; step *= 2) {   /* warm-up, and the batch size */
			run(&im[l], l, buf, len, ctr, step);
			ctr += step;
			n += step;
			dt = now(CLOCK_MONOTONIC) - t0;
			if (dt >= round_s)
				break;
		}
		per[l] = (uint64_t)((double)n / dt * round_s) + 1;
	}
	for (int r = 0; r < rounds; r++) {
		for (int k = 0; k < NLIBS; k++) {
			int l = (k + r) % NLIBS;   /* a different library goes first each round */

			if (!have[l])
				continue;
			double c0 = now(CLOCK_THREAD_CPUTIME_ID), t0 = now(CLOCK_MONOTONIC);

			run(&im[l], l, buf, len, ctr, per[l]);
			ctr += per[l];
			double wall = now(CLOCK_MONOTONIC) - t0, cpu = now(CLOCK_THREAD_CPUTIME_ID) - c0;
			double rate = (double)per[l] * (double)len / (wall > 1e-9 ? wall : 1e-9) / 1e6;

			if (rate > any[l])
				any[l] = rate;
			if (cpu >= MIN_CPU_SHARE * wall && rate > best[l])
				best[l] = rate;
		}
	}
	for (int l = 0; l < NLIBS; l++)
		mbps[l] = best[l] > 0 ? best[l] : any[l];
}

/* ---- output ------------------------------------------------------------------------------ */
static double best_peer(const double *mbps)
{
	double b = 0;

	for (int l = L_BC + 1; l < NLIBS; l++)
		if (mbps[l] > b)
			b = mbps[l];
	return b;
}

static void print_row(const struct alg *a, size_t size, const double *mbps, int bad)
{
	printf("%-17s %6zu", a->label, size);
	for (int l = 0; l < NLIBS; l++) {
		if (bad)
			printf(" %11s", "DISAGREE");
		else if (mbps[l] > 0)
			printf(" %11.1f", mbps[l]);
		else
			printf(" %11s", "-");
	}
	if (!bad && mbps[L_BC] > 0 && best_peer(mbps) > 0)
		printf(" %7.2f\n", mbps[L_BC] / best_peer(mbps));
	else
		printf(" %7s\n", "-");
	fflush(stdout);
}

/* Throughput against size (log x), one panel per algorithm, one polyline per library. */
static int write_svg(const char *path, const struct results *res, const int *sel, size_t nsel, unsigned nsizes)
{
	const int cols = 4, pw = 300, ph = 220, ml = 55, mt = 30, mb = 35;
	int rows = (int)((nsel + (size_t)cols - 1) / (size_t)cols);
	FILE *f = fopen(path, "w");
	double lx0 = log2((double)res->size[sel[0]][0]), lx1 = log2((double)res->size[sel[0]][nsizes - 1]);

	if (!f)
		return -1;
	if (lx1 <= lx0)
		lx1 = lx0 + 1;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n"
	        "<title>blockcrypt and its peers: throughput (MB/s) against buffer size</title>\n"
	        "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", cols * pw, rows * ph + 30);
	for (int l = 0; l < NLIBS; l++)
		fprintf(f, "<g class=\"legend\"><line x1=\"%d\" y1=\"15\" x2=\"%d\" y2=\"15\" stroke=\"%s\" stroke-width=\"3\"/>"
		        "<text x=\"%d\" y=\"19\">%s</text></g>\n", 20 + l * 130, 45 + l * 130, lib_colour[l], 50 + l * 130,
		        lib_name[l]);
	for (size_t p = 0; p < nsel; p++) {
		int ai = sel[p], x0 = (int)(p % (size_t)cols) * pw + ml, y0 = 30 + (int)(p / (size_t)cols) * ph + mt;
		int w = pw - ml - 15, h = ph - mt - mb;
		double ymax = 0;

		for (unsigned s = 0; s < nsizes; s++)
			for (int l = 0; l < NLIBS; l++)
				if (!res->bad[ai][s] && res->mbps[ai][s][l] > ymax)
					ymax = res->mbps[ai][s][l];
		if (ymax <= 0)
			ymax = 1;
		fprintf(f, "<g class=\"panel\" data-alg=\"%s\">\n<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>\n"
		        "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n",
		        algs[ai].label, x0, y0 - 8, algs[ai].label, x0, y0, w, h);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n",
		        x0 - 4, y0 + 10, ymax, x0 - 4, y0 + h);
		for (unsigned s = 0, last = 0; s < nsizes; s++) {
			double x = x0 + w * (log2((double)res->size[ai][s]) - lx0) / (lx1 - lx0);

			/* Sizes close together (1024, 1420) would print over each other: keep the first. */
			if (s > 0 && x - (x0 + w * (log2((double)res->size[ai][last]) - lx0) / (lx1 - lx0)) < 24)
				continue;
			last = s;
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"9\">%zu</text>\n", x, y0 + h + 12,
			        res->size[ai][s]);
		}
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"9\">bytes (log scale); MB/s</text>\n",
		        x0 + w / 2, y0 + h + 26);
		for (int l = 0; l < NLIBS; l++) {
			int started = 0;

			for (unsigned s = 0; s < nsizes; s++) {
				double v = res->bad[ai][s] ? 0 : res->mbps[ai][s][l];

				if (v <= 0)
					continue;
				if (!started++)
					fprintf(f, "<polyline class=\"series\" data-lib=\"%s\" fill=\"none\" stroke=\"%s\" "
					        "stroke-width=\"2\" points=\"", lib_name[l], lib_colour[l]);
				fprintf(f, "%.1f,%.1f ", x0 + w * (log2((double)res->size[ai][s]) - lx0) / (lx1 - lx0),
				        y0 + h - h * v / ymax);
			}
			if (started)
				fputs("\"/>\n", f);
		}
		fputs("</g>\n", f);
	}
	fputs("</svg>\n", f);
	return fclose(f) ? -1 : 0;
}

/* ---- main -------------------------------------------------------------------------------- */
static void usage(void)
{
	fputs("usage: bench-peers [--time S] [--sizes 16,64,...] [--only NAME,...] [--decrypt] [--iv-word]\n"
	      "                   [--out-of-place] [--svg FILE]\n"
	      "  --time S     seconds per library, algorithm and size (default 0.1), in short interleaved batches\n"
	      "  --only       algorithms whose label contains one of these words (aes-128-xts, sm4, cmac, ...)\n"
	      "  --decrypt    ecb, cbc, ctr and xts decrypt instead (the other algorithms are left out)\n"
	      "  --iv-word    write each IV as dm-crypt's plain64 does (zeroed, then one 8-byte store) instead of\n"
	      "               byte by byte, which makes every operation wait for its IV to reach the cache\n"
	      "  --out-of-place  every library writes to a second buffer instead of working in place, where\n"
	      "               each operation's input is the previous one's output (a chain of latencies)\n"
	      "  --svg FILE   also draw the chart\n", stderr);
}

static int selected(const char *label, const char *only)
{
	char buf[256], *save;

	if (!only)
		return 1;
	snprintf(buf, sizeof(buf), "%s", only);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (strstr(label, t))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	static struct results res;
	size_t sizes[MAX_SIZES];
	unsigned nsizes = sizeof(default_sizes) / sizeof(default_sizes[0]);
	double seconds = 0.1;
	const char *svg = NULL, *only = NULL;
	int sel[NALGS], failed = 0, out_of_place = 0;
	size_t nsel = 0;
	uint8_t *buf, *src;

	memcpy(sizes, default_sizes, sizeof(default_sizes));
	for (int i = 1; i < argc; i++) {
		char *end;

		if (!strcmp(argv[i], "--time") && i + 1 < argc) {
			seconds = strtod(argv[++i], &end);
			if (*end || !(seconds > 0 && seconds <= 60)) {
				usage();
				return 2;
			}
		} else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
			nsizes = 0;
			for (char *t = strtok(argv[++i], ","); t; t = strtok(NULL, ",")) {
				unsigned long v = strtoul(t, &end, 10);

				if (*end || v == 0 || v > MAX_LEN || nsizes == MAX_SIZES) {
					usage();
					return 2;
				}
				sizes[nsizes++] = v;
			}
			if (!nsizes) {
				usage();
				return 2;
			}
		} else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
			only = argv[++i];
		} else if (!strcmp(argv[i], "--decrypt")) {
			decrypt = 1;
		} else if (!strcmp(argv[i], "--iv-word")) {
			make_iv = bench_make_iv_word;
		} else if (!strcmp(argv[i], "--out-of-place")) {
			out_of_place = 1;
		} else if (!strcmp(argv[i], "--svg") && i + 1 < argc) {
			svg = argv[++i];
		} else {
			usage();
			return 2;
		}
	}
	if (!gcry_check_version(NULL)) {
		fputs("bench-peers: libgcrypt does not initialise\n", stderr);
		return 1;
	}
	gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	buf = aligned_alloc(64, MAX_LEN + 64);
	src = aligned_alloc(64, MAX_LEN + 64);
	if (out_of_place)
		out_buf = aligned_alloc(64, MAX_LEN + 64);
	if (!buf || !src || (out_of_place && !out_buf))
		return 1;
	for (size_t i = 0; i < MAX_LEN + 64; i++)
		src[i] = (uint8_t)(i * 131 + 7);

	printf("# blockcrypt against its peers, %s, %s, a fresh IV per operation (%s):\n"
	       "# MB/s (10^6 bytes/s) of one thread, the best of the undisturbed batches of %g ms run in turn per library\n"
	       "# (%g s each); outputs cross-checked first; ratio = blockcrypt / best peer; CPU features: %s\n",
	       decrypt ? "decryption" : "encryption (MACs and hashes: digest)", out_of_place ? "out of place" : "in place",
	       make_iv == bench_make_iv ? "written byte by byte" : "zeroed, then one 8-byte store",
	       (seconds / MIN_ROUNDS < ROUND_S ? seconds / MIN_ROUNDS : ROUND_S) * 1e3, seconds, bc_cpu_features_string());
	printf("%-17s %6s", "algorithm", "size");
	for (int l = 0; l < NLIBS; l++)
		printf(" %11s", lib_name[l]);
	printf(" %7s\n", "ratio");
	for (size_t ai = 0; ai < NALGS; ai++) {
		const struct alg *a = &algs[ai];
		struct impl im[NLIBS];
		int have[NLIBS];

		if (!selected(a->label, only) || (decrypt && a->kind != ECB && a->kind != CBC && a->kind != CTR && a->kind != XTS))
			continue;
		sel[nsel++] = (int)ai;
		memset(im, 0, sizeof(im));
		for (int l = 0; l < NLIBS; l++) {
			im[l].a = a;
			for (size_t k = 0; k < sizeof(im[l].key); k++)
				im[l].key[k] = (uint8_t)(k * 37 + 11);
			int r = libs[l].open(&im[l]);

			have[l] = r == 0;
			if (r < 0) {
				fprintf(stderr, "bench-peers: %s: %s cannot set it up\n", a->label, lib_name[l]);
				failed = 1;
			}
		}
		if (!have[L_BC] && a->kind == HMAC && !im[L_BC].sh) {
			printf("# %s: %s is not in this build\n", a->label, a->bc);
		} else if (!have[L_BC]) {
			fprintf(stderr, "bench-peers: %s: blockcrypt cannot set it up\n", a->label);
			failed = 1;
		}
		for (unsigned s = 0; s < nsizes && have[L_BC]; s++) {
			/* ecb and cbc take whole blocks: 1420 becomes 1424, as tcrypt rounds. */
			size_t len = a->kind == ECB || a->kind == CBC ? (sizes[s] + 15) / 16 * 16 : sizes[s];

			if (a->kind == XTS && len < 16)
				len = 16;
			res.size[ai][s] = len;
			if (!agree(im, have, a, src, len)) {
				res.bad[ai][s] = 1;
				failed = 1;
			} else {
				memcpy(buf, src, len);
				measure(im, have, buf, len, seconds, res.mbps[ai][s]);
			}
			print_row(a, len, res.mbps[ai][s], res.bad[ai][s]);
		}
		for (int l = 0; l < NLIBS; l++)
			libs[l].close(&im[l]);
	}
	if (svg && nsel && write_svg(svg, &res, sel, nsel, nsizes) < 0) {
		fprintf(stderr, "bench-peers: cannot write %s: %s\n", svg, strerror(errno));
		failed = 1;
	}
	free(buf);
	free(src);
	free(out_buf);
	return failed;
}
