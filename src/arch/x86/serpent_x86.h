/* blockcrypt x86-64: Serpent on 256- or 512-bit registers with fused ecb, cbc, ctr and xts, one body for both widths.
 * Anderson, Biham, Knudsen, "Serpent: A Proposal for the AES"; NIST SP 800-38A (cbc, ctr); IEEE 1619-2018 (xts). */
#ifndef BC_SERPENT_X86_H
#define BC_SERPENT_X86_H

#include "../../cipher/serpent.h"

/* The skcipher key schedules (serpent_avx2.c): the cipher's, and the two
 * xts keys key1 || key2 (data, tweak) of equal length, equal halves refused
 * unless allowed (IEEE 1619-2018 5.1). */
struct bc_serpent_x86_xts_key {
	struct serpent_ctx k1;
	struct serpent_ctx k2;
};
int bc_serpent_x86_skcipher_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags);
int bc_serpent_x86_xts_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags);

#define BC_SERPENT_X86_DRIVERS(id, impl, cprio, mprio, cpubits)                                       \
	const struct bc_cipher_alg bc_serpent_##id = {                                                \
		.name = "serpent", .driver = "serpent-" impl, .priority = cprio, .cpu = cpubits,      \
		.min_keysize = 0, .max_keysize = 32, .ctxsize = sizeof(struct serpent_ctx),          \
		.setkey = bc_serpent_setkey, .encrypt = spx_encrypt, .decrypt = spx_decrypt,          \
		.mac = spx_mac,                                                                       \
	};                                                                                            \
	const struct bc_skcipher_alg bc_ecb_serpent_##id = {                                          \
		.name = "ecb(serpent)", .driver = "ecb-serpent-" impl, .priority = mprio,             \
		.cpu = cpubits, .min_keysize = 0, .max_keysize = 32, .ivsize = 0, .blocksize = 16,    \
		.min_len = 0, .len_align = 16, .ctxsize = sizeof(struct serpent_ctx),                 \
		.setkey = bc_serpent_x86_skcipher_setkey, .encrypt = spx_ecb_encrypt,                 \
		.decrypt = spx_ecb_decrypt,                                                           \
	};                                                                                            \
	const struct bc_skcipher_alg bc_cbc_serpent_##id = {                                          \
		.name = "cbc(serpent)", .driver = "cbc-serpent-" impl, .priority = mprio,             \
		.cpu = cpubits, .min_keysize = 0, .max_keysize = 32, .ivsize = 16, .blocksize = 16,   \
		.min_len = 0, .len_align = 16, .ctxsize = sizeof(struct serpent_ctx),                 \
		.setkey = bc_serpent_x86_skcipher_setkey, .encrypt = spx_cbc_encrypt,                 \
		.decrypt = spx_cbc_decrypt,                                                           \
	};                                                                                            \
	const struct bc_skcipher_alg bc_ctr_serpent_##id = {                                          \
		.name = "ctr(serpent)", .driver = "ctr-serpent-" impl, .priority = mprio,             \
		.cpu = cpubits, .min_keysize = 0, .max_keysize = 32, .ivsize = 16, .blocksize = 1,    \
		.min_len = 0, .len_align = 1, .ctxsize = sizeof(struct serpent_ctx),                  \
		.setkey = bc_serpent_x86_skcipher_setkey, .encrypt = spx_ctr_crypt,                   \
		.decrypt = spx_ctr_crypt,                                                             \
	};                                                                                            \
	const struct bc_skcipher_alg bc_xts_serpent_##id = {                                          \
		.name = "xts(serpent)", .driver = "xts-serpent-" impl, .priority = mprio,             \
		.cpu = cpubits, .min_keysize = 0, .max_keysize = 64, .ivsize = 16, .blocksize = 16,   \
		.min_len = 16, .len_align = 1, .ctxsize = sizeof(struct bc_serpent_x86_xts_key),      \
		.setkey = bc_serpent_x86_xts_setkey, .encrypt = spx_xts_encrypt,                      \
		.decrypt = spx_xts_decrypt,                                                           \
	}

#endif /* BC_SERPENT_X86_H */

/* ==== the width-specific part, instantiated once per including file ====
 * SPX_BITS (256 or 512) and SPX_TARGET (the target attribute) come first. */
