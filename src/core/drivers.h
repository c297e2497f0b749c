/* blockcrypt: every driver the registry knows, declared once (defined in their own files).
 * Sections by architecture; src/core/drivers.c lists them in tables. */
#ifndef BC_DRIVERS_H
#define BC_DRIVERS_H

#include "internal.h"

/* Generic, portable constant-time C (src/cipher/, src/hash/) */
extern const struct bc_cipher_alg bc_aes_generic;
extern const struct bc_cipher_alg bc_sm4_generic;
extern const struct bc_cipher_alg bc_des_generic, bc_des3_ede_generic;
extern const struct bc_cipher_alg bc_des_avx2, bc_des3_ede_avx2;   /* x86 */
extern const struct bc_cipher_alg bc_des_avx512, bc_des3_ede_avx512;   /* x86-64 */
extern const struct bc_cipher_alg bc_twofish_generic;
extern const struct bc_cipher_alg bc_serpent_generic;
extern const struct bc_cipher_alg bc_camellia_generic;
extern const struct bc_skcipher_alg bc_chacha20_generic, bc_xchacha20_generic, bc_xchacha12_generic;
extern const struct bc_shash_alg bc_sha256_generic;
extern const struct bc_shash_alg bc_sm3_generic;
extern const struct bc_shash_alg bc_ghash_generic;
extern const struct bc_shash_alg bc_polyval_generic;
extern const struct bc_shash_alg bc_nhpoly1305_generic;
/* x86-64 NH-Poly1305 (src/arch/x86/nhpoly1305_*.c) */
extern const struct bc_shash_alg bc_nhpoly1305_sse2, bc_nhpoly1305_avx2;
/* Generic SHA-1, SHA-224, SHA-384/512 and MD5 (src/hash/) */
extern const struct bc_shash_alg bc_sha1_generic, bc_sha224_generic, bc_sha384_generic, bc_sha512_generic;
extern const struct bc_shash_alg bc_md5_generic;

#if defined(__x86_64__) || defined(__i386__)
/* x86 AES-NI and VAES (src/arch/x86/aes_*.c) */
extern const struct bc_cipher_alg bc_aes_aesni;
extern const struct bc_skcipher_alg bc_ecb_aes_aesni, bc_cbc_aes_aesni, bc_ctr_aes_aesni, bc_xts_aes_aesni;
extern const struct bc_skcipher_alg bc_xctr_aes_aesni;   /* src/arch/x86/xctr_aes_*.c */
#if defined(__x86_64__)
extern const struct bc_skcipher_alg bc_ecb_aes_vaes_avx2, bc_cbc_aes_vaes_avx2, bc_ctr_aes_vaes_avx2, bc_xts_aes_vaes_avx2;
extern const struct bc_skcipher_alg bc_xctr_aes_vaes_avx2;   /* src/arch/x86/aes_modes_vaes.c */
extern const struct bc_skcipher_alg bc_ecb_aes_vaes_avx512, bc_cbc_aes_vaes_avx512, bc_ctr_aes_vaes_avx512,
       bc_xts_aes_vaes_avx512;
