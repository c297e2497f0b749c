/* blockcrypt x86: SM4 through AES-NI or GFNI, the round code and modes shared by the 128-bit (AVX), 256-bit (AVX2, VAES, GFNI) and 512-bit (GFNI) drivers.
 * GB/T 32907-2016 (SM4); NIST SP 800-38A (ECB, CBC, CTR), IEEE 1619-2018 (XTS), NIST SP 800-38D and RFC 8998 (GCM). */

/*
 * Each including file first defines the width it instantiates:
 *   SM4X_BITS 128, 256 or (GFNI, x86-64) 512, SM4X_VAES 1 where VAESENCLAST works on a whole ymm,
 *   SM4X_GFNI 1 where the S-box is GF2P8AFFINEINVQB instead (see below),
 *   SM4X_TARGET the instruction sets of its functions (a target attribute string).
 * Everything below the first section is then written once against the
 * SM4V_* operations of that width.
 */
#ifndef BC_SM4_X86_H
#define BC_SM4_X86_H

#include "ghash_x86.h"

/*
 * The S-box. SM4's S-box is S(x) = A * inv_P(A * x + 0xd3) + 0xd3: A is the
 * circulant bit matrix whose row i (output bit i) is rotl8(0xa7, i), inv_P the
 * inversion in GF(2^8) modulo P = x^8+x^7+x^6+x^5+x^4+x^2+1. AESENCLAST with a
 * zero round key gives ShiftRows(SubBytes(z)), SubBytes(z) = B * inv_Q(z) + 0x63
 * with Q = x^8+x^4+x^3+x+1 and B the AES affine matrix. Both fields are GF(2^8),
 * so there is an isomorphism Phi from the P-field to the Q-field: pick a root
 * beta of P in the Q-field (P has eight there; beta = 0x23 is the smallest) and
 * send x^i to beta^i; it is linear over GF(2) and inv_P = Phi^-1 inv_Q Phi. So
 *     S(x) = post(SubBytes(pre(x))), pre(x) = Phi A x + Phi 0xd3,
 *     post(s) = A Phi^-1 B^-1 (s + 0x63) + 0xd3,
 * both affine in the bits of a byte, hence each the XOR of a lookup on the low
 * nibble (carrying the constant) and one on the high nibble: two PSHUFBs on
 * register-held tables, never a memory address chosen by a secret. The tables
 * were computed by a short script from exactly these definitions and checked
 * over all 256 bytes against the standard's S-box (the test harness keeps it).
 */
#define SM4X_PRE_LO  0x3e, 0xb2, 0x0e, 0x82, 0xbb, 0x37, 0x8b, 0x07, 0xa1, 0x2d, 0x91, 0x1d, 0x24, 0xa8, 0x14, 0x98
#define SM4X_PRE_HI  0x00, 0xdc, 0x2e, 0xf2, 0xc5, 0x19, 0xeb, 0x37, 0x08, 0xd4, 0x26, 0xfa, 0xcd, 0x11, 0xe3, 0x3f
/* post() after a round key of 0x0f in every byte: its low table is read at n ^ 15. */
#define SM4X_POST_LO 0x47, 0xff, 0x8d, 0x35, 0x79, 0xc1, 0xb3, 0x0b, 0x20, 0x98, 0xea, 0x52, 0x1e, 0xa6, 0xd4, 0x6c
#define SM4X_POST_HI 0x00, 0xe0, 0x50, 0xb0, 0x9d, 0x7d, 0xcd, 0x2d, 0xc0, 0x20, 0x90, 0x70, 0x5d, 0xbd, 0x0d, 0xed

/*
 * After AESENCLAST the bytes sit in ShiftRows order: byte r + 4c came from
 * r + 4((c + r) mod 4). The S-box output is needed in place and rotated by 8,
 * 16 and 24 bits within each 32-bit word (for L), so each of those four byte
 * permutations is composed with InvShiftRows into a single PSHUFB mask.
 */
#define SM4X_ISR0  0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3
#define SM4X_ISR8  7, 0, 13, 10, 11, 4, 1, 14, 15, 8, 5, 2, 3, 12, 9, 6
#define SM4X_ISR16 10, 7, 0, 13, 14, 11, 4, 1, 2, 15, 8, 5, 6, 3, 12, 9
#define SM4X_ISR24 13, 10, 7, 0, 1, 14, 11, 4, 5, 2, 15, 8, 9, 6, 3, 12
/* ShiftRows itself, the inverse of ISR0. */
#define SM4X_SR    0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11
/*
 * The round, shortened. The words are kept mapped by M, the linear part of pre() (bytewise), so
 * pre(x1 ^ x2 ^ x3 ^ rk) = M x1 ^ M x2 ^ M x3 ^ pre(rk) needs no lookup on
 * the chain. The new word M(x0 ^ L(post(a))) then has to come straight from
 * the AESENCLAST output a. Write rol2 bytewise, rol2(X) = s(X) ^ R8 h(X) with
 * s(b) = b << 2, h(b) = b >> 6 on each byte and R8 the byte rotation, and
 * L(B) = B ^ R24 B ^ (1 + R8 + R16) rol2(B) becomes
 *     (B ^ sB) ^ R8 (sB ^ hB) ^ R16 (sB ^ hB) ^ R24 (B ^ hB),
 * each bracket a bytewise affine function of a once B = post(a). M is bytewise
 * and commutes with R8, R16, R24, so with V0 = M(B ^ sB), V1 = M(sB ^ hB),
 * V3 = M(B ^ hB) (each two nibble tables, from the same script):
 *     M x_new = M x0 ^ V0(a) ^ R8 V1(a) ^ R16 V1(a) ^ R24 V3(a),
 * V1 looked up once and rotated twice: six lookups and four byte
 * permutations, no lookup before AESENCLAST and no shift after it but the
 * nibble split, where the plain round (pre, AESENCLAST, post, then L by
 * permutations and a 2-bit rotation) takes 28 vector operations and a
 * chain of some 15: here 24 and about 10, which matters on cores whose
 * simple vector operations take two cycles. With more than one block per
 * register the AESENCLAST output is in ShiftRows order, so the four
 * permutations are the ISR masks below; a lone block in all four lanes
 * needs only R8, R16, R24. */
#define SM4X_V0_LO 0x0b, 0x8d, 0xd8, 0x5e, 0x73, 0xf5, 0xa0, 0x26, 0x17, 0x91, 0xc4, 0x42, 0x6f, 0xe9, 0xbc, 0x3a
#define SM4X_V0_HI 0x00, 0xeb, 0xdc, 0x37, 0xf0, 0x1b, 0x2c, 0xc7, 0xcd, 0x26, 0x11, 0xfa, 0x3d, 0xd6, 0xe1, 0x0a
#define SM4X_V1_LO 0x76, 0xa5, 0x7b, 0xa8, 0xd6, 0x05, 0xdb, 0x08, 0x34, 0xe7, 0x39, 0xea, 0x94, 0x47, 0x99, 0x4a
#define SM4X_V1_HI 0x00, 0xb4, 0x49, 0xfd, 0x82, 0x36, 0xcb, 0x7f, 0xbc, 0x08, 0xf5, 0x41, 0x3e, 0x8a, 0x77, 0xc3
#define SM4X_V3_LO 0x7d, 0x28, 0xa3, 0xf6, 0xa5, 0xf0, 0x7b, 0x2e, 0x23, 0x76, 0xfd, 0xa8, 0xfb, 0xae, 0x25, 0x70
#define SM4X_V3_HI 0x00, 0x5f, 0x95, 0xca, 0x72, 0x2d, 0xe7, 0xb8, 0x71, 0x2e, 0xe4, 0xbb, 0x03, 0x5c, 0x96, 0xc9
#define SM4X_M_LO  0x00, 0x8c, 0x30, 0xbc, 0x85, 0x09, 0xb5, 0x39, 0x9f, 0x13, 0xaf, 0x23, 0x1a, 0x96, 0x2a, 0xa6
#define SM4X_MI_LO 0x00, 0x85, 0xd9, 0x5c, 0x2e, 0xab, 0xf7, 0x72, 0x80, 0x05, 0x59, 0xdc, 0xae, 0x2b, 0x77, 0xf2
#define SM4X_MI_HI 0x00, 0x55, 0x57, 0x02, 0x44, 0x11, 0x13, 0x46, 0xaf, 0xfa, 0xf8, 0xad, 0xeb, 0xbe, 0xbc, 0xe9
#define SM4X_R8    3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
#define SM4X_R16   2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13
#define SM4X_R24   1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12

/*
 * With GFNI the lookups go. GF2P8AFFINEINVQB(y, W, c) is W inv_Q(y) + c on
 * every byte: the inversion in the AES field itself, then any affine map.
 * In the M domain y = pre(x1 ^ x2 ^ x3 ^ rk) is exactly inv_Q's input, and
 * B = post'(inv_Q(y)) = A Phi^-1 inv_Q(y) + 0xd3 (no AES affine map to undo),
 * so each of V0, V1, V3 above, a bytewise affine function of B, is one such
 * instruction on y: W its linear part after A Phi^-1, c its value at zero.
 * No ShiftRows either, so the permutations are R8, R16, R24 at any width.
 * M and M^-1 (into and out of the domain) are GF2P8AFFINEQB. The 64-bit
 * matrix holds output bit i's row in byte 7 - i. Computed by the same
 * script from the same definitions (Phi, A, s, h above), checked against
 * the nibble tables over all 256 inputs, and tested on every byte position
 * of a round by test_sm4_sbox.
 */
