/* blockcrypt OpenSSL 3 provider: CMAC over AES and SM4 ("cipher" parameter AES-128/192/256-CBC, SM4-CBC).
 * provider-mac(7); NIST SP 800-38B through the library's cmac(aes) and cmac(sm4). */
#include <string.h>
#include <strings.h>

#include <openssl/crypto.h>

#include "prov.h"

/* The ciphers CMAC takes, by OpenSSL's names (CBC, as its CMAC requires). */
static const struct {
	const char *name, *bc_name;
	size_t keylen;
} cmac_ciphers[] = {
	{ "AES-128-CBC", "cmac(aes)", 16 }, { "AES-192-CBC", "cmac(aes)", 24 },
	{ "AES-256-CBC", "cmac(aes)", 32 }, { "SM4-CBC", "cmac(sm4)", 16 },
};

struct cmac_ctx {
	bc_shash *tfm;                   /* NULL until a cipher is chosen */
	size_t cipher;                   /* index in cmac_ciphers */
	int keyed;
};

static void *newctx(void *provctx)
{
	(void)provctx;
	return OPENSSL_zalloc(sizeof(struct cmac_ctx));
}

static void freectx(void *vctx)
{
	struct cmac_ctx *m = vctx;

	if (m) {
		bc_shash_free(m->tfm);
		OPENSSL_clear_free(m, sizeof(*m));
	}
}

static int setkey(struct cmac_ctx *m, const uint8_t *key, size_t keylen)
{
	int err;

	if (!m->tfm) {
		ERR_raise(ERR_LIB_PROV, PROV_R_MISSING_CIPHER);
		return 0;
	}
	if (keylen != cmac_ciphers[m->cipher].keylen) {
		ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_KEY_LENGTH);
		return 0;
	}
	err = bc_shash_setkey(m->tfm, key, keylen);
	if (err) {
		bcp_raise(err, cmac_ciphers[m->cipher].bc_name);
		return 0;
	}
	m->keyed = 1;
	return 1;
}

/* A copy carries the key and the message under way (bc_shash_dup); like
 * OpenSSL's, only a keyed context can be copied. */
static void *dupctx(void *vctx)
{
	const struct cmac_ctx *m = vctx;
	struct cmac_ctx *d = m->keyed ? newctx(NULL) : NULL;

	if (!d)
		return NULL;
	*d = *m;
	d->tfm = NULL;
	if (m->tfm && bc_shash_dup(&d->tfm, m->tfm)) {
		freectx(d);
		return NULL;
	}
	return d;
}

static int set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct cmac_ctx *m = vctx;
	const OSSL_PARAM *p;

	if (!params)
		return 1;
	if ((p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_CIPHER))) {
		size_t i, n = sizeof(cmac_ciphers) / sizeof(cmac_ciphers[0]);
		int err;

		if (p->data_type != OSSL_PARAM_UTF8_STRING) {
			ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_GET_PARAMETER);
			return 0;
		}
		for (i = 0; i < n && strcasecmp(p->data, cmac_ciphers[i].name); i++)
			;
		if (i == n) {
			ERR_raise_data(ERR_LIB_PROV, PROV_R_INVALID_MODE, "blockcrypt CMAC takes %s",
				       "AES-128-CBC, AES-192-CBC, AES-256-CBC or SM4-CBC");
			return 0;
		}
		bc_shash_free(m->tfm);
		m->tfm = NULL;
		m->keyed = 0;
		err = bc_shash_alloc(&m->tfm, cmac_ciphers[i].bc_name);
		if (err) {
			bcp_raise(err, cmac_ciphers[i].bc_name);
			return 0;
		}
		m->cipher = i;
	}
	if ((p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_KEY))) {
		if (p->data_type != OSSL_PARAM_OCTET_STRING || !setkey(m, p->data, p->data_size))
			return 0;
	}
	return 1;
}

/* With a key: keyed afresh; without: the same key, a new message. */
static int init(void *vctx, const unsigned char *key, size_t keylen, const OSSL_PARAM params[])
{
	struct cmac_ctx *m = vctx;

	if (!set_ctx_params(m, params))
		return 0;
	if (key)
		return setkey(m, key, keylen);
	if (!m->keyed) {
		ERR_raise(ERR_LIB_PROV, PROV_R_NO_KEY_SET);
		return 0;
	}
	return bc_shash_init(m->tfm) == 0;
}

static int update(void *vctx, const unsigned char *in, size_t inl)
{
	struct cmac_ctx *m = vctx;

	if (!m->keyed) {
		ERR_raise(ERR_LIB_PROV, PROV_R_NO_KEY_SET);
		return 0;
	}
	return bc_shash_update(m->tfm, in, inl) == 0;
}

static int final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
	struct cmac_ctx *m = vctx;

	if (!m->keyed) {
		ERR_raise(ERR_LIB_PROV, PROV_R_NO_KEY_SET);
		return 0;
	}
	if (outsize < 16) {
		ERR_raise(ERR_LIB_PROV, PROV_R_OUTPUT_BUFFER_TOO_SMALL);
		return 0;
	}
	*outl = 16;
	return bc_shash_final(m->tfm, out) == 0;
}

static int get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	struct cmac_ctx *m = vctx;
	OSSL_PARAM *p;
	size_t size = m->tfm ? 16 : 0;

	if ((p = OSSL_PARAM_locate(params, OSSL_MAC_PARAM_SIZE)) && !OSSL_PARAM_set_size_t(p, size))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_MAC_PARAM_BLOCK_SIZE)) && !OSSL_PARAM_set_size_t(p, size))
		return 0;
	return 1;
}

static const OSSL_PARAM *gettable_ctx_params(void *cctx, void *provctx)
{
	static const OSSL_PARAM p[] = {
		OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
		OSSL_PARAM_size_t(OSSL_MAC_PARAM_BLOCK_SIZE, NULL),
		OSSL_PARAM_END
	};

	(void)cctx;
	(void)provctx;
	return p;
}

static const OSSL_PARAM *settable_ctx_params(void *cctx, void *provctx)
{
	static const OSSL_PARAM p[] = {
		OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_CIPHER, NULL, 0),
		OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_PROPERTIES, NULL, 0),
		OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0),
		OSSL_PARAM_END
	};

	(void)cctx;
	(void)provctx;
	return p;
}

#define FN(f) ((void (*)(void))(f))
const OSSL_DISPATCH bcp_cmac_dispatch[] = {
	{ OSSL_FUNC_MAC_NEWCTX, FN(newctx) },
	{ OSSL_FUNC_MAC_DUPCTX, FN(dupctx) },
	{ OSSL_FUNC_MAC_FREECTX, FN(freectx) },
	{ OSSL_FUNC_MAC_INIT, FN(init) },
	{ OSSL_FUNC_MAC_UPDATE, FN(update) },
	{ OSSL_FUNC_MAC_FINAL, FN(final) },
	{ OSSL_FUNC_MAC_GET_CTX_PARAMS, FN(get_ctx_params) },
	{ OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS, FN(gettable_ctx_params) },
	{ OSSL_FUNC_MAC_SET_CTX_PARAMS, FN(set_ctx_params) },
	{ OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS, FN(settable_ctx_params) },
	{ 0, NULL }
};
