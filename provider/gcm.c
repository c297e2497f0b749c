/* blockcrypt OpenSSL 3 provider: GCM over AES and SM4 through the library's incremental gcm (bc_aead_req).
 * provider-cipher(7) AEAD parameters; IV, tag and AAD rules as OpenSSL's default provider (NIST SP 800-38D). */
#include <string.h>

#include <openssl/crypto.h>

#include "cipher.h"

int bcp_gcm_new(struct bcp_cctx *x)
{
	int err = bc_aead_alloc(&x->aead, x->c->bc_name);

	if (!err)
		err = bc_aead_req_alloc(&x->req, x->aead);
	return err;
}

void bcp_gcm_free(struct bcp_cctx *x)
{
	bc_aead_req_free(x->req);
	bc_aead_free(x->aead);
}

/* The copy gets the key and the message under way, which both continue. */
int bcp_gcm_dup(struct bcp_cctx *d, const struct bcp_cctx *x)
{
	int err = bc_aead_setkey(d->aead, x->key, x->c->keylen);

	if (!err && x->iv_state == IV_STARTED)
		err = bc_aead_req_copy(d->req, x->req);
	return err;
}

int bcp_gcm_init(struct bcp_cctx *x, const uint8_t *iv, size_t ivlen)
{
	if (iv) {
		if (ivlen == 0 || ivlen > BCP_GCM_IV_MAX) {
			ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_IV_LENGTH);
			return 0;
		}
		memcpy(x->iv, iv, ivlen);
		x->ivlen = ivlen;
		x->iv_state = IV_BUFFERED;
	}
	return 1;
}

/* The message starts at its first AAD, text or final. */
static int started(struct bcp_cctx *x)
{
	int err;

	if (!x->keyed || x->iv_state == IV_FINISHED || x->iv_state == IV_UNSET) {
		ERR_raise(ERR_LIB_PROV, x->keyed ? PROV_R_INVALID_IV_LENGTH : PROV_R_NO_KEY_SET);
		return 0;
	}
	if (x->iv_state == IV_BUFFERED) {
		err = bc_aead_start(x->req, x->enc, x->iv, x->ivlen);
		if (err) {
			bcp_raise(err, x->c->bc_name);
			return 0;
		}
		x->iv_state = IV_STARTED;
	}
	return 1;
}

/* out == NULL: in is AAD. */
int bcp_gcm_update(struct bcp_cctx *x, uint8_t *out, size_t *outl, size_t outsize, const uint8_t *in, size_t inl)
{
	int err;

	*outl = 0;
	if (inl == 0)
		return 1;
	if (out && outsize < inl) {
		ERR_raise(ERR_LIB_PROV, PROV_R_OUTPUT_BUFFER_TOO_SMALL);
		return 0;
	}
	if (!started(x))
		return 0;
	err = out ? bc_aead_update(x->req, in, out, inl) : bc_aead_update_ad(x->req, in, inl);
	if (err) {
		bcp_raise(err, x->c->bc_name);
		return 0;
	}
	*outl = inl;
	return 1;
}

/* Encryption keeps the 16-byte tag for OSSL_CIPHER_PARAM_AEAD_TAG; decryption
 * compares the tag set before (its length: 1 to 16 bytes) in constant time. */
int bcp_gcm_final(struct bcp_cctx *x, size_t *outl)
{
	uint8_t tag[BCP_BLOCK];
	int ok;

	*outl = 0;
	if (!started(x))
		return 0;
	if (!x->enc && !x->taglen) {
		ERR_raise(ERR_LIB_PROV, PROV_R_TAG_NOT_SET);
		return 0;
	}
	ok = bc_aead_final(x->req, tag) == 0;
	x->iv_state = IV_FINISHED;
	if (ok && x->enc) {
		memcpy(x->tag, tag, BCP_BLOCK);
		x->taglen = BCP_BLOCK;
	} else if (ok && CRYPTO_memcmp(tag, x->tag, x->taglen)) {
		ERR_raise(ERR_LIB_PROV, PROV_R_BAD_DECRYPT);
		ok = 0;
	}
	OPENSSL_cleanse(tag, sizeof(tag));
	return ok;
}

int bcp_gcm_get_ctx_params(struct bcp_cctx *x, OSSL_PARAM params[])
{
	OSSL_PARAM *p;

	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !OSSL_PARAM_set_size_t(p, x->c->keylen))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !OSSL_PARAM_set_size_t(p, x->ivlen))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAGLEN)) &&
	    !OSSL_PARAM_set_size_t(p, x->taglen ? x->taglen : BCP_BLOCK))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IV)) || (p = OSSL_PARAM_locate(params,
	    OSSL_CIPHER_PARAM_UPDATED_IV))) {
		if (x->iv_state == IV_UNSET || x->ivlen > p->data_size) {
			ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_IV_LENGTH);
			return 0;
		}
		if (!OSSL_PARAM_set_octet_string(p, x->iv, x->ivlen) && !OSSL_PARAM_set_octet_ptr(p, x->iv, x->ivlen))
			return 0;
	}
	if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAG))) {
		if (!x->enc || x->taglen == 0 || p->data_size == 0 || p->data_size > BCP_BLOCK) {
			ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_TAG);
			return 0;
		}
		if (!OSSL_PARAM_set_octet_string(p, x->tag, p->data_size))
			return 0;
	}
	return 1;
}

int bcp_gcm_set_ctx_params(struct bcp_cctx *x, const OSSL_PARAM params[])
{
	const OSSL_PARAM *p;
	size_t sz;

	if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG))) {
		void *v = x->tag;

		if (!OSSL_PARAM_get_octet_string(p, &v, BCP_BLOCK, &sz)) {
			ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_GET_PARAMETER);
			return 0;
		}
		if (sz == 0 || x->enc) {
			ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_TAG);
			return 0;
		}
		x->taglen = sz;
	}
	if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_IVLEN))) {
		if (!OSSL_PARAM_get_size_t(p, &sz)) {
			ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_GET_PARAMETER);
			return 0;
		}
		if (sz == 0 || sz > BCP_GCM_IV_MAX) {
			ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_IV_LENGTH);
			return 0;
		}
		x->ivlen = sz;
	}
	return 1;
}

const OSSL_PARAM bcp_gcm_gettable[] = {
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
	OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
	OSSL_PARAM_END
};

const OSSL_PARAM bcp_gcm_settable[] = {
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, NULL),
	OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
	OSSL_PARAM_END
};