#define SM4X_GF_V0 0x040db891e9a481b7ll
#define SM4X_GF_V0C 0x72
#define SM4X_GF_V1 0x2c020425162040adll
#define SM4X_GF_V1C 0x63
#define SM4X_GF_V3 0x280fbcb4ff84c11all
#define SM4X_GF_V3C 0x11
#define SM4X_GF_M  0x4c287db91a22505dll
#define SM4X_GF_MI 0xb3a4f5863284728bll

/* Byte swap of each 32-bit word: SM4 words are big-endian. */
#define SM4X_BSWAP32 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12

/* Round keys as 32-bit integers through pre() (the rounds work in the M
 * domain, see above); decryption uses them in reverse order. */
struct bc_sm4_x86_key {
	uint32_t enc_pre[32];
	uint32_t dec_pre[32];
};
struct bc_sm4_x86_xts_key {
	struct bc_sm4_x86_key k1;     /* data */
	struct bc_sm4_x86_key k2;     /* tweak (only enc used) */
};
struct bc_sm4_x86_gcm_key {
	struct bc_ghash_x86_key gh;   /* first: it wants 16-byte alignment */
	struct bc_sm4_x86_key k;
};

/* The key schedule, defined once in sm4_aesni_avx.c (its CPU bits are a
 * subset of every SM4 x86 driver's, so all of them may call it). */
int  bc_sm4_x86_setkey(void *ctx, const uint8_t *key, size_t keylen);
int  bc_sm4_x86_skcipher_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags);
int  bc_sm4_x86_xts_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags);
int  bc_sm4_x86_gcm_setkey(void *ctx, const uint8_t *key, size_t keylen);

/* Every driver of one width, its dedicated operations passed in. */
#define BC_SM4_X86_DRIVERS(id, impl, cprio, mprio, cpubits, gcmbits)                                  \
	const struct bc_cipher_alg bc_sm4_##id = {                                                    \
		.name = "sm4", .driver = "sm4-" impl, .priority = cprio, .cpu = cpubits,              \
		.min_keysize = 16, .max_keysize = 16, .ctxsize = sizeof(struct bc_sm4_x86_key),       \
		.setkey = bc_sm4_x86_setkey, .encrypt = sm4x_encrypt, .decrypt = sm4x_decrypt,        \
		.mac = sm4x_mac, .mac_many = sm4x_mac_many,                                           \
	};                                                                                            \
	const struct bc_skcipher_alg bc_ecb_sm4_##id = {                                              \
		.name = "ecb(sm4)", .driver = "ecb-sm4-" impl, .priority = mprio, .cpu = cpubits,     \
		.min_keysize = 16, .max_keysize = 16, .ivsize = 0, .blocksize = 16, .min_len = 0,     \
		.len_align = 16, .ctxsize = sizeof(struct bc_sm4_x86_key),                            \
		.setkey = bc_sm4_x86_skcipher_setkey, .encrypt = sm4x_ecb_encrypt,                    \
		.decrypt = sm4x_ecb_decrypt,                                                          \
	};                                                                                            \
	const struct bc_skcipher_alg bc_cbc_sm4_##id = {                                              \
		.name = "cbc(sm4)", .driver = "cbc-sm4-" impl, .priority = mprio, .cpu = cpubits,     \
		.min_keysize = 16, .max_keysize = 16, .ivsize = 16, .blocksize = 16, .min_len = 0,    \
		.len_align = 16, .ctxsize = sizeof(struct bc_sm4_x86_key),                            \
		.setkey = bc_sm4_x86_skcipher_setkey, .encrypt = sm4x_cbc_encrypt,                    \
		.decrypt = sm4x_cbc_decrypt,                                                          \
	};                                                                                            \
	const struct bc_skcipher_alg bc_ctr_sm4_##id = {                                              \
		.name = "ctr(sm4)", .driver = "ctr-sm4-" impl, .priority = mprio, .cpu = cpubits,     \
		.min_keysize = 16, .max_keysize = 16, .ivsize = 16, .blocksize = 1, .min_len = 0,     \
		.len_align = 1, .ctxsize = sizeof(struct bc_sm4_x86_key),                             \
		.setkey = bc_sm4_x86_skcipher_setkey, .encrypt = sm4x_ctr_crypt,                      \
		.decrypt = sm4x_ctr_crypt,                                                            \
	};                                                                                            \
	const struct bc_skcipher_alg bc_xts_sm4_##id = {                                              \
		.name = "xts(sm4)", .driver = "xts-sm4-" impl, .priority = mprio, .cpu = cpubits,     \
		.min_keysize = 32, .max_keysize = 32, .ivsize = 16, .blocksize = 16, .min_len = 16,   \
		.len_align = 1, .ctxsize = sizeof(struct bc_sm4_x86_xts_key),                         \
		.setkey = bc_sm4_x86_xts_setkey, .encrypt = sm4x_xts_encrypt,                         \
		.decrypt = sm4x_xts_decrypt,                                                          \
	};                                                                                            \
	const struct bc_aead_alg bc_gcm_sm4_##id = {                                                  \
		.name = "gcm(sm4)", .driver = "gcm-sm4-" impl, .priority = mprio, .cpu = gcmbits,     \
		.min_keysize = 16, .max_keysize = 16, .ivsize = 12, .maxauthsize = 16,                \
		.ctxsize = sizeof(struct bc_sm4_x86_gcm_key), .setkey = bc_sm4_x86_gcm_setkey,        \
		.encrypt = sm4x_gcm_encrypt, .decrypt = sm4x_gcm_decrypt,                             \
	}

#endif /* BC_SM4_X86_H */

/* ==== the width-specific part, instantiated once per including file ==== */
#if !defined(SM4X_BITS) || !defined(SM4X_VAES) || !defined(SM4X_GFNI) || !defined(SM4X_TARGET)
#error "define SM4X_BITS, SM4X_VAES, SM4X_GFNI and SM4X_TARGET before including sm4_x86.h"
#endif

#define SM4X_FN static inline __attribute__((always_inline, target(SM4X_TARGET)))
#define SM4X_API static __attribute__((target(SM4X_TARGET)))

#if SM4X_BITS == 128
typedef __m128i sm4v;
#define SM4X_NB 4                 /* blocks per register of words */
#define SM4V_C(...) _mm_setr_epi8(__VA_ARGS__)
#define SM4V_XOR _mm_xor_si128
#define SM4V_AND _mm_and_si128
#define SM4V_SHUF _mm_shuffle_epi8
#define SM4V_SRL32 _mm_srli_epi32
#define SM4V_SET1 _mm_set1_epi32
#define SM4V_ADD32 _mm_add_epi32
#define SM4V_SUB32 _mm_sub_epi32
#define SM4V_CMPGT32 _mm_cmpgt_epi32
#define SM4V_CMPEQ32 _mm_cmpeq_epi32
#define SM4V_UNPLO32 _mm_unpacklo_epi32
#define SM4V_UNPHI32 _mm_unpackhi_epi32
#define SM4V_UNPLO64 _mm_unpacklo_epi64
#define SM4V_UNPHI64 _mm_unpackhi_epi64
#define SM4V_BSLL(v, n) _mm_slli_si128((v), (n))
#define SM4V_BSRL(v, n) _mm_srli_si128((v), (n))
#define SM4V_SLL64 _mm_slli_epi64
#define SM4V_LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define SM4V_STORE(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
/* Lane k of a register of words is block k. */
#define SM4V_LANES() _mm_setr_epi32(0, 1, 2, 3)
#define SM4V_AESLAST(x, k) _mm_aesenclast_si128((x), (k))
#define SM4V_GHASH bc_ghash_x86_blocks
#define SM4V_SHUF32 _mm_shuffle_epi32
#define SM4V_BCAST128(v) (v)
#define SM4V_LO128(v) (v)
#elif SM4X_BITS == 256
typedef __m256i sm4v;
#define SM4X_NB 8
#define SM4V_C(...) _mm256_broadcastsi128_si256(_mm_setr_epi8(__VA_ARGS__))
#define SM4V_XOR _mm256_xor_si256
#define SM4V_AND _mm256_and_si256
#define SM4V_SHUF _mm256_shuffle_epi8
#define SM4V_SRL32 _mm256_srli_epi32
#define SM4V_SET1 _mm256_set1_epi32
#define SM4V_ADD32 _mm256_add_epi32
#define SM4V_SUB32 _mm256_sub_epi32
#define SM4V_CMPGT32 _mm256_cmpgt_epi32
#define SM4V_CMPEQ32 _mm256_cmpeq_epi32
#define SM4V_UNPLO32 _mm256_unpacklo_epi32
#define SM4V_UNPHI32 _mm256_unpackhi_epi32
#define SM4V_UNPLO64 _mm256_unpacklo_epi64
#define SM4V_UNPHI64 _mm256_unpackhi_epi64
#define SM4V_BSLL(v, n) _mm256_bslli_epi128((v), (n))
#define SM4V_BSRL(v, n) _mm256_bsrli_epi128((v), (n))
#define SM4V_SLL64 _mm256_slli_epi64
#define SM4V_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define SM4V_STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
/* A register of blocks holds two consecutive blocks and the transposition
 * works within 128-bit lanes, so lane k of the low half is block 2k and of
 * the high half block 2k + 1. */
