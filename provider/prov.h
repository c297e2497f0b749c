/* blockcrypt OpenSSL 3 provider: what its parts share (algorithm descriptors, parameter helpers).
 * OpenSSL provider API: provider-base(7), provider-cipher(7), provider-mac(7). */
#ifndef BCP_PROV_H
#define BCP_PROV_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/proverr.h>

#include "blockcrypt.h"

/* How the provider drives the library for a cipher. */
enum bcp_kind { BCP_ECB, BCP_CBC, BCP_CTR, BCP_CTS, BCP_XTS, BCP_GCM };

/* One cipher as OpenSSL names and sizes it, and the library algorithm behind it. */
struct bcp_cipher {
	const char *names;          /* OpenSSL's name, e.g. "AES-128-CBC" */
	const char *bc_name;        /* the library's, e.g. "cbc(aes)" */
	enum bcp_kind kind;
	unsigned mode;              /* EVP_CIPH_*_MODE */
	size_t keylen, ivlen, blocksize;
};

/* The dispatch tables (cipher.c, gcm.c, cmac.c), one per algorithm, in the
 * order of bcp_ciphers[]. */
extern const struct bcp_cipher bcp_ciphers[];
extern const size_t bcp_ncipher;
extern const OSSL_DISPATCH *const bcp_cipher_dispatch[];
extern const OSSL_DISPATCH bcp_cmac_dispatch[];

/* Fills params with the algorithm's constant parameters (provider-cipher(7)
 * "Cipher Parameters"), as OpenSSL's own ciphers report them. */
int bcp_cipher_get_params(const struct bcp_cipher *c, OSSL_PARAM params[]);
const OSSL_PARAM *bcp_cipher_gettable_params(void *provctx);

/* The library's error (a negative errno) as an OpenSSL error on the queue. */
void bcp_raise(int err, const char *what);

#endif
