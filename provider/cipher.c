/* blockcrypt OpenSSL 3 provider: the ciphers (ECB, CBC, CTR, CBC-CTS, XTS over AES and SM4; GCM in gcm.c).
 * provider-cipher(7); buffering, padding, parameters and errors as OpenSSL's default provider has them. */
#include <string.h>
#include <strings.h>

#include <openssl/crypto.h>

#include "cipher.h"

#define AES(bits, M, bc, kind, mode, iv, bs) { "AES-" #bits "-" M, bc, kind, mode, bits / 8, iv, bs }
#define AES3(M, bc, kind, mode, iv, bs) \
	AES(128, M, bc, kind, mode, iv, bs), AES(192, M, bc, kind, mode, iv, bs), AES(256, M, bc, kind, mode, iv, bs)

const struct bcp_cipher bcp_ciphers[] = {
	AES3("ECB", "ecb(aes)", BCP_ECB, EVP_CIPH_ECB_MODE, 0, 16),
	AES3("CBC", "cbc(aes)", BCP_CBC, EVP_CIPH_CBC_MODE, 16, 16),
	AES3("CTR", "ctr(aes)", BCP_CTR, EVP_CIPH_CTR_MODE, 16, 1),
	AES3("CBC-CTS", "cts(cbc(aes))", BCP_CTS, EVP_CIPH_CBC_MODE, 16, 16),
	AES3("GCM", "gcm(aes)", BCP_GCM, EVP_CIPH_GCM_MODE, 12, 1),
	{ "AES-128-XTS", "xts(aes)", BCP_XTS, EVP_CIPH_XTS_MODE, 32, 16, 1 },
	{ "AES-256-XTS", "xts(aes)", BCP_XTS, EVP_CIPH_XTS_MODE, 64, 16, 1 },
	{ "SM4-ECB", "ecb(sm4)", BCP_ECB, EVP_CIPH_ECB_MODE, 16, 0, 16 },
	{ "SM4-CBC", "cbc(sm4)", BCP_CBC, EVP_CIPH_CBC_MODE, 16, 16, 16 },
	{ "SM4-CTR", "ctr(sm4)", BCP_CTR, EVP_CIPH_CTR_MODE, 16, 16, 1 },
	{ "SM4-XTS", "xts(sm4)", BCP_XTS, EVP_CIPH_XTS_MODE, 32, 16, 1 },
	{ "SM4-GCM", "gcm(sm4)", BCP_GCM, EVP_CIPH_GCM_MODE, 16, 12, 1 },
};
const size_t bcp_ncipher = sizeof(bcp_ciphers) / sizeof(bcp_ciphers[0]);

/* IEEE Std 1619-2018 5.1 and NIST SP 800-38E: at most 2^20 blocks in a data unit. */
#define XTS_MAX_LEN ((size_t)1 << 24)

/* ---- constant parameters (provider-cipher(7) "Cipher Parameters") ------------------- */
int bcp_cipher_get_params(const struct bcp_cipher *c, OSSL_PARAM params[])
{
	OSSL_PARAM *p;

	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE)) && !OSSL_PARAM_set_uint(p, c->mode))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD)) && !OSSL_PARAM_set_int(p, c->kind == BCP_GCM))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CUSTOM_IV)) &&
	    !OSSL_PARAM_set_int(p, c->kind == BCP_GCM || c->kind == BCP_XTS))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CTS)) && !OSSL_PARAM_set_int(p, c->kind == BCP_CTS))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK)) && !OSSL_PARAM_set_int(p, 0))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_HAS_RAND_KEY)) && !OSSL_PARAM_set_int(p, 0))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !OSSL_PARAM_set_size_t(p, c->keylen))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE)) && !OSSL_PARAM_set_size_t(p, c->blocksize))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !OSSL_PARAM_set_size_t(p, c->ivlen))
		return 0;
	return 1;
}