#define SM4V_LANES() _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7)
#define SM4V_SHUF32 _mm256_shuffle_epi32
#define SM4V_BCAST128 _mm256_broadcastsi128_si256
#define SM4V_LO128 _mm256_castsi256_si128
#define SM4V_SET64 _mm256_set1_epi64x
#define SM4V_GFA _mm256_gf2p8affine_epi64_epi8
#define SM4V_GFINV _mm256_gf2p8affineinv_epi64_epi8
#if SM4X_VAES || SM4X_GFNI
/* (every CPU with GFNI on ymm has VPCLMULQDQ) */
#define SM4V_GHASH bc_ghash_x86_blocks256
#else
#define SM4V_GHASH bc_ghash_x86_blocks
#endif
#if SM4X_VAES
#define SM4V_AESLAST(x, k) _mm256_aesenclast_epi128((x), (k))
#elif !SM4X_GFNI
/* Without VAES the two halves take one AESENCLAST each. */
SM4X_FN __m256i sm4x_aeslast2(__m256i x, __m256i k)
{
	__m128i k0 = _mm256_castsi256_si128(k);
	return _mm256_set_m128i(_mm_aesenclast_si128(_mm256_extracti128_si256(x, 1), k0),
	                        _mm_aesenclast_si128(_mm256_castsi256_si128(x), k0));
}
#define SM4V_AESLAST sm4x_aeslast2
#endif
#else
/* 512 bits: GFNI only (every AVX-512 CPU with GFNI has its EVEX form). */
#if SM4X_BITS != 512 || !SM4X_GFNI
#error "SM4X_BITS is 128, 256 or (with GFNI) 512"
#endif
typedef __m512i sm4v;
#define SM4X_NB 16
#define SM4V_C(...) _mm512_broadcast_i32x4(_mm_setr_epi8(__VA_ARGS__))
#define SM4V_XOR _mm512_xor_si512
#define SM4V_AND _mm512_and_si512
#define SM4V_SHUF _mm512_shuffle_epi8
#define SM4V_SET1 _mm512_set1_epi32
#define SM4V_ADD32 _mm512_add_epi32
#define SM4V_SUB32 _mm512_sub_epi32
/* the compares give masks at this width; the modes want all-ones lanes */
#define SM4V_CMPGT32(a, b) _mm512_maskz_set1_epi32(_mm512_cmpgt_epi32_mask((a), (b)), -1)
#define SM4V_CMPEQ32(a, b) _mm512_maskz_set1_epi32(_mm512_cmpeq_epi32_mask((a), (b)), -1)
#define SM4V_UNPLO32 _mm512_unpacklo_epi32
#define SM4V_UNPHI32 _mm512_unpackhi_epi32
#define SM4V_UNPLO64 _mm512_unpacklo_epi64
#define SM4V_UNPHI64 _mm512_unpackhi_epi64
#define SM4V_BSLL(v, n) _mm512_bslli_epi128((v), (n))
#define SM4V_BSRL(v, n) _mm512_bsrli_epi128((v), (n))
#define SM4V_SLL64 _mm512_slli_epi64
#define SM4V_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define SM4V_STORE(p, v) _mm512_storeu_si512((void *)(p), (v))
/* A register of blocks holds four consecutive blocks, transposed within
 * 128-bit lanes: word i of lane L is block L + 4i. */
#define SM4V_LANES() _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15)
#define SM4V_SET64 _mm512_set1_epi64
#define SM4V_GFA _mm512_gf2p8affine_epi64_epi8
#define SM4V_GFINV _mm512_gf2p8affineinv_epi64_epi8
#define SM4V_SHUF32(v, i) _mm512_shuffle_epi32((v), (_MM_PERM_ENUM)(i))
#define SM4V_BCAST128 _mm512_broadcast_i32x4
#define SM4V_LO128 _mm512_castsi512_si128
/* GCM's GHASH stays on ymm: an eighth of a pass (16 blocks) at a time
 * between the rounds, where it is not the bottleneck. */
#define SM4V_GHASH bc_ghash_x86_blocks256
#endif

/* Up to 8 groups of 4 registers per pass: a round is a chain of some 22
 * cycles of latency but only 6 to 7 of throughput (the shuffles and shifts
 * share two pipes), so many independent chains keep those pipes busy. */
#define SM4X_G 8
#define SM4X_BPR (SM4X_NB / 4)    /* blocks per register of blocks */
#define SM4X_PASS (16 * SM4X_G * SM4X_NB)   /* bytes per pass, at most */

/* Keeps the compiler from re-associating XORs across v: the order written is
 * the one that keeps the round's chain short. */
#define SM4X_KEEP(v) __asm__("" : "+v"(v))

/* ---- the round (in the M domain, see the top of this file) ------------------------- */
#define SM4X_NIBBLES SM4V_C(15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15)

#if SM4X_GFNI
/* M x_new from M x0 and y = pre(x1 ^ x2 ^ x3 ^ rk), the one-block round
 * (the passes use sm4x_round_gf below): three GF2P8AFFINEINVQB side by
 * side, then the byte rotations (see the top of this file). M x0 meets V0
 * while the rotations run, so the tree after them is two XORs deep (the
 * compiler would otherwise re-associate it into a longer chain). */
SM4X_FN sm4v sm4x_round1(sm4v mx0, sm4v y)
{
	sm4v v0 = SM4V_GFINV(y, SM4V_SET64(SM4X_GF_V0), SM4X_GF_V0C);
	sm4v v1 = SM4V_GFINV(y, SM4V_SET64(SM4X_GF_V1), SM4X_GF_V1C);
	sm4v v3 = SM4V_GFINV(y, SM4V_SET64(SM4X_GF_V3), SM4X_GF_V3C);
	sm4v e = SM4V_XOR(mx0, v0), f = SM4V_XOR(SM4V_SHUF(v1, SM4V_C(SM4X_R16)), SM4V_SHUF(v3, SM4V_C(SM4X_R24)));

	SM4X_KEEP(e);
	e = SM4V_XOR(e, SM4V_SHUF(v1, SM4V_C(SM4X_R8)));
	SM4X_KEEP(e);
	SM4X_KEEP(f);
	return SM4V_XOR(e, f);
}

/* The same round for the passes of many blocks, where throughput counts.
 * With eight groups of four words the compiler runs out of the sixteen ymm
 * registers: its spills landed on the rounds' chains and its reloads of
 * constants filled the load ports (measured: 20 % slower). Here each group
 * keeps only s = x1 ^ x2 ^ x3 in a register; the words stay in memory, read
 * as operands, as are the three matrices; the three masks, the round key and
 * four temporaries take the other registers (on i386, with eight, the masks
 * and key are memory operands too). So the chain is s -> y -> GFNI
 * -> rotation -> x_new -> s (13 cycles), never through memory, and a round
 * reads five vectors instead of eight. One group's round (256 bits only):
 * *x0 = M x_new and s = x2 ^ x3 ^ x_new, in the M domain. */
#ifdef __x86_64__
#define SM4X_GF_X(v) "x"(v)
#else
#define SM4X_GF_X(v) "xm"(v)   /* eight registers: the masks and key from memory */
#endif
#if SM4X_BITS == 512
/* The same on zmm, with VPTERNLOGD for the two three-way XORs. Its 32
 * registers hold s of every group, the masks, the key and the three
 * matrices too; the words stay in memory as above (32 of them would not fit
 * beside s), so a round is ten vector operations, one load of x0 (fused
 * into the XOR), one of x1 and the store. */
SM4X_FN void sm4x_round_gf(sm4v *x0, sm4v *s, const sm4v *x1, sm4v k, sm4v r8, sm4v r16, sm4v r24)
{
	const sm4v v0 = SM4V_SET64(SM4X_GF_V0), v1 = SM4V_SET64(SM4X_GF_V1), v3 = SM4V_SET64(SM4X_GF_V3);
	sm4v y, a, b, c;

	__asm__("vpxord %[k], %[s], %[y]\n\t"
	        "vgf2p8affineinvqb %[c0], %[v0], %[y], %[a]\n\t"
	        "vgf2p8affineinvqb %[c1], %[v1], %[y], %[b]\n\t"
	        "vgf2p8affineinvqb %[c3], %[v3], %[y], %[y]\n\t"
	        "vpshufb %[r8], %[b], %[c]\n\t"
	        "vpternlogd $0x96, %[x0], %[c], %[a]\n\t"
	        "vpshufb %[r16], %[b], %[b]\n\t"
	        "vpshufb %[r24], %[y], %[y]\n\t"
	        "vpternlogd $0x96, %[y], %[b], %[a]\n\t"
	        "vmovdqu64 %[a], %[x0]\n\t"
	        "vpternlogd $0x96, %[x1], %[a], %[s]"
	        : [s] "+v"(*s), [x0] "+m"(*x0), [y] "=&v"(y), [a] "=&v"(a), [b] "=&v"(b), [c] "=&v"(c)
	        : [k] "v"(k), [x1] "m"(*x1), [v0] "v"(v0), [v1] "v"(v1), [v3] "v"(v3),
	          [r8] "v"(r8), [r16] "v"(r16), [r24] "v"(r24),
	          [c0] "i"(SM4X_GF_V0C), [c1] "i"(SM4X_GF_V1C), [c3] "i"(SM4X_GF_V3C));
}
#else
static const __v4di sm4x_gf_v0 = { SM4X_GF_V0, SM4X_GF_V0, SM4X_GF_V0, SM4X_GF_V0 },
                    sm4x_gf_v1 = { SM4X_GF_V1, SM4X_GF_V1, SM4X_GF_V1, SM4X_GF_V1 },
                    sm4x_gf_v3 = { SM4X_GF_V3, SM4X_GF_V3, SM4X_GF_V3, SM4X_GF_V3 };