#if !defined(SPX_BITS) || !defined(SPX_TARGET)
#error "define SPX_BITS and SPX_TARGET before including serpent_x86.h"
#endif

#include "x86_util.h"

#define SPX_FN static inline __attribute__((always_inline, target(SPX_TARGET)))
#define SPX_API static __attribute__((target(SPX_TARGET)))
#define SPX_PASS_FN static __attribute__((noinline, target(SPX_TARGET)))

/* One 32-bit lane per block in the rounds; in the modes, one block per 128-bit lane. */
typedef uint32_t spv __attribute__((vector_size(SPX_BITS / 8)));
#define SPX_L (SPX_BITS / 128)      /* blocks per register */
#define SPX_HALF (4 * SPX_L)        /* one set: four registers */
#define SPX_PASS (2 * SPX_HALF)     /* two sets in flight */

#if SPX_BITS == 256
#define SPX_I(v) ((__m256i)(v))
#define SPX_LOAD(p) ((spv)_mm256_loadu_si256((const __m256i *)(const void *)(p)))
#define SPX_STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), SPX_I(v))
#define SPX_UNPLO32(a, b) ((spv)_mm256_unpacklo_epi32(SPX_I(a), SPX_I(b)))
#define SPX_UNPHI32(a, b) ((spv)_mm256_unpackhi_epi32(SPX_I(a), SPX_I(b)))
#define SPX_UNPLO64(a, b) ((spv)_mm256_unpacklo_epi64(SPX_I(a), SPX_I(b)))
#define SPX_UNPHI64(a, b) ((spv)_mm256_unpackhi_epi64(SPX_I(a), SPX_I(b)))
#define SPX_SLL64(v, n) ((spv)_mm256_slli_epi64(SPX_I(v), (n)))
#define SPX_SRL64(v, n) ((spv)_mm256_srli_epi64(SPX_I(v), (n)))
#define SPX_SWAP64(v) ((spv)_mm256_shuffle_epi32(SPX_I(v), 0x4e))
#define SPX_SHUF8(v, m) ((spv)_mm256_shuffle_epi8(SPX_I(v), SPX_I(m)))
#define SPX_BCAST128(x) ((spv)_mm256_broadcastsi128_si256(x))
#define SPX_SET1(x) ((spv)_mm256_set1_epi32((int)(x)))
#define SPX_SET64x2(hi, lo) ((spv)_mm256_set_epi64x((hi), (lo), (hi), (lo)))
#define SPX_CMPGTU(a, b) ((spv)_mm256_cmpgt_epi32(SPX_I((a) ^ INT32_MIN), SPX_I((b) ^ INT32_MIN)))
#define SPX_CMPEQ0(a) ((spv)_mm256_cmpeq_epi32(SPX_I(a), _mm256_setzero_si256()))
/* element e of a word register is block (e % 4) * SPX_L + e / 4 of its set */
#define SPX_LANES() ((spv){ 0, 2, 4, 6, 1, 3, 5, 7 })
#else
#define SPX_I(v) ((__m512i)(v))
#define SPX_LOAD(p) ((spv)_mm512_loadu_si512((const void *)(p)))
#define SPX_STORE(p, v) _mm512_storeu_si512((void *)(p), SPX_I(v))
#define SPX_UNPLO32(a, b) ((spv)_mm512_unpacklo_epi32(SPX_I(a), SPX_I(b)))
#define SPX_UNPHI32(a, b) ((spv)_mm512_unpackhi_epi32(SPX_I(a), SPX_I(b)))
#define SPX_UNPLO64(a, b) ((spv)_mm512_unpacklo_epi64(SPX_I(a), SPX_I(b)))
#define SPX_UNPHI64(a, b) ((spv)_mm512_unpackhi_epi64(SPX_I(a), SPX_I(b)))
#define SPX_SLL64(v, n) ((spv)_mm512_slli_epi64(SPX_I(v), (n)))
#define SPX_SRL64(v, n) ((spv)_mm512_srli_epi64(SPX_I(v), (n)))
#define SPX_SWAP64(v) ((spv)_mm512_shuffle_epi32(SPX_I(v), (_MM_PERM_ENUM)0x4e))
#define SPX_SHUF8(v, m) ((spv)_mm512_shuffle_epi8(SPX_I(v), SPX_I(m)))
#define SPX_BCAST128(x) ((spv)_mm512_broadcast_i32x4(x))
#define SPX_SET1(x) ((spv)_mm512_set1_epi32((int)(x)))
#define SPX_SET64x2(hi, lo) ((spv)_mm512_set_epi64((hi), (lo), (hi), (lo), (hi), (lo), (hi), (lo)))
#define SPX_CMPGTU(a, b) ((spv)_mm512_maskz_set1_epi32(_mm512_cmpgt_epu32_mask(SPX_I(a), SPX_I(b)), -1))
#define SPX_CMPEQ0(a) ((spv)_mm512_maskz_set1_epi32(_mm512_cmpeq_epi32_mask(SPX_I(a), _mm512_setzero_si512()), -1))
#define SPX_LANES() ((spv){ 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15 })
/* VPROLD, and VPTERNLOGD for every three-input step of the S-boxes and the LT */
#define SERPENT_ROL(x, n) ((spv)_mm512_rol_epi32(SPX_I(x), (n)))
#define SERPENT_TERN(a, b, c, imm) ((spv)_mm512_ternarylogic_epi32(SPX_I(a), SPX_I(b), SPX_I(c), (imm)))
#define SERPENT_XOR3(a, b, c) SERPENT_TERN(a, b, c, 0x96)
#endif