const OSSL_PARAM *bcp_cipher_gettable_params(void *provctx)
{
	static const OSSL_PARAM p[] = {
		OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
		OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
		OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
		OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
		OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
		OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
		OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, NULL),
		OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, NULL),
		OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, NULL),
		OSSL_PARAM_END
	};

	(void)provctx;
	return p;
}

/* ---- contexts ---------------------------------------------------------------------------- */
static int is_sm4_xts(const struct bcp_cipher *c)
{
	return c->kind == BCP_XTS && !strcmp(c->bc_name, "xts(sm4)");
}

static void freectx(void *vctx);
static int cctx_setkey(struct bcp_cctx *x, const uint8_t *key);

static void *newctx(const struct bcp_cipher *c)
{
	struct bcp_cctx *x;
	int err;

	x = OPENSSL_zalloc(sizeof(*x));
	if (!x)
		return NULL;
	x->c = c;
	x->pad = 1;
	x->ivlen = c->ivlen;
	x->cts_mode = BCP_CS1;
	err = c->kind == BCP_GCM ? bcp_gcm_new(x) : bc_skcipher_alloc(&x->sk, c->bc_name);
	if (!err && is_sm4_xts(c)) {
		err = bc_skcipher_alloc(&x->gb1, "ecb(sm4)");
		if (!err)
			err = bc_skcipher_alloc(&x->gb2, "ecb(sm4)");
	}
	if (err) {
		bcp_raise(err, c->bc_name);
		freectx(x);
		return NULL;
	}
	return x;
}

static void freectx(void *vctx)
{
	struct bcp_cctx *x = vctx;

	if (!x)
		return;
	bc_skcipher_free(x->sk);
	bc_skcipher_free(x->gb1);
	bc_skcipher_free(x->gb2);
	bcp_gcm_free(x);
	OPENSSL_clear_free(x, sizeof(*x));
}

/* A copy with its own library objects, keyed from the key kept in the context. */
static void *dupctx(void *vctx)
{
	const struct bcp_cctx *x = vctx;
	struct bcp_cctx *d = newctx(x->c);
	struct bcp_cctx own;

	if (!d)
		return NULL;
	own = *d;
	*d = *x;
	d->sk = own.sk;
	d->gb1 = own.gb1;
	d->gb2 = own.gb2;
	d->aead = own.aead;
	d->req = own.req;
	if (x->keyed && (d->aead ? bcp_gcm_dup(d, x) : cctx_setkey(d, x->key))) {
		freectx(d);
		return NULL;
	}
	return d;
}

/* The library objects keyed (keylen: the cipher's); 0 or a negative errno.
 * XTS refuses equal key halves when encrypting; decryption allows them, as
 * OpenSSL's default provider does (its FIPS provider refuses both). */
static int cctx_setkey(struct bcp_cctx *x, const uint8_t *key)
{
	size_t half = x->c->keylen / 2;
	int err;

	if (x->c->kind == BCP_GCM)
		return bc_aead_setkey(x->aead, key, x->c->keylen);
	bc_skcipher_set_flags(x->sk, x->c->kind == BCP_XTS && !x->enc ? BC_ALLOW_WEAK_KEYS : 0);
	err = bc_skcipher_setkey(x->sk, key, x->c->keylen);
	if (!err && x->gb1)
		err = bc_skcipher_setkey(x->gb1, key, half);
	if (!err && x->gb2)
		err = bc_skcipher_setkey(x->gb2, key + half, half);
	return err;
}

/* XTS refuses equal key halves when encrypting; decryption allows them, as
 * OpenSSL's default provider does (its FIPS provider refuses both). */