SM4X_FN void sm4x_round_gf(sm4v *x0, sm4v *s, const sm4v *x1, sm4v k, sm4v r8, sm4v r16, sm4v r24)
{
	sm4v y, a, b, c;

	__asm__("vpxor %[k], %[s], %[y]\n\t"
	        "vgf2p8affineinvqb %[c0], %[v0], %[y], %[a]\n\t"
	        "vgf2p8affineinvqb %[c1], %[v1], %[y], %[b]\n\t"
	        "vgf2p8affineinvqb %[c3], %[v3], %[y], %[y]\n\t"
	        "vpxor %[x0], %[a], %[a]\n\t"
	        "vpshufb %[r8], %[b], %[c]\n\t"
	        "vpxor %[c], %[a], %[a]\n\t"
	        "vpshufb %[r16], %[b], %[b]\n\t"
	        "vpshufb %[r24], %[y], %[y]\n\t"
	        "vpxor %[b], %[y], %[y]\n\t"
	        "vpxor %[y], %[a], %[a]\n\t"
	        "vmovdqu %[a], %[x0]\n\t"
	        "vpxor %[x1], %[s], %[s]\n\t"
	        "vpxor %[a], %[s], %[s]"
	        : [s] "+x"(*s), [x0] "+m"(*x0), [y] "=&x"(y), [a] "=&x"(a), [b] "=&x"(b), [c] "=&x"(c)
	        : [k] SM4X_GF_X(k), [x1] "m"(*x1), [v0] "m"(sm4x_gf_v0), [v1] "m"(sm4x_gf_v1), [v3] "m"(sm4x_gf_v3),
	          [r8] SM4X_GF_X(r8), [r16] SM4X_GF_X(r16), [r24] SM4X_GF_X(r24),
	          [c0] "i"(SM4X_GF_V0C), [c1] "i"(SM4X_GF_V1C), [c3] "i"(SM4X_GF_V3C));
}
#endif

/* Words into the M domain and back: one instruction each. */
SM4X_FN sm4v sm4x_m(sm4v v)
{
	return SM4V_GFA(v, SM4V_SET64(SM4X_GF_M), 0);
}

SM4X_FN sm4v sm4x_mi(sm4v v)
{
	return SM4V_GFA(v, SM4V_SET64(SM4X_GF_MI), 0);
}
#else
/* Two nibble tables applied to every byte of v (M's high table is pre()'s). */
SM4X_FN sm4v sm4x_nib(sm4v lo_tbl, sm4v hi_tbl, sm4v v)
{
	const sm4v m = SM4X_NIBBLES;
	return SM4V_XOR(SM4V_SHUF(lo_tbl, SM4V_AND(v, m)), SM4V_SHUF(hi_tbl, SM4V_AND(SM4V_SRL32(v, 4), m)));
}

/* The S-box on every byte, the result in ShiftRows order (which is no order
 * at all when every 32-bit lane holds the same word): the key schedule's. */
SM4X_FN sm4v sm4x_sbox(sm4v y)
{
	const sm4v m = SM4X_NIBBLES;

	/* The round key is the nibble mask already in a register (post_lo is
	 * indexed accordingly). */
	return sm4x_nib(SM4V_C(SM4X_POST_LO), SM4V_C(SM4X_POST_HI),
	                SM4V_AESLAST(sm4x_nib(SM4V_C(SM4X_PRE_LO), SM4V_C(SM4X_PRE_HI), y), m));
}

/* M x_new from M x0 and y = pre(x1 ^ x2 ^ x3 ^ rk), several blocks per
 * register (the M-domain round above). With chain, for a single group
 * whose rounds are one latency chain, M x0 is brought into ShiftRows order
 * beside the chain (one more PSHUFB) and joins V0 before its permutation,
 * so four terms, not five, meet at the end: one XOR level less per round. */
SM4X_FN sm4v sm4x_round_m(sm4v mx0, sm4v y, const int chain)
{
	const sm4v m = SM4X_NIBBLES, zero = SM4V_SET1(0);
	sm4v a = SM4V_AESLAST(y, zero);
	sm4v lo = SM4V_AND(a, m), hi = SM4V_AND(SM4V_SRL32(a, 4), m);
	/* with chain, M x0 (in ShiftRows order) joins V0, else the end */
	sm4v early = chain ? SM4V_SHUF(mx0, SM4V_C(SM4X_SR)) : zero, late = chain ? zero : mx0;
	sm4v v0 = SM4V_XOR(SM4V_XOR(early, SM4V_SHUF(SM4V_C(SM4X_V0_LO), lo)), SM4V_SHUF(SM4V_C(SM4X_V0_HI), hi));
	sm4v v1 = SM4V_XOR(SM4V_SHUF(SM4V_C(SM4X_V1_LO), lo), SM4V_SHUF(SM4V_C(SM4X_V1_HI), hi));
	sm4v v3 = SM4V_XOR(SM4V_SHUF(SM4V_C(SM4X_V3_LO), lo), SM4V_SHUF(SM4V_C(SM4X_V3_HI), hi));

	return SM4V_XOR(SM4V_XOR(SM4V_XOR(late, SM4V_SHUF(v0, SM4V_C(SM4X_ISR0))), SM4V_SHUF(v1, SM4V_C(SM4X_ISR8))),
	                SM4V_XOR(SM4V_SHUF(v1, SM4V_C(SM4X_ISR16)), SM4V_SHUF(v3, SM4V_C(SM4X_ISR24))));
}

/* Words into the M domain and back. */
SM4X_FN sm4v sm4x_m(sm4v v)
{
	return sm4x_nib(SM4V_C(SM4X_M_LO), SM4V_C(SM4X_PRE_HI), v);
}

SM4X_FN sm4v sm4x_mi(sm4v v)
{
	return sm4x_nib(SM4V_C(SM4X_MI_LO), SM4V_C(SM4X_MI_HI), v);
}
#endif

SM4X_FN void sm4x_to_m(sm4v x[][4], int G)
{
#pragma GCC unroll 8
	for (int g = 0; g < G; g++)
		for (int j = 0; j < 4; j++)
			x[g][j] = sm4x_m(x[g][j]);
}

SM4X_FN void sm4x_from_m(sm4v x[][4], int G)
{
#pragma GCC unroll 8
	for (int g = 0; g < G; g++)
		for (int j = 0; j < 4; j++)
			x[g][j] = sm4x_mi(x[g][j]);
}

/* The 32 rounds on G groups of four registers of words in the M domain,
 * kpre the round keys through pre(). A round is a chain of latency, so the
 * groups' independent chains are interleaved step by step: the
 * out-of-order window then always holds work of every group. The newest
 * word is XORed in last (with GFNI: s carries the three words, see
 * sm4x_round_gf).
 * With gh (G = SM4X_G only), the SM4X_PASS bytes at ct are also folded into
 * *acc with GHASH, an eighth every four rounds: gcm's multiplies then fill
 * the gaps of the rounds' chains instead of running after them. */
SM4X_FN void sm4x_rounds_m(const uint32_t *kpre, sm4v xm[][4], int G, const struct bc_ghash_x86_key *gh,
                           __m128i *acc, const uint8_t *ct)
{
	/* A local copy: __m128i/__m256i may alias anything, so working through
	 * the pointer would tie every round to memory. */
	sm4v x[8][4];
#if SM4X_GFNI
	sm4v s[8];

#pragma GCC unroll 8
	for (int g = 0; g < G; g++)
		s[g] = SM4V_XOR(SM4V_XOR(xm[g][1], xm[g][2]), xm[g][3]);
#endif
#pragma GCC unroll 8
	for (int g = 0; g < G; g++)
		for (int j = 0; j < 4; j++)
			x[g][j] = xm[g][j];
	for (int r = 0; r < 32; r += 4) {
		if (gh)
			*acc = SM4V_GHASH(gh, *acc, ct + SM4X_PASS / 8 * (r / 4), SM4X_PASS / 128);
#pragma GCC unroll 4
		for (int j = 0; j < 4; j++) {
			sm4v k = SM4V_SET1((int)kpre[r + j]);
#if SM4X_GFNI
#pragma GCC unroll 8
			for (int g = 0; g < G; g++)
				sm4x_round_gf(&x[g][j], &s[g], &x[g][(j + 1) & 3], k, SM4V_C(SM4X_R8), SM4V_C(SM4X_R16),
				              SM4V_C(SM4X_R24));
#else
			sm4v a[8];
#pragma GCC unroll 8
			for (int g = 0; g < G; g++)
				a[g] = SM4V_XOR(SM4V_XOR(SM4V_XOR(x[g][(j + 1) & 3], x[g][(j + 2) & 3]), k), x[g][(j + 3) & 3]);
#pragma GCC unroll 8
			for (int g = 0; g < G; g++)
				x[g][j] = sm4x_round_m(x[g][j], a[g], G == 1);
#endif
		}
	}
#pragma GCC unroll 8
	for (int g = 0; g < G; g++)
		for (int j = 0; j < 4; j++)
			xm[g][j] = x[g][j];
}

/* The same on plain words (into the M domain and back around them). */
SM4X_FN void sm4x_rounds(const uint32_t *kpre, sm4v xm[][4], int G, const struct bc_ghash_x86_key *gh, __m128i *acc,
                         const uint8_t *ct)
{
	sm4x_to_m(xm, G);
	sm4x_rounds_m(kpre, xm, G, gh, acc, ct);
	sm4x_from_m(xm, G);
}

/* Four registers of blocks <-> four registers of words (each word an integer):
 * a byte swap and a 4x4 transposition of 32-bit elements within each lane. */