#define SERPENT_W spv
#define SERPENT_FN SPX_FN
#include "../../cipher/serpent.h"

/* ---- the rounds on word registers: one or two sets of four ---------------------------- */
SPX_PASS_FN void spx_enc_w2(const struct serpent_ctx *k, spv x[2][4])
{
	serpent_enc_rounds(k->k, x, 2);
}
SPX_PASS_FN void spx_enc_w1(const struct serpent_ctx *k, spv x[2][4])
{
	serpent_enc_rounds(k->k, x, 1);
}
SPX_PASS_FN void spx_dec_w2(const struct serpent_ctx *k, spv x[2][4])
{
	serpent_dec_rounds(k->k, x, 2);
}
SPX_PASS_FN void spx_dec_w1(const struct serpent_ctx *k, spv x[2][4])
{
	serpent_dec_rounds(k->k, x, 1);
}

/* Block registers <-> word registers: a 4x4 transpose of 32-bit words in
 * every 128-bit lane (its own inverse). */
SPX_FN void spx_transpose(spv v[4])
{
	spv t0 = SPX_UNPLO32(v[0], v[1]), t1 = SPX_UNPHI32(v[0], v[1]);
	spv t2 = SPX_UNPLO32(v[2], v[3]), t3 = SPX_UNPHI32(v[2], v[3]);

	v[0] = SPX_UNPLO64(t0, t2);
	v[1] = SPX_UNPHI64(t0, t2);
	v[2] = SPX_UNPLO64(t1, t3);
	v[3] = SPX_UNPHI64(t1, t3);
}

/* ns sets of block registers through the cipher. */
SPX_FN void spx_crypt(const struct serpent_ctx *k, int dec, spv b[2][4], int ns)
{
	for (int s = 0; s < ns; s++)
		spx_transpose(b[s]);
	if (dec)
		(ns == 2 ? spx_dec_w2 : spx_dec_w1)(k, b);
	else
		(ns == 2 ? spx_enc_w2 : spx_enc_w1)(k, b);
	for (int s = 0; s < ns; s++)
		spx_transpose(b[s]);
}

/* n (1..SPX_PASS) blocks into block registers, through pad when short;
 * returns the number of sets to run. */
SPX_FN int spx_load(spv b[2][4], const uint8_t *src, size_t n, uint8_t *pad)
{
	if (n < SPX_PASS) {
		memset(pad, 0, 16 * SPX_PASS);
		memcpy(pad, src, 16 * n);
		src = pad;
	}
	for (int g = 0; g < 8; g++)
		b[g / 4][g % 4] = SPX_LOAD(src + 16 * SPX_L * g);
	return n > SPX_HALF ? 2 : 1;
}

SPX_FN void spx_store(uint8_t *dst, spv b[2][4], size_t n, uint8_t *pad)
{
	uint8_t *out = n < SPX_PASS ? pad : dst;

	for (int g = 0; g < 8; g++)
		SPX_STORE(out + 16 * SPX_L * g, b[g / 4][g % 4]);
	if (n < SPX_PASS)
		memcpy(dst, pad, 16 * n);
}

