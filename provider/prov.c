/* blockcrypt OpenSSL 3 provider: the entry point, the algorithm tables, errors.
 * OpenSSL provider API (provider(7), provider-base(7)); every algorithm carries "provider=blockcrypt". */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "prov.h"

#define PROPS "provider=blockcrypt"

/* The library's error as an OpenSSL one: what was refused and why. */
void bcp_raise(int err, const char *what)
{
	int reason = err == -EBADMSG ? PROV_R_BAD_DECRYPT :
		     err == -ENOMEM ? ERR_R_MALLOC_FAILURE :
		     err == -ENOKEY ? PROV_R_NO_KEY_SET : PROV_R_CIPHER_OPERATION_FAILED;

	ERR_raise_data(ERR_LIB_PROV, reason, "blockcrypt: %s: %s", what, strerror(-err));
}

/* What the provider offers: each cipher and CMAC whose library algorithm
 * allocates, that is whose best driver passed its known-answer test, when
 * the provider is loaded. An algorithm that fails is not offered at all. */
static OSSL_ALGORITHM ciphers[32], macs[2];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static int alg_usable(const char *bc_name, int aead)
{
	bc_skcipher *sk;
	bc_aead *a;
	bc_aead_req *r;
	int ok;

	if (!aead) {
		ok = bc_skcipher_alloc(&sk, bc_name) == 0;
		bc_skcipher_free(sk);
		return ok;
	}
	ok = bc_aead_alloc(&a, bc_name) == 0 && bc_aead_req_alloc(&r, a) == 0;
	if (ok)
		bc_aead_req_free(r);
	bc_aead_free(a);
	return ok;
}

static void build_tables(void)
{
	size_t n = 0;
	bc_shash *mac;

	for (size_t i = 0; i < bcp_ncipher && n + 1 < sizeof(ciphers) / sizeof(ciphers[0]); i++)
		if (alg_usable(bcp_ciphers[i].bc_name, bcp_ciphers[i].kind == BCP_GCM))
			ciphers[n++] = (OSSL_ALGORITHM){ bcp_ciphers[i].names, PROPS, bcp_cipher_dispatch[i],
							 NULL };
	if (bc_shash_alloc(&mac, "cmac(aes)") == 0)
		macs[0] = (OSSL_ALGORITHM){ "CMAC", PROPS, bcp_cmac_dispatch, NULL };
	bc_shash_free(mac);
}

static const OSSL_ALGORITHM *query(void *provctx, int operation_id, int *no_cache)
{
	(void)provctx;
	*no_cache = 0;
	pthread_once(&tables_once, build_tables);
	switch (operation_id) {
	case OSSL_OP_CIPHER:
		return ciphers;
	case OSSL_OP_MAC:
		return macs;
	}
	return NULL;
}

static const OSSL_PARAM *gettable_params(void *provctx)
{
	static const OSSL_PARAM p[] = {
		OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0),
		OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0),
		OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0),
		OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, 0),
		OSSL_PARAM_END
	};

	(void)provctx;
	return p;
}

static int get_params(void *provctx, OSSL_PARAM params[])
{
	OSSL_PARAM *p;

	(void)provctx;
	if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) && !OSSL_PARAM_set_utf8_ptr(p, "blockcrypt"))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) && !OSSL_PARAM_set_utf8_ptr(p, BLOCKCRYPT_VERSION_STRING))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) &&
	    !OSSL_PARAM_set_utf8_ptr(p, bc_cpu_features_string()))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) && !OSSL_PARAM_set_int(p, 1))
		return 0;
	return 1;
}

static void teardown(void *provctx)
{
	(void)provctx;
}

static const OSSL_DISPATCH provider_dispatch[] = {
	{ OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))teardown },
	{ OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))gettable_params },
	{ OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))get_params },
	{ OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))query },
	{ 0, NULL }
};

/* The only exported symbol. The provider context is unused: the library keeps no per-context state. */
__attribute__((visibility("default"))) int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
				      const OSSL_DISPATCH **out, void **provctx);
int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in, const OSSL_DISPATCH **out,
		       void **provctx)
{
	(void)in;
	pthread_once(&tables_once, build_tables);
	if (!ciphers[0].algorithm_names)
		return 0;     /* nothing passed its self-test: refuse to load */
	*out = provider_dispatch;
	*provctx = (void *)handle;
	return 1;
}