SM4X_FN void sm4x_transpose(sm4v x[4], sm4v a0, sm4v a1, sm4v a2, sm4v a3)
{
	sm4v t0 = SM4V_UNPLO32(a0, a1), t1 = SM4V_UNPHI32(a0, a1);
	sm4v t2 = SM4V_UNPLO32(a2, a3), t3 = SM4V_UNPHI32(a2, a3);

	x[0] = SM4V_UNPLO64(t0, t2);
	x[1] = SM4V_UNPHI64(t0, t2);
	x[2] = SM4V_UNPLO64(t1, t3);
	x[3] = SM4V_UNPHI64(t1, t3);
}

SM4X_FN void sm4x_to_words(sm4v x[4])
{
	const sm4v bs = SM4V_C(SM4X_BSWAP32);
	sm4x_transpose(x, SM4V_SHUF(x[0], bs), SM4V_SHUF(x[1], bs), SM4V_SHUF(x[2], bs), SM4V_SHUF(x[3], bs));
}

/* The output block is (X35, X34, X33, X32): the words in reverse order. */
SM4X_FN void sm4x_from_words(sm4v x[4])
{
	const sm4v bs = SM4V_C(SM4X_BSWAP32);
	sm4x_transpose(x, x[3], x[2], x[1], x[0]);
	for (int j = 0; j < 4; j++)
		x[j] = SM4V_SHUF(x[j], bs);
}

/* The rounds for ng (1..SM4X_G) groups: one instantiation per count, shared
 * by every mode, so a short tail costs the latency of one pass, not one per group. */
SM4X_API void sm4x_rounds_ng(const uint32_t *kpre, sm4v x[][4], unsigned ng)
{
	switch (ng) {
	case 1: sm4x_rounds(kpre, x, 1, NULL, NULL, NULL); break;
	case 2: sm4x_rounds(kpre, x, 2, NULL, NULL, NULL); break;
	case 3: sm4x_rounds(kpre, x, 3, NULL, NULL, NULL); break;
	case 4: sm4x_rounds(kpre, x, 4, NULL, NULL, NULL); break;
	case 5: sm4x_rounds(kpre, x, 5, NULL, NULL, NULL); break;
	case 6: sm4x_rounds(kpre, x, 6, NULL, NULL, NULL); break;
	case 7: sm4x_rounds(kpre, x, 7, NULL, NULL, NULL); break;
	default: sm4x_rounds(kpre, x, 8, NULL, NULL, NULL); break;
	}
}

/* A full pass's rounds with the GHASH of the full pass at ct (gcm). */
SM4X_API void sm4x_rounds_ghash(const uint32_t *kpre, sm4v x[][4], const struct bc_ghash_x86_key *gh, __m128i *acc,
                                const uint8_t *ct)
{
	sm4x_rounds(kpre, x, SM4X_G, gh, acc, ct);
}

SM4X_FN void sm4x_from_words_ng(sm4v x[][4], unsigned ng)
{
	for (unsigned g = 0; g < ng; g++)
		sm4x_from_words(x[g]);
}

/* ng groups of registers of blocks through the cipher, in place. */
SM4X_FN void sm4x_crypt_ng(const uint32_t *kpre, sm4v b[][4], unsigned ng)
{
	for (unsigned g = 0; g < ng; g++)
		sm4x_to_words(b[g]);
	sm4x_rounds_ng(kpre, b, ng);
	sm4x_from_words_ng(b, ng);
}

/* The groups of registers (SM4X_NB blocks each) that len bytes fill. */
static inline unsigned sm4x_groups(size_t len)
{
	return (unsigned)((len + 16 * SM4X_NB - 1) / (16 * SM4X_NB));
}

#if SM4X_BITS == 512
/* The bytes of register j of the partial group after `full` whole ones
 * that len bytes cover (len is public). */
SM4X_FN __mmask64 sm4x_part_mask(size_t len, unsigned full, unsigned j)
{
	size_t rest = len - 16 * SM4X_NB * full, lo = 64 * (size_t)j;

	return rest >= lo + 64 ? ~(__mmask64)0 : rest > lo ? ((__mmask64)1 << (rest - lo)) - 1 : 0;
}
#endif

/* len bytes (at most one pass) into registers of blocks; a last partial
 * group comes zero-padded through pad, so nothing past src is read.
 * Returns the number of groups. */
SM4X_FN unsigned sm4x_load(sm4v b[][4], const uint8_t *src, size_t len, uint8_t *pad)
{
	unsigned full = (unsigned)(len / (16 * SM4X_NB)), ng = sm4x_groups(len);

	for (unsigned i = 0; i < 4 * full; i++)
		b[i / 4][i % 4] = SM4V_LOAD(src + 16 * SM4X_BPR * i);
#if SM4X_BITS == 512
	/* masked loads (faults suppressed past the mask) instead of the copy */
	(void)pad;
	for (unsigned j = 0; ng > full && j < 4; j++)
		b[full][j] = _mm512_maskz_loadu_epi8(sm4x_part_mask(len, full, j), src + 16 * SM4X_NB * full + 64 * j);
#else
	if (ng > full) {
		memset(pad, 0, 16 * SM4X_NB);
		memcpy(pad, src + 16 * SM4X_NB * full, len - 16 * SM4X_NB * full);
		for (unsigned j = 0; j < 4; j++)
			b[full][j] = SM4V_LOAD(pad + 16 * SM4X_BPR * j);
	}
#endif
	return ng;
}

/* The first len bytes of the registers to dst, nothing past dst + len written. */
SM4X_FN void sm4x_store(uint8_t *dst, sm4v b[][4], size_t len, uint8_t *pad)
{
	unsigned full = (unsigned)(len / (16 * SM4X_NB));

	for (unsigned i = 0; i < 4 * full; i++)
		SM4V_STORE(dst + 16 * SM4X_BPR * i, b[i / 4][i % 4]);
#if SM4X_BITS == 512
	(void)pad;
	for (unsigned j = 0; len > 16 * SM4X_NB * full && j < 4; j++)
		_mm512_mask_storeu_epi8(dst + 16 * SM4X_NB * full + 64 * j, sm4x_part_mask(len, full, j), b[full][j]);
#else
	if (len > 16 * SM4X_NB * full) {
		for (unsigned j = 0; j < 4; j++)
			SM4V_STORE(pad + 16 * SM4X_BPR * j, b[full][j]);
		memcpy(dst + 16 * SM4X_NB * full, pad, len - 16 * SM4X_NB * full);
	}
#endif
}

/* The next pass of left bytes: the passes share the length evenly (in whole
 * groups), so a tail is not left to run with few chains: with 256-bit
 * registers 89 blocks go as 48 + 41, not 64 + 25. */
static inline size_t sm4x_pass_len(size_t left)
{
	size_t passes = (left + SM4X_PASS - 1) / SM4X_PASS;
	size_t m = (left + passes - 1) / passes;

	m = (m + 16 * SM4X_NB - 1) & ~(size_t)(16 * SM4X_NB - 1);
	return m < left ? m : left;
}

/* The groups a len-byte message's passes write: those of its first pass,
 * the largest. What a mode wipes of its pass arrays at the end. */
static inline unsigned sm4x_used_groups(size_t len)
{
	return len ? sm4x_groups(sm4x_pass_len(len)) : 0;
}

/* ---- one block, latency first ----------------------------------------------------------
 * A lone block keeps each of its four words in every 32-bit lane, so
 * ShiftRows moves nothing; the round is the M-domain one, its XORs ordered
 * for the shortest chain: everything of the next round's input but this
 * round's output (d) joins M x0 beside the chain (c), so the round's result
 * is the next y at once. */

#if !SM4X_GFNI && SM4X_BITS == 128
/* The lookups run side by side (V3 through rotated nibble indices); the
 * permutations are plain rotations, the AESENCLAST output being in order. */
SM4X_FN sm4v sm4x_round1(sm4v c, sm4v y)
{
	const sm4v m = SM4X_NIBBLES;
	sm4v a = SM4V_AESLAST(y, SM4V_SET1(0));
	sm4v lo = SM4V_AND(a, m), hi = SM4V_AND(SM4V_SRL32(a, 4), m);
	sm4v e = SM4V_XOR(SM4V_XOR(c, SM4V_SHUF(SM4V_C(SM4X_V0_LO), lo)), SM4V_SHUF(SM4V_C(SM4X_V0_HI), hi));
	sm4v v3 = SM4V_XOR(SM4V_SHUF(SM4V_C(SM4X_V3_LO), SM4V_SHUF(lo, SM4V_C(SM4X_R24))),
	                   SM4V_SHUF(SM4V_C(SM4X_V3_HI), SM4V_SHUF(hi, SM4V_C(SM4X_R24))));
	sm4v v1 = SM4V_XOR(SM4V_SHUF(SM4V_C(SM4X_V1_LO), lo), SM4V_SHUF(SM4V_C(SM4X_V1_HI), hi));

	e = SM4V_XOR(e, v3);
	SM4X_KEEP(e);
	return SM4V_XOR(e, SM4V_XOR(SM4V_SHUF(v1, SM4V_C(SM4X_R8)), SM4V_SHUF(v1, SM4V_C(SM4X_R16))));
}
#endif

#if SM4X_BITS == 128 || SM4X_GFNI
/* (With GFNI also on zmm: a lone block costs the same latency there.)
 * kpre: the round keys through pre() */