static int init(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
		const OSSL_PARAM params[], int enc)
{
	struct bcp_cctx *x = vctx;
	int err;

	x->enc = enc;
	x->bufsz = 0;
	x->num = 0;
	x->updated = 0;
	if (iv && x->c->kind != BCP_GCM) {
		if (ivlen != x->c->ivlen) {
			ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_IV_LENGTH);
			return 0;
		}
		memcpy(x->iv, iv, ivlen);
		memcpy(x->oiv, iv, ivlen);
		x->iv_set = 1;
	}
	if (key) {
		if (keylen != x->c->keylen) {
			ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_KEY_LENGTH);
			return 0;
		}
		/* The same key again (EVP users re-init with it per message, as
		 * openssl speed does) keeps the expanded one: for GCM that is two
		 * key schedules and the GHASH key powers. XTS checks its halves
		 * per direction, so it always sets the key. */
		x->enc = enc;
		err = x->keyed && x->c->kind != BCP_XTS && !CRYPTO_memcmp(x->key, key, keylen) ? 0 : cctx_setkey(x, key);
		if (err) {
			if (x->c->kind == BCP_XTS && err == -EINVAL)
				ERR_raise(ERR_LIB_PROV, PROV_R_XTS_DUPLICATED_KEYS);
			else
				bcp_raise(err, x->c->bc_name);
			return 0;
		}
		memcpy(x->key, key, keylen);
		x->keyed = 1;
	}
	if (x->c->kind == BCP_GCM && !bcp_gcm_init(x, iv, ivlen))
		return 0;
	return bcp_cipher_set_ctx_params(x, params);
}

static int einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
		 const OSSL_PARAM params[])
{
	return init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
		 const OSSL_PARAM params[])
{
	return init(vctx, key, keylen, iv, ivlen, params, 0);
}

/* ---- the modes --------------------------------------------------------------------------------- */
/* Whole blocks through the library; cbc and ctr carry the chaining value in x->iv. */
static int run(struct bcp_cctx *x, const uint8_t *in, uint8_t *out, size_t len)
{
	int err = x->enc ? bc_skcipher_encrypt(x->sk, x->iv, in, out, len) : bc_skcipher_decrypt(x->sk, x->iv, in, out, len);

	if (err)
		bcp_raise(err, x->c->bc_name);
	return !err;
}

/* The full block in buf through the cipher into out. */
static int flush_block(struct bcp_cctx *x, uint8_t *out, size_t outsize)
{
	if (outsize < BCP_BLOCK) {
		ERR_raise(ERR_LIB_PROV, PROV_R_OUTPUT_BUFFER_TOO_SMALL);
		return 0;
	}
	if (!run(x, x->buf, out, BCP_BLOCK))
		return 0;
	x->bufsz = 0;
	return 1;
}

/* ECB and CBC: partial blocks wait in buf; with padding on, a decryption
 * keeps its last whole block back until final, which strips the padding. */
static int block_update(struct bcp_cctx *x, uint8_t *out, size_t *outl, size_t outsize, const uint8_t *in,
			size_t inl)
{
	size_t done = 0, whole;

	if (x->bufsz) {
		size_t take = BCP_BLOCK - x->bufsz < inl ? BCP_BLOCK - x->bufsz : inl;

		memcpy(x->buf + x->bufsz, in, take);
		x->bufsz += take;
		in += take;
		inl -= take;
	}
	if (x->bufsz == BCP_BLOCK && (x->enc || inl > 0 || !x->pad)) {
		if (!flush_block(x, out, outsize))
			return 0;
		done = BCP_BLOCK;
	}
	whole = inl & ~(size_t)(BCP_BLOCK - 1);
	if (whole && !x->enc && x->pad && whole == inl)
		whole -= BCP_BLOCK;
	if (whole) {
		if (outsize < done + whole) {
			ERR_raise(ERR_LIB_PROV, PROV_R_OUTPUT_BUFFER_TOO_SMALL);
			return 0;
		}
		if (!run(x, in, out + done, whole))
			return 0;
		done += whole;
		in += whole;
		inl -= whole;
	}
	if (inl) {   /* at most one block: the bytes after the whole blocks, or a held-back block */
		memcpy(x->buf + x->bufsz, in, inl);
		x->bufsz += inl;
	}
	*outl = done;
	return 1;
}