/* ---- ecb --------------------------------------------------------------------------- */
SPX_API void spx_ecb(const struct serpent_ctx *k, int dec, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	spv b[2][4];
	uint8_t pad[16 * SPX_PASS];

	while (nblocks) {
		size_t n = nblocks < SPX_PASS ? nblocks : SPX_PASS;
		int ns = spx_load(b, src, n, pad);

		spx_crypt(k, dec, b, ns);
		spx_store(dst, b, n, pad);
		src += 16 * n;
		dst += 16 * n;
		nblocks -= n;
	}
	bc_wipe(b, sizeof(b));
	bc_wipe(pad, sizeof(pad));
}

static void spx_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	spx_ecb(ctx, 0, dst, src, nblocks);
}

static void spx_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	spx_ecb(ctx, 1, dst, src, nblocks);
}

static int spx_ecb_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	spx_ecb(ctx, 0, dst, src, len / 16);
	return 0;
}

static int spx_ecb_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	spx_ecb(ctx, 1, dst, src, len / 16);
	return 0;
}

/* The MACs' chain, one block at a time through the portable code, its stack burnt after. */
static void spx_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	bc_serpent_mac(ctx, st, src, nblocks);
	bc_burn_stack();
}

/* ---- cbc: encryption is a chain (the portable one-block code); decryption is parallel --- */
static int spx_cbc_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	for (size_t i = 0; i < len; i += 16) {
		bc_serpent_mac(ctx, iv, src + i, 1);
		memcpy(dst + i, iv, 16);
	}
	bc_burn_stack();   /* the portable rounds' spilled key words */
	return 0;
}

/* Each block's predecessor comes from the ciphertext registers (shifted by one
 * block); the pass's last ciphertext is read before anything is written, so
 * dst == src works. */
SPX_API int spx_cbc_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	__m128i prev = _mm_loadu_si128((const __m128i *)(const void *)iv);
	spv b[2][4], p[2][4];
	uint8_t pad[16 * SPX_PASS];

	for (size_t left = len / 16; left; ) {
		size_t n = left < SPX_PASS ? left : SPX_PASS;
		int ns = spx_load(b, src, n, pad);
		__m128i last = _mm_loadu_si128((const __m128i *)(const void *)(src + 16 * n - 16));

		for (int g = 0; g < 4 * ns; g++) {
#if SPX_BITS == 256
			p[g / 4][g % 4] = (spv)(g ? _mm256_permute2x128_si256(SPX_I(b[(g - 1) / 4][(g - 1) % 4]),
			                                                      SPX_I(b[g / 4][g % 4]), 0x21)
			                          : _mm256_permute2x128_si256(_mm256_castsi128_si256(prev),
			                                                      SPX_I(b[0][0]), 0x20));
#else
			/* the last block of the register before, then the first three of this one */
			p[g / 4][g % 4] = (spv)_mm512_alignr_epi64(SPX_I(b[g / 4][g % 4]),
			                                           g ? SPX_I(b[(g - 1) / 4][(g - 1) % 4])
			                                             : _mm512_broadcast_i32x4(prev), 6);
#endif
		}
		spx_crypt(ctx, 1, b, ns);
		for (int g = 0; g < 4 * ns; g++)
			b[g / 4][g % 4] ^= p[g / 4][g % 4];
		spx_store(dst, b, n, pad);
		prev = last;
		src += 16 * n;
		dst += 16 * n;
		left -= n;
	}
	_mm_storeu_si128((__m128i *)(void *)iv, prev);
	bc_wipe(b, sizeof(b));
	bc_wipe(pad, sizeof(pad));
	return 0;
}

/* ---- ctr: the whole block is a 128-bit big-endian counter ---------------------------
 * The counter blocks go straight into word registers: the big-endian words
 * c0..c3 with a lane add on c3 and the carries rippled up by compares (no
 * branch), then each byte-swapped, as Serpent reads its words little-endian. */