SM4X_FN __m128i sm4x_block1(const uint32_t *kpre, __m128i blk)
{
	sm4v v = sm4x_m(SM4V_SHUF(SM4V_BCAST128(blk), SM4V_C(SM4X_BSWAP32)));
	sm4v x0 = SM4V_SHUF32(v, 0x00), x1 = SM4V_SHUF32(v, 0x55);
	sm4v x2 = SM4V_SHUF32(v, 0xaa), x3 = SM4V_SHUF32(v, 0xff);
	sm4v y = SM4V_XOR(SM4V_XOR(x1, x2), SM4V_XOR(x3, SM4V_SET1((int)kpre[0])));

	for (int i = 0; i < 32; i++) {
		/* (after the last round nothing follows: no key) */
		uint32_t kn = i < 31 ? kpre[i + 1] : 0;
		sm4v d = SM4V_XOR(SM4V_XOR(x2, SM4V_SET1((int)kn)), x3);
		/* c = x0 ^ d, but x3 = x1 ^ x2 ^ y ^ kpre[i]: so c = y ^ (words and keys
		 * known a round ago), one XOR after y, in time to meet V0 */
		sm4v c = SM4V_XOR(SM4V_XOR(x0, x1), SM4V_SET1((int)(kpre[i] ^ kn)));

		SM4X_KEEP(c);
		c = SM4V_XOR(y, c);
		SM4X_KEEP(c);
		/* y = M(x0 ^ T) ^ d, so the new word is y ^ d */
		y = sm4x_round1(c, y);
		x0 = x1;
		x1 = x2;
		x2 = x3;
		x3 = SM4V_XOR(y, d);
	}
	v = SM4V_UNPLO64(SM4V_UNPLO32(x3, x2), SM4V_UNPLO32(x1, x0));
	return SM4V_LO128(SM4V_SHUF(sm4x_mi(v), SM4V_C(SM4X_BSWAP32)));
}

/* One block in a register, for the modes' serial steps (a tweak, E(J0)). */
#define sm4x_enc1 sm4x_block1

SM4X_API void sm4x_crypt1(const uint32_t kpre[32], uint8_t dst[16], const uint8_t src[16])
{
	_mm_storeu_si128((__m128i *)(void *)dst, sm4x_block1(kpre, _mm_loadu_si128((const __m128i *)(const void *)src)));
}

/* The CBC chain: st = E(st ^ block) for each block, every st also written to
 * dst unless dst is NULL (the CBC-MAC of cmac, xcbc and cbcmac). */
SM4X_FN void sm4x_chain(const uint32_t *kpre, uint8_t st[16], const uint8_t *src, uint8_t *dst, size_t nblocks)
{
	__m128i s = _mm_loadu_si128((const __m128i *)(void *)st);

	for (size_t i = 0; i < nblocks; i++) {
		s = sm4x_block1(kpre, _mm_xor_si128(s, _mm_loadu_si128((const __m128i *)(const void *)(src + 16 * i))));
		if (dst)
			_mm_storeu_si128((__m128i *)(void *)(dst + 16 * i), s);
	}
	_mm_storeu_si128((__m128i *)(void *)st, s);
}

SM4X_API void sm4x_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	sm4x_chain(((const struct bc_sm4_x86_key *)ctx)->enc_pre, st, src, NULL, nblocks);
}

SM4X_API int sm4x_cbc_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	sm4x_chain(((const struct bc_sm4_x86_key *)ctx)->enc_pre, iv, src, dst, len / 16);
	return 0;
}
#else
/* The 256-bit AES-NI drivers share the 128-bit driver's one-block paths
 * (sm4_aesni_avx.c exports them), where a lone block fits 128 bits. */
void bc_sm4_x86_crypt1(const uint32_t kpre[32], uint8_t dst[16], const uint8_t src[16]);
void bc_sm4_x86_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks);
int bc_sm4_x86_cbc_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len);
#define sm4x_crypt1 bc_sm4_x86_crypt1
#define sm4x_mac bc_sm4_x86_mac
#define sm4x_cbc_encrypt bc_sm4_x86_cbc_encrypt

SM4X_FN __m128i sm4x_enc1(const uint32_t *kpre, __m128i v)
{
	uint8_t b[16];

	_mm_storeu_si128((__m128i *)(void *)b, v);
	sm4x_crypt1(kpre, b, b);
	v = _mm_loadu_si128((const __m128i *)(void *)b);
	bc_wipe(b, sizeof(b));
	return v;
}
#endif

/* ---- ECB (and the cipher's multi-block encrypt/decrypt) ------------------------------ */
SM4X_API int sm4x_ecb(const struct bc_sm4_x86_key *k, int dec, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	const uint32_t *kpre = dec ? k->dec_pre : k->enc_pre;
	sm4v b[SM4X_G][4];
	uint8_t pad[16 * SM4X_NB];
	size_t len = 16 * nblocks;

	if (nblocks == 1) {
		sm4x_crypt1(kpre, dst, src);
		return 0;
	}
	for (; len; ) {
		size_t m = sm4x_pass_len(len);

		sm4x_crypt_ng(kpre, b, sm4x_load(b, src, m, pad));
		sm4x_store(dst, b, m, pad);
		src += m;
		dst += m;
		len -= m;
	}
	/* b's padding slots hold E(0) or D(0): key-derived */
	bc_wipe(b, sm4x_used_groups(16 * nblocks) * sizeof(b[0]));
	if (nblocks % SM4X_NB)
		bc_wipe(pad, sizeof(pad));
	return 0;
}

static void sm4x_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	sm4x_ecb(ctx, 0, dst, src, nblocks);
}

static void sm4x_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	sm4x_ecb(ctx, 1, dst, src, nblocks);
}

static int sm4x_ecb_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	return sm4x_ecb(ctx, 0, dst, src, len / 16);
}

static int sm4x_ecb_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	return sm4x_ecb(ctx, 1, dst, src, len / 16);
}

/* ---- CBC decryption: parallel ---------------------------------------------------------
 * Each block's predecessor comes from the ciphertext registers themselves
 * (shifted by one block), and the chaining value is read before anything is
 * written, so dst == src works. */
SM4X_API int sm4x_cbc_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const uint32_t *kpre = ((const struct bc_sm4_x86_key *)ctx)->dec_pre;
	__m128i prev = _mm_loadu_si128((const __m128i *)(void *)iv);
	sm4v b[SM4X_G][4], p[SM4X_G][4];
	uint8_t pad[16 * SM4X_NB];

	if (len == 16) {
		/* One block (a 16-byte EVP update, a MAC-sized record): the one-block
		 * path, not a whole group padded out; c is read before dst is written. */
		__m128i c = _mm_loadu_si128((const __m128i *)(const void *)src);

		sm4x_crypt1(kpre, dst, src);
		_mm_storeu_si128((__m128i *)(void *)dst,
				 _mm_xor_si128(_mm_loadu_si128((const __m128i *)(void *)dst), prev));
		_mm_storeu_si128((__m128i *)(void *)iv, c);
		return 0;
	}
	for (size_t left = len; left; ) {
		size_t m = sm4x_pass_len(left);
		unsigned ng = sm4x_load(b, src, m, pad);
		__m128i last = _mm_loadu_si128((const __m128i *)(const void *)(src + m - 16));

		for (unsigned i = 0; i < 4 * ng; i++) {
#if SM4X_BITS == 128
			p[i / 4][i % 4] = i ? b[(i - 1) / 4][(i - 1) % 4] : prev;
#elif SM4X_BITS == 512
			/* the last block of the register before, then the first three of this one */
			p[i / 4][i % 4] = _mm512_alignr_epi64(b[i / 4][i % 4], i ? b[(i - 1) / 4][(i - 1) % 4]
			                                                         : _mm512_broadcast_i32x4(prev), 6);
#else
			p[i / 4][i % 4] = i ? _mm256_permute2x128_si256(b[(i - 1) / 4][(i - 1) % 4], b[i / 4][i % 4], 0x21)
			                    : _mm256_permute2x128_si256(_mm256_castsi128_si256(prev), b[0][0], 0x20);
#endif
		}
		sm4x_crypt_ng(kpre, b, ng);
		for (unsigned i = 0; i < 4 * ng; i++)
			b[i / 4][i % 4] = SM4V_XOR(b[i / 4][i % 4], p[i / 4][i % 4]);
		sm4x_store(dst, b, m, pad);
		prev = last;
		src += m;
		dst += m;
		left -= m;
	}
	_mm_storeu_si128((__m128i *)(void *)iv, prev);
	bc_wipe(b, sm4x_used_groups(len) * sizeof(b[0]));   /* plaintext, and D(0) ^ c in padding slots */
	if ((len / 16) % SM4X_NB)
		bc_wipe(pad, sizeof(pad));
	return 0;
}

/* ---- CTR: the whole block is a 128-bit big-endian counter ----------------------------
 * Counter blocks (w0:w1:w2:w3) + 0 .. 4*ng*BPR-1 straight into registers of
 * words: a lane add on word 3 and the carries rippled up with compares.
 * The counter is public here (gcm_base builds its own counter blocks when
 * they derive from GHASH_H(IV)); the carries need no branch anyway. */
SM4X_FN void sm4x_ctr_words(sm4v x[][4], uint64_t hi, uint64_t lo, unsigned ng)
{
	const sm4v top = SM4V_SET1(INT32_MIN), zero = SM4V_SET1(0);
	const sm4v w0 = SM4V_SET1((int)(uint32_t)(hi >> 32)), w1 = SM4V_SET1((int)(uint32_t)hi);
	const sm4v w2 = SM4V_SET1((int)(uint32_t)(lo >> 32)), w3 = SM4V_SET1((int)(uint32_t)lo);

	for (unsigned g = 0; g < ng; g++) {
		sm4v x3 = SM4V_ADD32(w3, SM4V_ADD32(SM4V_SET1((int)(g * SM4X_NB)), SM4V_LANES()));
		/* all-ones where the 32-bit add wrapped (an unsigned compare) */
		sm4v c = SM4V_CMPGT32(SM4V_XOR(w3, top), SM4V_XOR(x3, top));
		sm4v x2 = SM4V_SUB32(w2, c);

		c = SM4V_AND(c, SM4V_CMPEQ32(x2, zero));
		sm4v x1 = SM4V_SUB32(w1, c);

		c = SM4V_AND(c, SM4V_CMPEQ32(x1, zero));
		x[g][0] = SM4V_SUB32(w0, c);
		x[g][1] = x1;
		x[g][2] = x2;
		x[g][3] = x3;
	}
}

