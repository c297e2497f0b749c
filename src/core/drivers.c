/* blockcrypt: the tables of dedicated drivers the registry chooses from.
 * Template instances (cbc(aes-generic), ...) are built on demand by src/core/registry.c. */
#include "drivers.h"

const struct bc_cipher_alg *const bc_cipher_drivers[] = {
	&bc_aes_generic,
	&bc_sm4_generic,
#if defined(__x86_64__) || defined(__i386__)
	/* x86 AES (issue 4) */
	&bc_aes_aesni,
	/* x86 SM4 (issue 6) */
#endif
#if defined(__aarch64__)
	/* arm64 (issue 7) */
#endif
	NULL
};

const struct bc_skcipher_alg *const bc_skcipher_drivers[] = {
#if defined(__x86_64__) || defined(__i386__)
	/* x86 AES (issue 4) */
	&bc_ecb_aes_aesni,
	&bc_cbc_aes_aesni,
	&bc_ctr_aes_aesni,
	&bc_xts_aes_aesni,
	/* x86 SM4 (issue 6) */
#endif
#if defined(__aarch64__)
	/* arm64 (issue 7) */
#endif
	NULL
};

const struct bc_aead_alg *const bc_aead_drivers[] = {
#if defined(__x86_64__) || defined(__i386__)
	/* x86 GCM (issue 5) */
	&bc_gcm_aes_aesni,
#if defined(__x86_64__)
	&bc_gcm_aes_vaes_avx2,
#endif
	/* x86 SM4 (issue 6) */
#endif
#if defined(__aarch64__)
	/* arm64 (issue 7) */
#endif
	NULL
};

const struct bc_shash_alg *const bc_shash_drivers[] = {
	&bc_sha256_generic,
	&bc_sm3_generic,
	&bc_ghash_generic,
#if defined(__x86_64__) || defined(__i386__)
	/* x86 GHASH (issue 5) */
	&bc_ghash_pclmul,
	&bc_ghash_vpclmul_avx2,
	/* x86 MACs (issue 4 / issue 6) */
#endif
#if defined(__aarch64__)
	/* arm64 (issue 7) */
#endif
	NULL
};
