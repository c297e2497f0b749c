/* blockcrypt: the tables of dedicated drivers the registry chooses from.
 * Template instances (cbc(aes-generic), ...) are built on demand by src/core/registry.c. */
#include "drivers.h"

const struct bc_cipher_alg *const bc_cipher_drivers[] = {
	&bc_aes_generic,
	&bc_sm4_generic,
	&bc_des_generic,
	&bc_des3_ede_generic,
	&bc_twofish_generic,
	&bc_serpent_generic,
	&bc_camellia_generic,
#if defined(__x86_64__) || defined(__i386__)
	/* x86 AES */
	&bc_aes_aesni,
	/* x86 SM4 */
	&bc_sm4_aesni_avx,
	&bc_sm4_aesni_avx2,
	&bc_sm4_vaes_avx2,
	&bc_sm4_gfni_avx2,
#if defined(__x86_64__)
	&bc_sm4_gfni_avx512,
#endif
	/* x86 DES */
	&bc_des_avx2,
	&bc_des3_ede_avx2,
#if defined(__x86_64__)
	&bc_des_avx512,
	&bc_des3_ede_avx512,
	/* x86-64 Serpent */
	&bc_serpent_avx2,
	&bc_serpent_avx512,
#endif
#if defined(__x86_64__)
	/* x86-64 Twofish */
	&bc_twofish_avx512,
#endif
#if defined(__x86_64__)
	/* x86-64 Camellia */
	&bc_camellia_aesni_avx2, &bc_camellia_gfni_avx512,
#endif
#endif
#if defined(__aarch64__)
	/* arm64 */
	&bc_aes_ce,
	&bc_sm4_ce,
	&bc_aes_neon,
#endif
	NULL
};

const struct bc_skcipher_alg *const bc_skcipher_drivers[] = {
	&bc_chacha20_generic, &bc_xchacha20_generic, &bc_xchacha12_generic,
#if defined(__x86_64__) || defined(__i386__)
	/* x86 AES */
	&bc_ecb_aes_aesni,
	&bc_cbc_aes_aesni,
	&bc_ctr_aes_aesni,
	&bc_xts_aes_aesni,
	&bc_xctr_aes_aesni,
#if defined(__x86_64__)
	&bc_ecb_aes_vaes_avx2,
	&bc_cbc_aes_vaes_avx2,
	&bc_ctr_aes_vaes_avx2,
	&bc_xts_aes_vaes_avx2,
	&bc_xctr_aes_vaes_avx2,
	&bc_ecb_aes_vaes_avx512,
	&bc_cbc_aes_vaes_avx512,
	&bc_ctr_aes_vaes_avx512,
	&bc_xts_aes_vaes_avx512,
	&bc_xctr_aes_vaes_avx512,
#endif
	/* x86 SM4 */
	&bc_ecb_sm4_aesni_avx, &bc_cbc_sm4_aesni_avx, &bc_ctr_sm4_aesni_avx, &bc_xts_sm4_aesni_avx,
	&bc_ecb_sm4_aesni_avx2, &bc_cbc_sm4_aesni_avx2, &bc_ctr_sm4_aesni_avx2, &bc_xts_sm4_aesni_avx2,
	&bc_ecb_sm4_vaes_avx2, &bc_cbc_sm4_vaes_avx2, &bc_ctr_sm4_vaes_avx2, &bc_xts_sm4_vaes_avx2,
	&bc_ecb_sm4_gfni_avx2, &bc_cbc_sm4_gfni_avx2, &bc_ctr_sm4_gfni_avx2, &bc_xts_sm4_gfni_avx2,
#if defined(__x86_64__)
	&bc_ecb_sm4_gfni_avx512, &bc_cbc_sm4_gfni_avx512, &bc_ctr_sm4_gfni_avx512, &bc_xts_sm4_gfni_avx512,
	/* x86-64 Twofish */
	&bc_ecb_twofish_avx512, &bc_cbc_twofish_avx512, &bc_ctr_twofish_avx512, &bc_xts_twofish_avx512,
	/* x86-64 Serpent */
	&bc_ecb_serpent_avx2, &bc_cbc_serpent_avx2, &bc_ctr_serpent_avx2, &bc_xts_serpent_avx2,
	&bc_ecb_serpent_avx512, &bc_cbc_serpent_avx512, &bc_ctr_serpent_avx512, &bc_xts_serpent_avx512,
#endif
#if defined(__x86_64__)
	/* x86-64 ChaCha */
	&bc_chacha20_ssse3, &bc_xchacha20_ssse3, &bc_xchacha12_ssse3,
	&bc_chacha20_avx2, &bc_xchacha20_avx2, &bc_xchacha12_avx2,
	&bc_chacha20_avx512, &bc_xchacha20_avx512, &bc_xchacha12_avx512,
	/* x86-64 Camellia */
	&bc_ecb_camellia_aesni_avx2, &bc_cbc_camellia_aesni_avx2, &bc_ctr_camellia_aesni_avx2,
	&bc_xts_camellia_aesni_avx2,
	&bc_ecb_camellia_gfni_avx512, &bc_cbc_camellia_gfni_avx512, &bc_ctr_camellia_gfni_avx512,
	&bc_xts_camellia_gfni_avx512,
#endif
#endif
#if defined(__aarch64__)
	/* arm64 */
	&bc_ecb_aes_ce, &bc_cbc_aes_ce, &bc_ctr_aes_ce, &bc_xts_aes_ce, &bc_xctr_aes_ce,
	&bc_ecb_sm4_ce, &bc_cbc_sm4_ce, &bc_ctr_sm4_ce, &bc_xts_sm4_ce,
	&bc_ecb_aes_neon, &bc_cbc_aes_neon, &bc_ctr_aes_neon, &bc_xts_aes_neon,
	&bc_chacha20_neon, &bc_xchacha20_neon, &bc_xchacha12_neon,
#endif
	NULL
};