/* dst = src ^ keystream in registers, for m bytes. */
SM4X_FN void sm4x_xor_out(uint8_t *dst, const uint8_t *src, sm4v x[][4], size_t m, uint8_t *pad)
{
	sm4v d[SM4X_G][4];
	unsigned ng = sm4x_load(d, src, m, pad);

	for (unsigned i = 0; i < 4 * ng; i++)
		d[i / 4][i % 4] = SM4V_XOR(d[i / 4][i % 4], x[i / 4][i % 4]);
	sm4x_store(dst, d, m, pad);
}

SM4X_API int sm4x_ctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_sm4_x86_key *k = ctx;
	const uint32_t *kpre = k->enc_pre;
	uint64_t hi, lo, n = 0;
	sm4v x[SM4X_G][4];
	uint8_t pad[16 * SM4X_NB];

	bc_x86_ctr_load(iv, &hi, &lo);
	if (len && len <= 16) {
		/* counter block 0 is the IV as it lies in memory */
		__m128i ks = sm4x_enc1(kpre, _mm_loadu_si128((const __m128i *)(const void *)iv));

		if (len == 16)
			_mm_storeu_si128((__m128i *)(void *)dst,
			                 _mm_xor_si128(ks, _mm_loadu_si128((const __m128i *)(const void *)src)));
		else
			bc_x86_store_part(dst, _mm_xor_si128(ks, bc_x86_load_part(src, len)), len);
		bc_x86_ctr_store(iv, hi, lo, 1);
		return 0;
	}
	for (size_t left = len; left; ) {
		size_t m = sm4x_pass_len(left);
		unsigned ng = sm4x_groups(m);

		sm4x_ctr_words(x, hi + (lo + n < lo), lo + n, ng);
		sm4x_rounds_ng(kpre, x, ng);
		sm4x_from_words_ng(x, ng);
		sm4x_xor_out(dst, src, x, m, pad);
		n += (m + 15) / 16;
		src += m;
		dst += m;
		left -= m;
	}
	bc_x86_ctr_store(iv, hi, lo, n);
	/* keystream, in padding slots that of the counters the next call starts from */
	bc_wipe(x, sm4x_used_groups(len) * sizeof(x[0]));
	if (len % (16 * SM4X_NB))
		bc_wipe(pad, sizeof(pad));
	return 0;
}

/* ---- XTS: tweaks in registers, ciphertext stealing at the end --------------------------
 * The tweaks of the next SM4X_BPR blocks in one register; t advances past them. */
SM4X_FN sm4v sm4x_tweaks(__m128i *t, __m128i mask)
{
#if SM4X_BITS == 128
	sm4v r = *t;

	*t = bc_x86_xts_mul_x(*t, mask);
	return r;
#elif SM4X_BITS == 512
	__m128i t1 = bc_x86_xts_mul_x(*t, mask), t2 = bc_x86_xts_mul_x(t1, mask), t3 = bc_x86_xts_mul_x(t2, mask);
	sm4v r = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_set_m128i(t1, *t)), _mm256_set_m128i(t3, t2), 1);

	*t = bc_x86_xts_mul_x(t3, mask);
	return r;
#else
	__m128i t1 = bc_x86_xts_mul_x(*t, mask);
	sm4v r = _mm256_set_m128i(t1, *t);

	*t = bc_x86_xts_mul_x(t1, mask);
	return r;
#endif
}

/* Each 128-bit lane (a tweak, little-endian) times x^8: a byte shift, and
 * the byte pushed out, b, comes back as b * (x^7 + x^2 + x + 1), at most 15
 * bits, made with 64-bit shifts. */
SM4X_FN sm4v sm4x_mul_x8(sm4v v)
{
	sm4v b = SM4V_BSRL(v, 15);

	return SM4V_XOR(SM4V_XOR(SM4V_BSLL(v, 1), SM4V_XOR(b, SM4V_SLL64(b, 1))),
	                SM4V_XOR(SM4V_SLL64(b, 2), SM4V_SLL64(b, 7)));
}

/* The tweaks of a pass, n registers, t advancing past them. Doubling one
 * tweak after the other is a chain of some ten cycles per block, as long
 * as the pass's cipher work at this width; so only the first 8 tweaks are
 * doubled, and the rest come eight blocks on from them by x^8 on
 * 8 / SM4X_BPR independent chains. */
SM4X_FN void sm4x_tweak_pass(sm4v tw[][4], unsigned n, __m128i *t, __m128i mask)
{
	enum { S = 8 / SM4X_BPR };
	unsigned i;

	for (i = 0; i < n && i < S; i++)
		tw[i / 4][i % 4] = sm4x_tweaks(t, mask);
	if (i == n)
		return;
	for (; i < n; i++)
		tw[i / 4][i % 4] = sm4x_mul_x8(tw[(i - S) / 4][(i - S) % 4]);
#if SM4X_BITS == 128
	*t = bc_x86_xts_mul_x(tw[(n - 1) / 4][(n - 1) % 4], mask);
#elif SM4X_BITS == 512
	*t = bc_x86_xts_mul_x(_mm512_extracti32x4_epi32(tw[(n - 1) / 4][(n - 1) % 4], 3), mask);
#else
	*t = bc_x86_xts_mul_x(_mm256_extracti128_si256(tw[(n - 1) / 4][(n - 1) % 4], 1), mask);
#endif
}

/* One block: dst = E(src ^ t) ^ t (or D). */
SM4X_FN void sm4x_xts_one(const uint32_t *kpre, uint8_t *dst, const uint8_t *src, __m128i t)
{
	__m128i x = sm4x_enc1(kpre, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)src), t));

	_mm_storeu_si128((__m128i *)(void *)dst, _mm_xor_si128(x, t));
}

/*
 * len = 16m + r, m >= 1. With r = 0 all m blocks are ordinary. Otherwise
 * (IEEE 1619 5.3.2, 5.4.2) block m-1 and the partial block m are stolen:
 * encryption makes CC from block m-1 with T_{m-1} as usual, outputs its first
 * r bytes as the partial block and encrypts P_m || CC[r..] with T_m as block
 * m-1; decryption undoes block m-1 with T_m first, then the rebuilt block with
 * T_{m-1}. So the ordinary passes take block m-1 along (with T_m when
 * decrypting: the last two tweaks swap), and only the stolen block is left
 * for one more single block.
 */
SM4X_FN void sm4x_xts(const struct bc_sm4_x86_xts_key *key, int enc, const uint8_t *iv,
                      const uint8_t *src, uint8_t *dst, size_t len)
{
	const uint32_t *kpre = enc ? key->k1.enc_pre : key->k1.dec_pre;
	const __m128i mask = bc_x86_xts_mask();
	const size_t r = len % 16, whole = len - r;
	sm4v b[SM4X_G][4], tw[SM4X_G][4];
	uint8_t pad[16 * SM4X_NB];
	/* the groups of tw and b the passes use */
	const unsigned used = sm4x_used_groups(whole == 16 ? 0 : whole);
	__m128i t = sm4x_enc1(key->k2.enc_pre, _mm_loadu_si128((const __m128i *)(const void *)iv)), ta = t, tb = t;

	if (whole == 16) {
		tb = bc_x86_xts_mul_x(t, mask);
		sm4x_xts_one(kpre, dst, src, r && !enc ? tb : ta);
	}
	for (size_t left = whole == 16 ? 0 : whole; left; ) {
		size_t m = sm4x_pass_len(left);
		unsigned ng = sm4x_load(b, src, m, pad);

		sm4x_tweak_pass(tw, 4 * ng, &t, mask);
		if (m == left && r) {
			/* T_{m-1}, T_m of the stolen pair; decryption swaps them in. */
			uint8_t tt[16 * SM4X_NB];
			size_t last = m / 16 - 1;

			for (unsigned j = 0; j < 4; j++)
				SM4V_STORE(tt + 16 * SM4X_BPR * j, tw[ng - 1][j]);
			last %= SM4X_NB;
			ta = _mm_loadu_si128((const __m128i *)(void *)(tt + 16 * last));
			/* T_m is the next tweak in tt, or past its end the next one t. */
			tb = last == SM4X_NB - 1 ? t : _mm_loadu_si128((const __m128i *)(void *)(tt + 16 * last + 16));
			if (!enc) {
				_mm_storeu_si128((__m128i *)(void *)(tt + 16 * last), tb);
				for (unsigned j = 0; j < 4; j++)
					tw[ng - 1][j] = SM4V_LOAD(tt + 16 * SM4X_BPR * j);
			}
			bc_wipe(tt, sizeof(tt));
		}
		for (unsigned i = 0; i < 4 * ng; i++)
			b[i / 4][i % 4] = SM4V_XOR(b[i / 4][i % 4], tw[i / 4][i % 4]);
		sm4x_crypt_ng(kpre, b, ng);
		for (unsigned i = 0; i < 4 * ng; i++)
			b[i / 4][i % 4] = SM4V_XOR(b[i / 4][i % 4], tw[i / 4][i % 4]);
		sm4x_store(dst, b, m, pad);
		src += m;
		dst += m;
		left -= m;
	}
	if (whole == 16) {
		src += 16;
		dst += 16;
	}
	if (r) {
		/* dst - 16 holds CC (or PP); the stolen block takes the r bytes of
		 * block m and the rest of CC, and goes into block m-1's place. r and
		 * last (above) come from the public length: no secret sizes a copy. */
		uint8_t part[16];

		memcpy(part, src, r);
		memcpy(part + r, dst - 16 + r, 16 - r);
		memcpy(dst, dst - 16, r);
		sm4x_xts_one(kpre, dst - 16, part, enc ? tb : ta);
		bc_wipe(part, sizeof(part));
	}
	/* the tweaks come from E_K2(iv): key-derived, like xts-aes-vaes-avx2's
	 * buffer; b (the same groups) holds E(T) ^ T in padding slots */
	bc_wipe(tw, used * sizeof(tw[0]));
	bc_wipe(b, used * sizeof(b[0]));
	bc_wipe(pad, sizeof(pad));
}