SPX_FN void spx_ctr_words(spv x[2][4], uint64_t hi, uint64_t lo, int ns)
{
	const spv c0 = SPX_SET1(hi >> 32), c1 = SPX_SET1(hi), c2 = SPX_SET1(lo >> 32), c3 = SPX_SET1(lo);
	const spv bswap = (spv)SPX_BCAST128(_mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));

	for (int s = 0; s < ns; s++) {
		spv w3 = c3 + SPX_LANES() + (uint32_t)(s * SPX_HALF);
		spv c = SPX_CMPGTU(c3, w3);                /* all-ones where the add wrapped */
		spv w2 = c2 - c;

		c &= SPX_CMPEQ0(w2);
		spv w1 = c1 - c;

		c &= SPX_CMPEQ0(w1);
		x[s][0] = SPX_SHUF8(c0 - c, bswap);
		x[s][1] = SPX_SHUF8(w1, bswap);
		x[s][2] = SPX_SHUF8(w2, bswap);
		x[s][3] = SPX_SHUF8(w3, bswap);
	}
}

SPX_API int spx_ctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	uint64_t hi, lo, n = 0;
	spv x[2][4], d[2][4];
	uint8_t pad[16 * SPX_PASS];

	bc_x86_ctr_load(iv, &hi, &lo);
	for (size_t left = len; left; ) {
		size_t m = left < 16 * SPX_PASS ? left : 16 * SPX_PASS, nb = (m + 15) / 16;
		int ns = nb > SPX_HALF ? 2 : 1;
		const uint8_t *in = src;

		spx_ctr_words(x, hi + (lo + n < lo), lo + n, ns);
		(ns == 2 ? spx_enc_w2 : spx_enc_w1)(ctx, x);
		if (m < 16 * SPX_PASS) {
			memset(pad, 0, sizeof(pad));
			memcpy(pad, src, m);
			in = pad;
		}
		for (int g = 0; g < 4 * ns; g++)
			d[g / 4][g % 4] = SPX_LOAD(in + 16 * SPX_L * g);
		for (int s = 0; s < ns; s++) {
			spx_transpose(x[s]);
			for (int r = 0; r < 4; r++)
				d[s][r] ^= x[s][r];
		}
		if (m < 16 * SPX_PASS) {
			for (int g = 0; g < 4 * ns; g++)
				SPX_STORE(pad + 16 * SPX_L * g, d[g / 4][g % 4]);
			memcpy(dst, pad, m);
		} else {
			for (int g = 0; g < 8; g++)
				SPX_STORE(dst + 16 * SPX_L * g, d[g / 4][g % 4]);
		}
		n += nb;
		src += m;
		dst += m;
		left -= m;
	}
	bc_x86_ctr_store(iv, hi, lo, n);
	bc_wipe(x, sizeof(x));
	bc_wipe(d, sizeof(d));
	bc_wipe(pad, sizeof(pad));
	return 0;
}

/* ---- xts ------------------------------------------------------------------------------
 * Each 128-bit lane (a tweak, little-endian) times x^SPX_L: both halves shifted,
 * the bits the low half loses carried into the high half, those the high
 * half loses (c < 2^SPX_L) folded back as c * (x^7 + x^2 + x + 1). */
SPX_FN spv spx_mul_xl(spv v)
{
	const spv lomask = SPX_SET64x2(0, -1);
	spv sw = SPX_SWAP64(SPX_SRL64(v, 64 - SPX_L)), c = sw & lomask;

	return SPX_SLL64(v, SPX_L) ^ sw ^ SPX_SLL64(c, 1) ^ SPX_SLL64(c, 2) ^ SPX_SLL64(c, 7);
}

/* The tweaks T0 .. T(SPX_L - 1) in one register. */
SPX_FN spv spx_first_tweaks(__m128i t, __m128i mask)
{
	__m128i t1 = bc_x86_xts_mul_x(t, mask);
#if SPX_BITS == 256
	return (spv)_mm256_set_m128i(t1, t);
#else
	__m128i t2 = bc_x86_xts_mul_x(t1, mask), t3 = bc_x86_xts_mul_x(t2, mask);

	return (spv)_mm512_inserti64x4(_mm512_castsi256_si512(_mm256_set_m128i(t1, t)), _mm256_set_m128i(t3, t2), 1);
#endif
}

/* One block: dst = E(src ^ t) ^ t (or D), with the portable code. */
static void spx_xts_one(const struct serpent_ctx *k, int dec, uint8_t *dst, const uint8_t *src, const uint8_t t[16])
{
	uint8_t b[16];

	bc_xor(b, src, t, 16);
	(dec ? bc_serpent_decrypt : bc_serpent_encrypt)(k, b, b, 1);
	bc_xor(dst, b, t, 16);
	bc_wipe(b, sizeof(b));
}