const struct bc_aead_alg *const bc_aead_drivers[] = {
#if defined(__x86_64__) || defined(__i386__)
	/* x86 GCM */
	&bc_gcm_aes_aesni,
#if defined(__x86_64__)
	&bc_gcm_aes_vaes_avx2,
	&bc_gcm_aes_vaes_avx512,
#endif
	/* x86 CCM */
	&bc_ccm_aes_aesni,
	/* x86 SM4 */
	&bc_gcm_sm4_aesni_avx,
	&bc_gcm_sm4_aesni_avx2,
	&bc_gcm_sm4_vaes_avx2,
	&bc_gcm_sm4_gfni_avx2,
#if defined(__x86_64__)
	&bc_gcm_sm4_gfni_avx512,
#endif
#endif
#if defined(__aarch64__)
	/* arm64 */
	&bc_gcm_aes_ce,
	&bc_gcm_sm4_ce,
	&bc_ccm_aes_ce,
#endif
	NULL
};

const struct bc_shash_alg *const bc_shash_drivers[] = {
	&bc_sha256_generic,
	&bc_sm3_generic,
	&bc_ghash_generic,
	&bc_polyval_generic,
	&bc_nhpoly1305_generic,
	/* generic SHA-1, SHA-224, SHA-384/512, MD5 */
	&bc_sha1_generic, &bc_sha224_generic, &bc_sha384_generic, &bc_sha512_generic, &bc_md5_generic,
#if defined(__x86_64__) || defined(__i386__)
	/* x86 GHASH */
	&bc_ghash_pclmul,
	&bc_ghash_vpclmul_avx2,
	&bc_polyval_clmulni,
	&bc_polyval_vpclmul_avx2,
#if defined(__x86_64__)
	&bc_polyval_vpclmul_avx512,
#endif
	/* x86 hashes */
	&bc_sha256_ni,
	&bc_sha256_avx2,
	&bc_sha1_ni, &bc_sha1_avx2, &bc_sha224_ni, &bc_sha224_avx2,
	&bc_sha512_avx2, &bc_sha384_avx2,
#if defined(__x86_64__)
	&bc_sm3_avx, &bc_sm3_avx512,
	&bc_sha512_avx512, &bc_sha384_avx512,
	/* x86-64 NH-Poly1305 */
	&bc_nhpoly1305_sse2, &bc_nhpoly1305_avx2,
#endif
#endif
#if defined(__aarch64__)
	/* arm64 */
	&bc_cmac_aes_ce, &bc_xcbc_aes_ce, &bc_cbcmac_aes_ce,
	&bc_ghash_ce, &bc_polyval_ce,
	&bc_cmac_sm4_ce, &bc_xcbc_sm4_ce, &bc_cbcmac_sm4_ce,
	/* arm64 hashes */
	&bc_sha256_ce, &bc_sm3_ce,
	&bc_sha1_ce, &bc_sha224_ce, &bc_sha512_ce, &bc_sha384_ce,
	/* arm64 NH-Poly1305 */
	&bc_nhpoly1305_neon,
#endif
	NULL
};