/* PKCS#7 padding check without a branch on the padding bytes' values. */
static size_t unpad(const uint8_t b[BCP_BLOCK])
{
	unsigned n = b[BCP_BLOCK - 1], bad = (unsigned)(n - 1) >> 8 | (unsigned)(BCP_BLOCK - n) >> 8;

	for (unsigned i = 0; i < BCP_BLOCK; i++) {
		unsigned in_pad = (unsigned)(BCP_BLOCK - 1 - i - n) >> 8 & 1;   /* i >= 16 - n */

		bad |= in_pad & ((b[i] ^ n) != 0);
	}
	return bad ? (size_t)-1 : BCP_BLOCK - n;
}

static int block_final(struct bcp_cctx *x, uint8_t *out, size_t *outl, size_t outsize)
{
	size_t n;

	if (x->enc) {
		if (x->pad) {
			memset(x->buf + x->bufsz, (int)(BCP_BLOCK - x->bufsz), BCP_BLOCK - x->bufsz);
		} else if (x->bufsz == 0) {
			*outl = 0;
			return 1;
		} else if (x->bufsz != BCP_BLOCK) {
			ERR_raise(ERR_LIB_PROV, PROV_R_WRONG_FINAL_BLOCK_LENGTH);
			return 0;
		}
		if (!flush_block(x, out, outsize))
			return 0;
		*outl = BCP_BLOCK;
		return 1;
	}
	if (x->bufsz != BCP_BLOCK) {
		if (x->bufsz == 0 && !x->pad) {
			*outl = 0;
			return 1;
		}
		ERR_raise(ERR_LIB_PROV, PROV_R_WRONG_FINAL_BLOCK_LENGTH);
		return 0;
	}
	if (!run(x, x->buf, x->buf, BCP_BLOCK))
		return 0;
	n = x->pad ? unpad(x->buf) : BCP_BLOCK;
	if (n == (size_t)-1) {
		ERR_raise(ERR_LIB_PROV, PROV_R_BAD_DECRYPT);
		return 0;
	}
	if (outsize < n) {
		ERR_raise(ERR_LIB_PROV, PROV_R_OUTPUT_BUFFER_TOO_SMALL);
		return 0;
	}
	memcpy(out, x->buf, n);
	OPENSSL_cleanse(x->buf, sizeof(x->buf));
	x->bufsz = 0;
	*outl = n;
	return 1;
}

/* CTR: the keystream of the block an update ended inside is kept (num bytes
 * of it used), so updates of any sizes give one stream. */
static int ctr_update(struct bcp_cctx *x, uint8_t *out, const uint8_t *in, size_t inl)
{
	static const uint8_t zeros[BCP_BLOCK];
	size_t n;

	if (x->num) {
		n = BCP_BLOCK - x->num < inl ? BCP_BLOCK - x->num : inl;
		for (size_t i = 0; i < n; i++)
			out[i] = in[i] ^ x->ks[x->num + i];
		x->num = (x->num + n) % BCP_BLOCK;
		in += n;
		out += n;
		inl -= n;
	}
	n = inl & ~(size_t)(BCP_BLOCK - 1);
	if (n && !run(x, in, out, n))
		return 0;
	in += n;
	out += n;
	inl -= n;
	if (inl) {
		if (bc_skcipher_encrypt(x->sk, x->iv, zeros, x->ks, BCP_BLOCK))
			return 0;
		for (size_t i = 0; i < inl; i++)
			out[i] = in[i] ^ x->ks[i];
		x->num = inl;
	}
	return 1;
}