extern const struct bc_skcipher_alg bc_xctr_aes_vaes_avx512;
#endif
/* x86 GHASH and fused GCM (src/arch/x86/ghash_*.c, gcm_*.c) */
extern const struct bc_shash_alg bc_ghash_pclmul;
extern const struct bc_shash_alg bc_ghash_vpclmul_avx2;
extern const struct bc_shash_alg bc_polyval_clmulni, bc_polyval_vpclmul_avx2;   /* polyval_*.c */
#if defined(__x86_64__)
extern const struct bc_shash_alg bc_polyval_vpclmul_avx512;
#endif
extern const struct bc_aead_alg bc_gcm_aes_aesni;
/* x86 fused CCM (src/arch/x86/ccm_*.c) */
extern const struct bc_aead_alg bc_ccm_aes_aesni;
#if defined(__x86_64__)
extern const struct bc_aead_alg bc_gcm_aes_vaes_avx2, bc_gcm_aes_vaes_avx512;
#endif
/* x86 SM4 through AES-NI or GFNI (src/arch/x86/sm4_*.c) */
extern const struct bc_cipher_alg bc_sm4_aesni_avx, bc_sm4_aesni_avx2, bc_sm4_vaes_avx2, bc_sm4_gfni_avx2;
extern const struct bc_skcipher_alg bc_ecb_sm4_aesni_avx, bc_cbc_sm4_aesni_avx, bc_ctr_sm4_aesni_avx, bc_xts_sm4_aesni_avx;
extern const struct bc_skcipher_alg bc_ecb_sm4_aesni_avx2, bc_cbc_sm4_aesni_avx2, bc_ctr_sm4_aesni_avx2, bc_xts_sm4_aesni_avx2;
extern const struct bc_skcipher_alg bc_ecb_sm4_vaes_avx2, bc_cbc_sm4_vaes_avx2, bc_ctr_sm4_vaes_avx2, bc_xts_sm4_vaes_avx2;
extern const struct bc_skcipher_alg bc_ecb_sm4_gfni_avx2, bc_cbc_sm4_gfni_avx2, bc_ctr_sm4_gfni_avx2, bc_xts_sm4_gfni_avx2;
extern const struct bc_aead_alg bc_gcm_sm4_aesni_avx, bc_gcm_sm4_aesni_avx2, bc_gcm_sm4_vaes_avx2, bc_gcm_sm4_gfni_avx2;
#if defined(__x86_64__)
/* x86-64 Serpent (src/arch/x86/serpent_avx2.c, serpent_avx512.c) */
extern const struct bc_cipher_alg bc_serpent_avx2, bc_serpent_avx512;
extern const struct bc_skcipher_alg bc_ecb_serpent_avx2, bc_cbc_serpent_avx2, bc_ctr_serpent_avx2, bc_xts_serpent_avx2;
extern const struct bc_skcipher_alg bc_ecb_serpent_avx512, bc_cbc_serpent_avx512, bc_ctr_serpent_avx512,
       bc_xts_serpent_avx512;
#endif
#if defined(__x86_64__)
/* x86-64 SM4 with GFNI on zmm (src/arch/x86/sm4_gfni_avx512.c) */
extern const struct bc_cipher_alg bc_sm4_gfni_avx512;
extern const struct bc_skcipher_alg bc_ecb_sm4_gfni_avx512, bc_cbc_sm4_gfni_avx512, bc_ctr_sm4_gfni_avx512,
       bc_xts_sm4_gfni_avx512;
extern const struct bc_aead_alg bc_gcm_sm4_gfni_avx512;
#endif
#if defined(__x86_64__)
/* x86-64 Twofish with VBMI and GFNI on zmm (src/arch/x86/twofish_avx512.c) */
extern const struct bc_cipher_alg bc_twofish_avx512;
extern const struct bc_skcipher_alg bc_ecb_twofish_avx512, bc_cbc_twofish_avx512, bc_ctr_twofish_avx512,
       bc_xts_twofish_avx512;
#endif
#if defined(__x86_64__)
/* x86-64 ChaCha20 and XChaCha (src/arch/x86/chacha_ssse3.c, chacha_avx2.c, chacha_avx512.c) */
extern const struct bc_skcipher_alg bc_chacha20_ssse3, bc_xchacha20_ssse3, bc_xchacha12_ssse3;
/* The keystream a block at a time, the state's rows in four xmm registers (SSSE3): the x86 drivers' last block */
void bc_chacha_xor_rows(uint32_t st[16], uint8_t *dst, const uint8_t *src, size_t len, int nrounds);
extern const struct bc_skcipher_alg bc_chacha20_avx2, bc_xchacha20_avx2, bc_xchacha12_avx2;
extern const struct bc_skcipher_alg bc_chacha20_avx512, bc_xchacha20_avx512, bc_xchacha12_avx512;
#endif
#if defined(__x86_64__)
/* x86-64 Camellia with VAES on ymm and GFNI on zmm (src/arch/x86/camellia_aesni_avx2.c, camellia_gfni_avx512.c) */
extern const struct bc_cipher_alg bc_camellia_aesni_avx2;
extern const struct bc_skcipher_alg bc_ecb_camellia_aesni_avx2, bc_cbc_camellia_aesni_avx2, bc_ctr_camellia_aesni_avx2,
       bc_xts_camellia_aesni_avx2;
