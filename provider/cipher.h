/* blockcrypt OpenSSL 3 provider: the cipher context the modes share (cipher.c) with GCM (gcm.c).
 * provider-cipher(7). */
#ifndef BCP_CIPHER_H
#define BCP_CIPHER_H

#include "prov.h"

#define BCP_BLOCK 16
#define BCP_GCM_IV_MAX 128           /* the longest GCM IV OpenSSL's default provider takes */

enum bcp_cts { BCP_CS1, BCP_CS2, BCP_CS3 };
enum bcp_iv_state { IV_UNSET, IV_BUFFERED, IV_STARTED, IV_FINISHED };

struct bcp_cctx {
	const struct bcp_cipher *c;
	bc_skcipher *sk;                 /* all but GCM */
	bc_skcipher *gb1, *gb2;          /* SM4-XTS: ecb(sm4) under each key half, for the GB tweak */
	int xts_ieee;                    /* SM4-XTS: xts_standard IEEE (else GB, OpenSSL's default) */
	bc_aead *aead;                   /* GCM */
	bc_aead_req *req;
	uint8_t key[64];                 /* kept for dupctx */
	int keyed, enc, pad, updated;
	enum bcp_cts cts_mode;
	uint8_t iv[BCP_GCM_IV_MAX];      /* current IV: cbc/ctr chaining value; the GCM IV */
	uint8_t oiv[BCP_BLOCK];          /* the IV given at init */
	size_t ivlen;
	int iv_set;
	uint8_t buf[BCP_BLOCK];          /* ECB/CBC: a partial or held-back block */
	size_t bufsz;
	uint8_t ks[BCP_BLOCK];           /* CTR: keystream of the current block */
	size_t num;                      /* CTR: bytes of ks used */
	/* GCM */
	enum bcp_iv_state iv_state;
	uint8_t tag[BCP_BLOCK];
	size_t taglen;                   /* 0: not set */
};

int bcp_cipher_set_ctx_params(void *vctx, const OSSL_PARAM params[]);
/* SM4-XTS as GB/T 17964-2021: one data unit of len >= 16 bytes; 0 or a negative errno. */
int bcp_xts_gb(struct bcp_cctx *x, const uint8_t *in, uint8_t *out, size_t len);
#define BCP_XTS_STANDARD "xts_standard"  /* OSSL_CIPHER_PARAM_XTS_STANDARD of OpenSSL 3.2 */

int  bcp_gcm_new(struct bcp_cctx *x);
void bcp_gcm_free(struct bcp_cctx *x);
int  bcp_gcm_dup(struct bcp_cctx *d, const struct bcp_cctx *x);   /* 0 or a negative errno */
int  bcp_gcm_init(struct bcp_cctx *x, const uint8_t *iv, size_t ivlen);
int  bcp_gcm_update(struct bcp_cctx *x, uint8_t *out, size_t *outl, size_t outsize, const uint8_t *in, size_t inl);
int  bcp_gcm_final(struct bcp_cctx *x, size_t *outl);
int  bcp_gcm_get_ctx_params(struct bcp_cctx *x, OSSL_PARAM params[]);
int  bcp_gcm_set_ctx_params(struct bcp_cctx *x, const OSSL_PARAM params[]);
extern const OSSL_PARAM bcp_gcm_gettable[], bcp_gcm_settable[];

#endif