/* CBC-CTS: the library's cts(cbc) is CS3 (the kernel's), which always
 * swaps the last two blocks: [Cn][C(n-1)*]. CS1 never swaps them, CS2 only
 * when the last block is partial. cts_rotate turns the last 16 + d bytes
 * (d: the length of the last block) from CS3's order to the other, or back. */
static void cts_rotate(uint8_t *p, size_t len, int from_cs3)
{
	uint8_t t[2 * BCP_BLOCK];
	size_t d = len % BCP_BLOCK ? len % BCP_BLOCK : BCP_BLOCK, k = from_cs3 ? BCP_BLOCK : d;

	p += len - BCP_BLOCK - d;
	memcpy(t, p + k, BCP_BLOCK + d - k);
	memcpy(t + BCP_BLOCK + d - k, p, k);
	memcpy(p, t, BCP_BLOCK + d);
	OPENSSL_cleanse(t, sizeof(t));
}

static int cts_update(struct bcp_cctx *x, uint8_t *out, const uint8_t *in, size_t inl)
{
	int swap = inl > BCP_BLOCK &&
		   (x->cts_mode == BCP_CS1 || (x->cts_mode == BCP_CS2 && inl % BCP_BLOCK == 0));
	/* where CS3 puts the last full ciphertext block */
	size_t last = inl > BCP_BLOCK ? inl - BCP_BLOCK - (inl % BCP_BLOCK ? inl % BCP_BLOCK : BCP_BLOCK) : 0;
	uint8_t next_iv[BCP_BLOCK] = { 0 };

	if (inl < BCP_BLOCK) {
		ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_INPUT_LENGTH);
		return 0;
	}
	/* OpenSSL's CTS takes the whole message in one update, and refuses a
	 * second one as its default provider does: with nothing on the error
	 * queue, which a caller that retries after re-initialising (openssl
	 * speed does) would pay for on every other call. */
	if (x->updated)
		return 0;
	if (swap && !x->enc) {
		if (out != in)
			memmove(out, in, inl);
		cts_rotate(out, inl, 0);
		in = out;
	}
	if (!x->enc)
		memcpy(next_iv, in + last, BCP_BLOCK);
	if (!run(x, in, out, inl))
		return 0;
	if (x->enc)
		memcpy(next_iv, out + last, BCP_BLOCK);
	if (swap && x->enc)
		cts_rotate(out, inl, 1);
	memcpy(x->iv, next_iv, BCP_BLOCK);   /* the last full ciphertext block, as CBC leaves it */
	x->updated = 1;
	return 1;
}

/* XTS: each update is one data unit under the IV given at init, as in OpenSSL. */
static int xts_update(struct bcp_cctx *x, uint8_t *out, const uint8_t *in, size_t inl)
{
	uint8_t tweak[BCP_BLOCK];
	int ok;

	if (inl < BCP_BLOCK) {
		ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_INPUT_LENGTH);
		return 0;
	}
	if (inl > XTS_MAX_LEN) {
		ERR_raise(ERR_LIB_PROV, PROV_R_XTS_DATA_UNIT_IS_TOO_LARGE);
		return 0;
	}
	memcpy(tweak, x->iv, BCP_BLOCK);
	if (x->gb1 && !x->xts_ieee)
		ok = bcp_xts_gb(x, in, out, inl) == 0;
	else
		ok = x->enc ? bc_skcipher_encrypt(x->sk, tweak, in, out, inl) == 0 :
			      bc_skcipher_decrypt(x->sk, tweak, in, out, inl) == 0;
	if (!ok)
		ERR_raise(ERR_LIB_PROV, PROV_R_CIPHER_OPERATION_FAILED);
	return ok;
}