SM4X_API int sm4x_xts_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	sm4x_xts(ctx, 1, iv, src, dst, len);
	return 0;
}

SM4X_API int sm4x_xts_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	sm4x_xts(ctx, 0, iv, src, dst, len);
	return 0;
}

/* ---- up to 8 CBC-MAC chains at once (bc_shash_digest_many) ---------------------------
 * One chain per block slot of 8; missing chains run on zeros. The states
 * stay in registers as words in the M domain from block to block: M is
 * linear, so each message block is transposed and mapped on its own, off
 * the chain, which is then only the XOR and the rounds. A block's output
 * words are the rounds' last four in reverse order. */
#if SM4X_BITS == 512
/* eight chains fill half a group of zmm: the 256-bit driver's */
void bc_sm4_gfni_mac_many(const void *ctx, unsigned n, uint8_t (*st)[16], const uint8_t *const src[], size_t nblocks);
#define sm4x_mac_many bc_sm4_gfni_mac_many
#else
SM4X_API void sm4x_mac_many(const void *ctx, unsigned n, uint8_t (*st)[16], const uint8_t *const src[], size_t nblocks)
{
	enum { GM = 8 / SM4X_NB };
	static const uint8_t zero[16];
	const uint32_t *kpre = ((const struct bc_sm4_x86_key *)ctx)->enc_pre;
	const uint8_t *p[8];
	size_t step[8];
	uint8_t buf[8 * 16] = { 0 };
	sm4v s[GM][4], x[GM][4];

	for (unsigned c = 0; c < 8; c++) {
		p[c] = c < n ? src[c] : zero;
		step[c] = c < n ? 16 : 0;
	}
	memcpy(buf, st, 16 * (size_t)n);
	for (int j = 0; j < 4 * GM; j++)
		s[j / 4][j % 4] = SM4V_LOAD(buf + 16 * SM4X_BPR * j);
	for (int g = 0; g < GM; g++)
		sm4x_to_words(s[g]);
	sm4x_to_m(s, GM);
	for (size_t i = 0; i < nblocks; i++) {
#pragma GCC unroll 8
		for (int j = 0; j < 4 * GM; j++) {
#if SM4X_BITS == 128
			x[j / 4][j % 4] = SM4V_LOAD(p[j]);
#else
			x[j / 4][j % 4] = _mm256_set_m128i(_mm_loadu_si128((const __m128i *)(const void *)p[2 * j + 1]),
			                                   _mm_loadu_si128((const __m128i *)(const void *)p[2 * j]));
#endif
		}
		for (unsigned c = 0; c < 8; c++)
			p[c] += step[c];
		for (int g = 0; g < GM; g++)
			sm4x_to_words(x[g]);
		sm4x_to_m(x, GM);
		for (int j = 0; j < 4 * GM; j++)
			x[j / 4][j % 4] = SM4V_XOR(x[j / 4][j % 4], s[j / 4][j % 4]);
		sm4x_rounds_m(kpre, x, GM, NULL, NULL, NULL);
		for (int j = 0; j < 4 * GM; j++)
			s[j / 4][j % 4] = x[j / 4][3 - j % 4];
	}
	for (int j = 0; j < 4 * GM; j++)
		x[j / 4][j % 4] = s[j / 4][3 - j % 4];
	sm4x_from_m(x, GM);
	for (int g = 0; g < GM; g++)
		sm4x_from_words(x[g]);
	for (int j = 0; j < 4 * GM; j++)
		SM4V_STORE(buf + 16 * SM4X_BPR * j, x[j / 4][j % 4]);
	memcpy(st, buf, 16 * (size_t)n);
	bc_wipe(buf, sizeof(buf));
}
#endif

/* ---- GCM: SM4-CTR (inc32 on the last word) fused with GHASH --------------------------
 * GHASH of one pass of m bytes of ciphertext. The last pass's partial block
 * (or all of a short last pass) goes with the length block into one group. */
SM4X_FN __m128i sm4x_gcm_hash(const struct bc_ghash_x86_key *gh, __m128i acc, const uint8_t *ct, size_t m,
                              int last, size_t adlen, size_t len)
{
	size_t bulk = !last ? m : m < 256 ? 0 : m & ~(size_t)15;

	acc = SM4V_GHASH(gh, acc, ct, bulk / 16);
	return last ? bc_gcm_x86_final(gh, acc, ct + bulk, m - bulk, adlen, len) : acc;
}

/* The whole of GCM but the tag: returns the final GHASH S (reflected) and
 * E(J0) in *ej0. Each pass's keystream comes from counter words w[0..2] and
 * c + lane, which wraps modulo 2^32 exactly as inc32 does. A full pass of
 * ciphertext is hashed during a full pass's rounds: when decrypting its
 * own (read before dst, which may be src, is written), when encrypting the
 * previous one's (pend). Other passes are hashed beside. */
/* Out of line, so that its frame (keystream groups, and round keys the
 * compiler spills) lies below its caller's, where bc_burn_stack_deep reaches. */
static __attribute__((noinline, target(SM4X_TARGET)))
__m128i sm4x_gcm(const struct bc_sm4_x86_gcm_key *key, int enc, const uint8_t *iv, size_t ivlen,
                 const uint8_t *ad, size_t adlen, const uint8_t *src, uint8_t *dst, size_t len, __m128i *ej0)
{
	const uint32_t *kpre = key->k.enc_pre;
	struct bc_gcm_x86_state st;
	sm4v x[SM4X_G][4];
	uint8_t pad[16 * SM4X_NB];
	const uint8_t *pend = NULL;

	bc_gcm_x86_start(&key->gh, &st, iv, ivlen, ad, adlen);
	*ej0 = sm4x_enc1(kpre, st.j0);

	/* st.ctr is reflected: its lanes 3..0 are the counter block's words 0..3. */
	const sm4v w0 = SM4V_SET1(_mm_extract_epi32(st.ctr, 3)), w1 = SM4V_SET1(_mm_extract_epi32(st.ctr, 2)),
	           w2 = SM4V_SET1(_mm_extract_epi32(st.ctr, 1));
	uint32_t c = (uint32_t)_mm_extract_epi32(st.ctr, 0);
	__m128i acc = st.acc;

	for (size_t left = len; left; ) {
		size_t m = sm4x_pass_len(left);
		unsigned ng = sm4x_groups(m);
		const sm4v cv = SM4V_SET1((int)c);
		const uint8_t *gct = NULL;

		if (!enc && m == SM4X_PASS && m != left)
			gct = src;
		else if (!enc)
			acc = sm4x_gcm_hash(&key->gh, acc, src, m, m == left, adlen, len);
		else if (pend && ng == SM4X_G)
			gct = pend;
		else if (pend)
			acc = sm4x_gcm_hash(&key->gh, acc, pend, SM4X_PASS, 0, adlen, len);
		for (unsigned g = 0; g < ng; g++) {
			x[g][0] = w0;
			x[g][1] = w1;
			x[g][2] = w2;
			/* c only in a register: kept out of the loop's scalar arithmetic,
			 * a counter derived from GHASH_H(IV) never meets a branch */
			x[g][3] = SM4V_ADD32(cv, SM4V_ADD32(SM4V_SET1((int)(g * SM4X_NB)), SM4V_LANES()));
		}
		if (gct)
			sm4x_rounds_ghash(kpre, x, &key->gh, &acc, gct);
		else
			sm4x_rounds_ng(kpre, x, ng);
		sm4x_from_words_ng(x, ng);
		sm4x_xor_out(dst, src, x, m, pad);
		pend = NULL;
		if (enc && m == SM4X_PASS && m != left)
			pend = dst;
		else if (enc)
			acc = sm4x_gcm_hash(&key->gh, acc, dst, m, m == left, adlen, len);
		c += (uint32_t)(m / 16);
		src += m;
		dst += m;
		left -= m;
	}
	if (!len)
		acc = bc_gcm_x86_final(&key->gh, acc, src, 0, adlen, 0);
	bc_wipe(x, sm4x_used_groups(len) * sizeof(x[0]));   /* keystream */
	bc_wipe(pad, sizeof(pad));
	return acc;
}

SM4X_API void sm4x_gcm_encrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
                               const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag, size_t taglen)
{
	__m128i ej0, s = sm4x_gcm(ctx, 1, iv, ivlen, ad, adlen, src, dst, len, &ej0);

	bc_burn_stack_deep();
	bc_gcm_x86_tag(s, ej0, tag, taglen);
}

SM4X_API int sm4x_gcm_decrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
                              const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag, size_t taglen)
{
	__m128i ej0, s = sm4x_gcm(ctx, 0, iv, ivlen, ad, adlen, src, dst, len, &ej0);

	bc_burn_stack_deep();
	return bc_gcm_x86_verify(s, ej0, tag, taglen, dst, len);
}