/*
 * len = 16m + r, m >= 1. With r = 0 all m blocks go through the passes.
 * Otherwise (IEEE 1619 5.3.2, 5.4.2) the passes take m - 1 blocks and the last
 * whole block and the partial one are stolen: encryption makes CC from block
 * m-1 with T(m-1), outputs its first r bytes as the partial block and
 * encrypts P(m) || CC[r..] with T(m) in block m-1's place; decryption undoes
 * block m-1 with T(m) first, then the rebuilt block with T(m-1).
 */
SPX_FN void spx_xts(const struct bc_serpent_x86_xts_key *key, int dec, const uint8_t *iv, const uint8_t *src,
                    uint8_t *dst, size_t len)
{
	const __m128i mask = bc_x86_xts_mask();
	const size_t r = len % 16, whole = len / 16 - (r != 0);
	spv b[2][4], tw[2][4], tv;
	uint8_t pad[16 * SPX_PASS], tt[16 * (SPX_PASS + SPX_L)], t0[16];
	size_t n = 0;

	bc_serpent_encrypt(&key->k2, t0, iv, 1);
	tv = spx_first_tweaks(_mm_loadu_si128((const __m128i *)(void *)t0), mask);
	for (size_t left = whole; left; ) {
		int ns;

		n = left < SPX_PASS ? left : SPX_PASS;
		ns = spx_load(b, src, n, pad);
		for (int g = 0; g < 4 * ns; g++) {
			tw[g / 4][g % 4] = tv;
			tv = spx_mul_xl(tv);
			b[g / 4][g % 4] ^= tw[g / 4][g % 4];
		}
		spx_crypt(&key->k1, dec, b, ns);
		for (int g = 0; g < 4 * ns; g++)
			b[g / 4][g % 4] ^= tw[g / 4][g % 4];
		spx_store(dst, b, n, pad);
		src += 16 * n;
		dst += 16 * n;
		left -= n;
	}
	if (r) {
		/* T(m-1): the tweak after the last pass's blocks, T(m) the next one;
		 * n and r come from the public length: no secret sizes a copy */
		uint8_t ta[16], tb[16], cc[16], part[16];

		if (whole) {
			int ng = n > SPX_HALF ? 8 : 4;

			for (int g = 0; g < ng; g++)
				SPX_STORE(tt + 16 * SPX_L * g, tw[g / 4][g % 4]);
			SPX_STORE(tt + 16 * SPX_L * ng, tv);
			memcpy(ta, tt + 16 * n, 16);
		} else {
			memcpy(ta, t0, 16);
		}
		_mm_storeu_si128((__m128i *)(void *)tb,
		                 bc_x86_xts_mul_x(_mm_loadu_si128((const __m128i *)(void *)ta), mask));
		spx_xts_one(&key->k1, dec, cc, src, dec ? tb : ta);
		memcpy(part, src + 16, r);                 /* read the tail before dst is written */
		memcpy(part + r, cc + r, 16 - r);
		memcpy(dst + 16, cc, r);
		spx_xts_one(&key->k1, dec, dst, part, dec ? ta : tb);
		bc_wipe(ta, sizeof(ta));
		bc_wipe(tb, sizeof(tb));
		bc_wipe(cc, sizeof(cc));
		bc_wipe(part, sizeof(part));
		bc_wipe(tt, sizeof(tt));
	}
	/* the tweaks come from E_K2(iv): key-derived */
	bc_wipe(t0, sizeof(t0));
	bc_wipe(&tv, sizeof(tv));
	bc_wipe(tw, sizeof(tw));
	bc_wipe(b, sizeof(b));
	bc_wipe(pad, sizeof(pad));
}

SPX_API int spx_xts_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	spx_xts(ctx, 0, iv, src, dst, len);
	bc_burn_stack();   /* the tweak and stealing blocks went through the portable code */
	return 0;
}

SPX_API int spx_xts_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	spx_xts(ctx, 1, iv, src, dst, len);
	bc_burn_stack();   /* the tweak and stealing blocks went through the portable code */
	return 0;
}