/* ---- the dispatch entry points -------------------------------------------------------------- */
static int update(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
		  size_t inl)
{
	struct bcp_cctx *x = vctx;

	if (x->c->kind == BCP_GCM)
		return bcp_gcm_update(x, out, outl, outsize, in, inl);
	if (!x->keyed) {
		ERR_raise(ERR_LIB_PROV, PROV_R_NO_KEY_SET);
		return 0;
	}
	if (x->c->ivlen && !x->iv_set) {
		ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_IV_LENGTH);
		return 0;
	}
	if (x->c->kind == BCP_ECB || x->c->kind == BCP_CBC)
		return block_update(x, out, outl, outsize, in, inl);
	if (x->c->kind == BCP_CTR && !x->num && !(inl % BCP_BLOCK) && outsize >= inl) {
		/* whole blocks from a block boundary: the library's call alone */
		if (inl && !run(x, in, out, inl))
			return 0;
		*outl = inl;
		return 1;
	}
	*outl = 0;
	if (inl == 0 && x->c->kind == BCP_CTR)
		return 1;
	if (outsize < inl) {
		ERR_raise(ERR_LIB_PROV, PROV_R_OUTPUT_BUFFER_TOO_SMALL);
		return 0;
	}
	if (!(x->c->kind == BCP_CTR ? ctr_update(x, out, in, inl) :
	      x->c->kind == BCP_CTS ? cts_update(x, out, in, inl) : xts_update(x, out, in, inl)))
		return 0;
	*outl = inl;
	return 1;
}

static int final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
	struct bcp_cctx *x = vctx;

	if (x->c->kind == BCP_GCM)
		return bcp_gcm_final(x, outl);
	if (!x->keyed) {
		ERR_raise(ERR_LIB_PROV, PROV_R_NO_KEY_SET);
		return 0;
	}
	if (x->c->kind == BCP_ECB || x->c->kind == BCP_CBC)
		return block_final(x, out, outl, outsize);
	*outl = 0;
	return 1;
}

/* EVP_Cipher(): the data as it is, no buffering and no padding (GCM: in ==
 * NULL is the final). */
static int cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in, size_t inl)
{
	struct bcp_cctx *x = vctx;

	if (x->c->kind == BCP_GCM)
		return in ? bcp_gcm_update(x, out, outl, outsize, in, inl) : bcp_gcm_final(x, outl);
	if (!x->keyed) {
		ERR_raise(ERR_LIB_PROV, PROV_R_NO_KEY_SET);
		return 0;
	}
	if (outsize < inl) {
		ERR_raise(ERR_LIB_PROV, PROV_R_OUTPUT_BUFFER_TOO_SMALL);
		return 0;
	}
	if (x->c->kind == BCP_ECB || x->c->kind == BCP_CBC) {
		if (inl % BCP_BLOCK) {
			ERR_raise(ERR_LIB_PROV, PROV_R_WRONG_FINAL_BLOCK_LENGTH);
			return 0;
		}
		if (!run(x, in, out, inl))
			return 0;
		*outl = inl;
		return 1;
	}
	return update(vctx, out, outl, outsize, in, inl);
}

/* ---- context parameters ------------------------------------------------------------------------ */
static const char *const cts_names[] = { "CS1", "CS2", "CS3" };

static int get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	struct bcp_cctx *x = vctx;
	OSSL_PARAM *p;

	if (x->c->kind == BCP_GCM)
		return bcp_gcm_get_ctx_params(x, params);
	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !OSSL_PARAM_set_size_t(p, x->c->keylen))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !OSSL_PARAM_set_size_t(p, x->c->ivlen))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_PADDING)) && !OSSL_PARAM_set_uint(p, x->pad))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_NUM)) && !OSSL_PARAM_set_uint(p, (unsigned)x->num))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IV)) &&
	    !OSSL_PARAM_set_octet_ptr(p, x->oiv, x->c->ivlen) && !OSSL_PARAM_set_octet_string(p, x->oiv, x->c->ivlen))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_UPDATED_IV)) &&
	    !OSSL_PARAM_set_octet_ptr(p, x->iv, x->c->ivlen) && !OSSL_PARAM_set_octet_string(p, x->iv, x->c->ivlen))
		return 0;
	if (x->c->kind == BCP_CTS && (p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CTS_MODE)) &&
	    !OSSL_PARAM_set_utf8_string(p, cts_names[x->cts_mode]))
		return 0;
	if (x->gb1 && (p = OSSL_PARAM_locate(params, BCP_XTS_STANDARD)) &&
	    !OSSL_PARAM_set_utf8_string(p, x->xts_ieee ? "IEEE" : "GB"))
		return 0;
	return 1;
}