extern const struct bc_cipher_alg bc_camellia_gfni_avx512;
extern const struct bc_skcipher_alg bc_ecb_camellia_gfni_avx512, bc_cbc_camellia_gfni_avx512, bc_ctr_camellia_gfni_avx512,
       bc_xts_camellia_gfni_avx512;
#endif
/* x86 hashes with SHA-NI, AVX2, AVX and AVX-512 (src/arch/x86/sha256_*.c, sm3_avx*.c) */
extern const struct bc_shash_alg bc_sha256_ni, bc_sha256_avx2;
/* x86 SHA-1, SHA-224 and SHA-384/512 (src/arch/x86/sha1_*.c, sha256_*.c, sha512_*.c) */
extern const struct bc_shash_alg bc_sha1_ni, bc_sha1_avx2, bc_sha224_ni, bc_sha224_avx2;
extern const struct bc_shash_alg bc_sha512_avx2, bc_sha384_avx2;
#if defined(__x86_64__)
extern const struct bc_shash_alg bc_sm3_avx, bc_sm3_avx512;
extern const struct bc_shash_alg bc_sha512_avx512, bc_sha384_avx512;
#endif
#endif

#if defined(__aarch64__)
/* arm64 Crypto Extensions and NEON (src/arch/arm64/) */
extern const struct bc_cipher_alg bc_aes_ce;
extern const struct bc_skcipher_alg bc_ecb_aes_ce, bc_cbc_aes_ce, bc_ctr_aes_ce, bc_xts_aes_ce;
extern const struct bc_skcipher_alg bc_xctr_aes_ce;     /* src/arch/arm64/xctr_aes_ce.c */
extern const struct bc_shash_alg bc_cmac_aes_ce, bc_xcbc_aes_ce, bc_cbcmac_aes_ce;
extern const struct bc_cipher_alg bc_sm4_ce;
extern const struct bc_skcipher_alg bc_ecb_sm4_ce, bc_cbc_sm4_ce, bc_ctr_sm4_ce, bc_xts_sm4_ce;
extern const struct bc_shash_alg bc_cmac_sm4_ce, bc_xcbc_sm4_ce, bc_cbcmac_sm4_ce;
extern const struct bc_shash_alg bc_ghash_ce, bc_polyval_ce;   /* ghash_ce.c, polyval_ce.c */
extern const struct bc_aead_alg bc_gcm_aes_ce, bc_gcm_sm4_ce;
/* arm64 fused CCM (src/arch/arm64/ccm_aes_ce.c) */
extern const struct bc_aead_alg bc_ccm_aes_ce;
extern const struct bc_cipher_alg bc_aes_neon;
extern const struct bc_skcipher_alg bc_ecb_aes_neon, bc_cbc_aes_neon, bc_ctr_aes_neon, bc_xts_aes_neon;
/* arm64 NEON ChaCha (src/arch/arm64/chacha_neon.c) */
extern const struct bc_skcipher_alg bc_chacha20_neon, bc_xchacha20_neon, bc_xchacha12_neon;
/* arm64 NEON NH-Poly1305 (src/arch/arm64/nhpoly1305_neon.c) */
extern const struct bc_shash_alg bc_nhpoly1305_neon;
/* arm64 hashes with the SHA2 and SM3 instructions (src/arch/arm64/sha256_ce.c, sm3_ce.c) */
extern const struct bc_shash_alg bc_sha256_ce, bc_sm3_ce;
/* arm64 SHA-1, SHA-224 and SHA-384/512 (src/arch/arm64/sha1_ce.c, sha256_ce.c, sha512_ce.c) */
extern const struct bc_shash_alg bc_sha1_ce, bc_sha224_ce, bc_sha512_ce, bc_sha384_ce;
#endif

#endif