int bcp_cipher_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct bcp_cctx *x = vctx;
	const OSSL_PARAM *p;
	unsigned u;

	if (!params)
		return 1;
	if (x->c->kind == BCP_GCM)
		return bcp_gcm_set_ctx_params(x, params);
	if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_PADDING))) {
		if (!OSSL_PARAM_get_uint(p, &u)) {
			ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_GET_PARAMETER);
			return 0;
		}
		x->pad = u != 0;
	}
	if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_NUM))) {
		if (!OSSL_PARAM_get_uint(p, &u) || u >= BCP_BLOCK) {
			ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_GET_PARAMETER);
			return 0;
		}
		x->num = u;
	}
	if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN))) {
		size_t keylen;

		if (!OSSL_PARAM_get_size_t(p, &keylen) || keylen != x->c->keylen) {
			ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_KEY_LENGTH);
			return 0;
		}
	}
	if (x->c->kind == BCP_CTS && (p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_CTS_MODE))) {
		size_t i;

		for (i = 0; i < 3; i++)
			if (p->data_type == OSSL_PARAM_UTF8_STRING && !strcasecmp(p->data, cts_names[i]))
				break;
		if (i == 3) {
			ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_MODE);
			return 0;
		}
		x->cts_mode = (enum bcp_cts)i;
	}
	if (x->gb1 && (p = OSSL_PARAM_locate_const(params, BCP_XTS_STANDARD))) {
		if (p->data_type != OSSL_PARAM_UTF8_STRING ||
		    (strcasecmp(p->data, "GB") && strcasecmp(p->data, "IEEE"))) {
			ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_SET_PARAMETER);
			return 0;
		}
		x->xts_ieee = !strcasecmp(p->data, "IEEE");
	}
	return 1;
}

/* The context parameters every non-AEAD cipher has, then each kind's own. */
#define GETTABLE_COMMON \
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL), OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL), \
	OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL), OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, NULL), \
	OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0), \
	OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0)
#define SETTABLE_COMMON OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL), OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, NULL)

static const OSSL_PARAM gettable_ctx[] = { GETTABLE_COMMON, OSSL_PARAM_END };
static const OSSL_PARAM settable_ctx[] = { SETTABLE_COMMON, OSSL_PARAM_END };
static const OSSL_PARAM gettable_ctx_cts[] = {
	GETTABLE_COMMON, OSSL_PARAM_utf8_string(OSSL_CIPHER_PARAM_CTS_MODE, NULL, 0), OSSL_PARAM_END
};
static const OSSL_PARAM settable_ctx_cts[] = {
	SETTABLE_COMMON, OSSL_PARAM_utf8_string(OSSL_CIPHER_PARAM_CTS_MODE, NULL, 0), OSSL_PARAM_END
};
static const OSSL_PARAM gettable_ctx_xts_std[] = {
	GETTABLE_COMMON, OSSL_PARAM_utf8_string(BCP_XTS_STANDARD, NULL, 0), OSSL_PARAM_END
};
static const OSSL_PARAM settable_ctx_xts_std[] = {
	SETTABLE_COMMON, OSSL_PARAM_utf8_string(BCP_XTS_STANDARD, NULL, 0), OSSL_PARAM_END
};

static const OSSL_PARAM *gettable_for(const struct bcp_cipher *c)
{
	return c->kind == BCP_GCM ? bcp_gcm_gettable : c->kind == BCP_CTS ? gettable_ctx_cts :
	       is_sm4_xts(c) ? gettable_ctx_xts_std : gettable_ctx;
}

static const OSSL_PARAM *settable_for(const struct bcp_cipher *c)
{
	return c->kind == BCP_GCM ? bcp_gcm_settable : c->kind == BCP_CTS ? settable_ctx_cts :
	       is_sm4_xts(c) ? settable_ctx_xts_std : settable_ctx;
}

/* ---- one dispatch table per algorithm: OpenSSL's newctx, get_params and
 * the parameter lists take no context, so each algorithm has its own. */
#define FN(f) ((void (*)(void))(f))
#define ALG(i) \
	static void *newctx_##i(void *provctx) { (void)provctx; return newctx(&bcp_ciphers[i]); } \
	static int get_params_##i(OSSL_PARAM params[]) { return bcp_cipher_get_params(&bcp_ciphers[i], params); } \
	static const OSSL_PARAM *gettable_ctx_##i(void *cctx, void *provctx) \
	{ (void)cctx; (void)provctx; return gettable_for(&bcp_ciphers[i]); } \
	static const OSSL_PARAM *settable_ctx_##i(void *cctx, void *provctx) \
	{ (void)cctx; (void)provctx; return settable_for(&bcp_ciphers[i]); } \
	static const OSSL_DISPATCH dispatch_##i[] = { \
		{ OSSL_FUNC_CIPHER_NEWCTX, FN(newctx_##i) }, \
		{ OSSL_FUNC_CIPHER_FREECTX, FN(freectx) }, \
		{ OSSL_FUNC_CIPHER_DUPCTX, FN(dupctx) }, \
		{ OSSL_FUNC_CIPHER_ENCRYPT_INIT, FN(einit) }, \
		{ OSSL_FUNC_CIPHER_DECRYPT_INIT, FN(dinit) }, \
		{ OSSL_FUNC_CIPHER_UPDATE, FN(update) }, \
		{ OSSL_FUNC_CIPHER_FINAL, FN(final) }, \
		{ OSSL_FUNC_CIPHER_CIPHER, FN(cipher) }, \
		{ OSSL_FUNC_CIPHER_GET_PARAMS, FN(get_params_##i) }, \
		{ OSSL_FUNC_CIPHER_GETTABLE_PARAMS, FN(bcp_cipher_gettable_params) }, \
		{ OSSL_FUNC_CIPHER_GET_CTX_PARAMS, FN(get_ctx_params) }, \
		{ OSSL_FUNC_CIPHER_SET_CTX_PARAMS, FN(bcp_cipher_set_ctx_params) }, \
		{ OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, FN(gettable_ctx_##i) }, \
		{ OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, FN(settable_ctx_##i) }, \
		{ 0, NULL } \
	};
ALG(0) ALG(1) ALG(2) ALG(3) ALG(4) ALG(5) ALG(6) ALG(7) ALG(8) ALG(9) ALG(10) ALG(11) ALG(12) ALG(13) ALG(14)
ALG(15) ALG(16) ALG(17) ALG(18) ALG(19) ALG(20) ALG(21)

const OSSL_DISPATCH *const bcp_cipher_dispatch[] = {
	dispatch_0, dispatch_1, dispatch_2, dispatch_3, dispatch_4, dispatch_5, dispatch_6, dispatch_7,
	dispatch_8, dispatch_9, dispatch_10, dispatch_11, dispatch_12, dispatch_13, dispatch_14, dispatch_15,
	dispatch_16, dispatch_17, dispatch_18, dispatch_19, dispatch_20, dispatch_21,
};
_Static_assert(sizeof(bcp_cipher_dispatch) / sizeof(bcp_cipher_dispatch[0]) ==
	       sizeof(bcp_ciphers) / sizeof(bcp_ciphers[0]), "one dispatch table per cipher");
