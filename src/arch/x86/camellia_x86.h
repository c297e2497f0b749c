/* blockcrypt x86-64: Camellia byte-sliced over 256- or 512-bit registers, one body for both widths (key program, slicing, F, FL, the shared mode wrappers).
 * RFC 3713 (Camellia); NIST SP 800-38A (ECB, CBC); IEEE 1619-2018 (XTS). The includer defines the S-boxes for its CPU. */
#ifndef BC_CAMELLIA_X86_H
#define BC_CAMELLIA_X86_H

#include "../../cipher/camellia.h"

/*
 * The subkeys folded into the rounds. Each half is kept XORed with the
 * subkey of the next round that reads it, so no round XORs its own key before
 * the S-boxes: a round's update of the other half carries, in the XOR that
 * ends P, that half's old offset and its new one (the next subkey it feeds)
 * together. Around the FL layers and at the ends the halves are brought back
 * to their plain values (fix, post) and the whitening keys join the first and
 * last XORs. camx_program computes all of it from the pass-ordered schedule;
 * every value is 8 bytes, byte 0 the most significant (the RFC's first byte),
 * each byte repeated over a 32-bit word so that the XORs read it with a
 * 32-bit broadcast.
 */
struct camx_sched {
	uint32_t in[2][8];        /* L ^= kw1 ^ k1, R ^= kw2 */
	uint32_t rk[24][8];       /* per round: old ^ new offset of the half it updates */
	uint32_t fix[3][8];       /* before FL: R back to plain */
	uint32_t ke[3][2][8];     /* the FL and FL^-1 subkeys */
	uint32_t post[3][8];      /* after FL: L offset by the next group's first subkey */
	uint32_t out[8];          /* R's offset and kw3 (L already carries kw4) */
};
struct camx_key {
	struct camx_sched enc, dec;
	unsigned groups;
};
struct camx_xts_key {
	struct camx_key k1;   /* data */
	struct camx_key k2;   /* tweak */
};

#define BC_CAMELLIA_X86_DRIVERS(id, impl, cprio, mprio, cpubits)                                         \
	const struct bc_cipher_alg bc_camellia_##id = {                                                  \
		.name = "camellia", .driver = "camellia-" impl, .priority = cprio, .cpu = cpubits,       \
		.min_keysize = 16, .max_keysize = 32, .ctxsize = sizeof(struct camx_key),               \
		.setkey = camx_setkey, .encrypt = camx_encrypt, .decrypt = camx_decrypt, .mac = camx_mac, \
	};                                                                                               \
	const struct bc_skcipher_alg bc_ecb_camellia_##id = {                                            \
		.name = "ecb(camellia)", .driver = "ecb-camellia-" impl, .priority = mprio,              \
		.cpu = cpubits, .min_keysize = 16, .max_keysize = 32, .ivsize = 0, .blocksize = 16,      \
		.min_len = 0, .len_align = 16, .ctxsize = sizeof(struct camx_key),                       \
		.setkey = camx_skcipher_setkey, .encrypt = camx_ecb_encrypt, .decrypt = camx_ecb_decrypt, \
	};                                                                                               \
	const struct bc_skcipher_alg bc_cbc_camellia_##id = {                                            \
		.name = "cbc(camellia)", .driver = "cbc-camellia-" impl, .priority = mprio,              \
		.cpu = cpubits, .min_keysize = 16, .max_keysize = 32, .ivsize = 16, .blocksize = 16,     \
		.min_len = 0, .len_align = 16, .ctxsize = sizeof(struct camx_key),                       \
		.setkey = camx_skcipher_setkey, .encrypt = camx_cbc_encrypt, .decrypt = camx_cbc_decrypt, \
	};                                                                                               \
	const struct bc_skcipher_alg bc_ctr_camellia_##id = {                                            \
		.name = "ctr(camellia)", .driver = "ctr-camellia-" impl, .priority = mprio,              \
		.cpu = cpubits, .min_keysize = 16, .max_keysize = 32, .ivsize = 16, .blocksize = 1,      \
		.min_len = 0, .len_align = 1, .ctxsize = sizeof(struct camx_key),                        \
		.setkey = camx_skcipher_setkey, .encrypt = camx_ctr_crypt, .decrypt = camx_ctr_crypt,    \
	};                                                                                               \
	const struct bc_skcipher_alg bc_xts_camellia_##id = {                                            \
		.name = "xts(camellia)", .driver = "xts-camellia-" impl, .priority = mprio,              \
		.cpu = cpubits, .min_keysize = 32, .max_keysize = 64, .ivsize = 16, .blocksize = 16,     \
		.min_len = 16, .len_align = 1, .ctxsize = sizeof(struct camx_xts_key),                   \
		.setkey = camx_xts_setkey, .encrypt = camx_xts_encrypt, .decrypt = camx_xts_decrypt,     \
	}

#endif /* BC_CAMELLIA_X86_H */

/* ==== the width-specific part, instantiated once per including file ====
 * Defined first: CAMX_BITS (256 or 512), CAMX_TARGET (the target attribute),
 * CAMX_SBOX(x, i, odd): S-box position i (0..7, s1 s2 s3 s4 s2 s3 s4 s1) on
 * the byte register x in a round that updates R (odd = 0) or L (odd = 1),
 * CAMX_SHR7(v): bit 7 of each byte moved to bit 0, the rest zero, and
 * CAMX_ENTER(r) / CAMX_LEAVE(r): a byte permutation the right half's
 * registers keep during the rounds (and its inverse), for S-boxes that
 * permute the blocks of a register (the identity otherwise). */
#if !defined(CAMX_BITS) || !defined(CAMX_TARGET)
#error "define CAMX_BITS and CAMX_TARGET before including camellia_x86.h"
#endif

#include "x86_util.h"

#define CAMX_FN static inline __attribute__((always_inline, target(CAMX_TARGET)))
#define CAMX_API static __attribute__((target(CAMX_TARGET)))
/* every loop over the sliced registers unrolled, so that they stay in registers */
#define CAMX_UNROLL _Pragma("GCC unroll 16")

/* byte i of every block of the register, or 16 / CAMX_BITS * 128 blocks of a mode */
typedef uint8_t camv __attribute__((vector_size(CAMX_BITS / 8), may_alias));
#define CAMX_L (CAMX_BITS / 128)       /* blocks per register */
#define CAMX_BLOCKS (16 * CAMX_L)      /* blocks per pass */
#define CAMX_PASS (16 * CAMX_BLOCKS)   /* bytes per pass */

#if CAMX_BITS == 256
#define CAMX_I(v) ((__m256i)(v))
#define CAMX_UNPLO32(a, b) ((camv)_mm256_unpacklo_epi32(CAMX_I(a), CAMX_I(b)))
#define CAMX_UNPHI32(a, b) ((camv)_mm256_unpackhi_epi32(CAMX_I(a), CAMX_I(b)))
#define CAMX_UNPLO64(a, b) ((camv)_mm256_unpacklo_epi64(CAMX_I(a), CAMX_I(b)))
#define CAMX_UNPHI64(a, b) ((camv)_mm256_unpackhi_epi64(CAMX_I(a), CAMX_I(b)))
#define CAMX_SHUF8(v, m) ((camv)_mm256_shuffle_epi8(CAMX_I(v), CAMX_I(m)))
#define CAMX_BCAST128(x) ((camv)_mm256_broadcastsi128_si256(x))
#define CAMX_B(k) ((camv)_mm256_set1_epi32((int)(k)))
#define CAMX_XOR(a, b) ((a) ^ (b))
#define CAMX_AND(a, b) ((a) & (b))
#define CAMX_XOR3(a, b, c) ((a) ^ (b) ^ (c))
#define CAMX_XOR_OR(a, b, c) ((a) ^ ((b) | (c)))
#else
#define CAMX_I(v) ((__m512i)(v))
#define CAMX_UNPLO32(a, b) ((camv)_mm512_unpacklo_epi32(CAMX_I(a), CAMX_I(b)))
#define CAMX_UNPHI32(a, b) ((camv)_mm512_unpackhi_epi32(CAMX_I(a), CAMX_I(b)))
#define CAMX_UNPLO64(a, b) ((camv)_mm512_unpacklo_epi64(CAMX_I(a), CAMX_I(b)))
#define CAMX_UNPHI64(a, b) ((camv)_mm512_unpackhi_epi64(CAMX_I(a), CAMX_I(b)))
#define CAMX_SHUF8(v, m) ((camv)_mm512_shuffle_epi8(CAMX_I(v), CAMX_I(m)))
#define CAMX_BCAST128(x) ((camv)_mm512_broadcast_i32x4(x))
#define CAMX_B(k) ((camv)_mm512_set1_epi32((int)(k)))
/* 32-bit element operations, so that a key operand becomes an embedded
 * {1to16} broadcast; VPTERNLOGD for three inputs */
#define CAMX_XOR(a, b) ((camv)_mm512_xor_epi32(CAMX_I(a), CAMX_I(b)))
#define CAMX_AND(a, b) ((camv)_mm512_and_epi32(CAMX_I(a), CAMX_I(b)))
#define CAMX_XOR3(a, b, c) ((camv)_mm512_ternarylogic_epi32(CAMX_I(a), CAMX_I(b), CAMX_I(c), 0x96))
#define CAMX_XOR_OR(a, b, c) ((camv)_mm512_ternarylogic_epi32(CAMX_I(a), CAMX_I(b), CAMX_I(c), 0x1e))
#endif

/* ---- byte slicing --------------------------------------------------------------------
 * Sixteen registers of CAMX_L blocks each become sixteen registers x[i]
 * holding byte i of all the pass's blocks (each block keeps one byte
 * position in one 128-bit lane). Per 128-bit lane the 16x16 byte matrix is
 * transposed in three steps, each its own inverse: a 4x4 transposition of
 * 32-bit words within each group of four registers, a 4x4 transposition of
 * the bytes within each word position (PSHUFB), and a 4x4 transposition of
 * words across the groups; register 4q + p then holds byte 4p + q, a renaming. */
CAMX_FN void camx_t4(camv *r0, camv *r1, camv *r2, camv *r3)
{
	camv t0 = CAMX_UNPLO32(*r0, *r1), t1 = CAMX_UNPHI32(*r0, *r1);
	camv t2 = CAMX_UNPLO32(*r2, *r3), t3 = CAMX_UNPHI32(*r2, *r3);

	*r0 = CAMX_UNPLO64(t0, t2);
	*r1 = CAMX_UNPHI64(t0, t2);
	*r2 = CAMX_UNPLO64(t1, t3);
	*r3 = CAMX_UNPHI64(t1, t3);
}

CAMX_FN void camx_slice_steps(camv a[16], int inverse)
{
	const camv sh = CAMX_BCAST128(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));

	CAMX_UNROLL
	for (int s = 0; s < 3; s++) {
		int step = inverse ? 2 - s : s;

		if (step == 0)
			CAMX_UNROLL
			for (int g = 0; g < 4; g++)
				camx_t4(&a[4 * g], &a[4 * g + 1], &a[4 * g + 2], &a[4 * g + 3]);
		else if (step == 1)
			CAMX_UNROLL
			for (int r = 0; r < 16; r++)
				a[r] = CAMX_SHUF8(a[r], sh);
		else
			CAMX_UNROLL
			for (int p = 0; p < 4; p++)
				camx_t4(&a[p], &a[4 + p], &a[8 + p], &a[12 + p]);
	}
}

/* ---- the rounds ------------------------------------------------------------------------
 * d ^= F(x) ^ k, x already offset by the round's subkey: S-boxes s1 s2 s3 s4 s2 s3
 * s4 s1, then P as U ^= V >>> 16; V ^= U; U ^= V >>> 8; V ^= U >>> 16, result
 * V || U (see camellia_generic.c), each byte a register, so the rotations are
 * renamings: with u = the first step, w = the third (from u alone) and
 * t = V's last value, d ^= t || w with k in the same XOR. */
CAMX_FN void camx_f(camv d[8], const camv x[8], const uint32_t k[8], const int odd)
{
	(void)odd;   /* for CAMX_SBOX */
	camv z0 = CAMX_SBOX(x[0], 0, odd), z1 = CAMX_SBOX(x[1], 1, odd);
	camv z2 = CAMX_SBOX(x[2], 2, odd), z3 = CAMX_SBOX(x[3], 3, odd);
	camv z4 = CAMX_SBOX(x[4], 4, odd), z5 = CAMX_SBOX(x[5], 5, odd);
	camv z6 = CAMX_SBOX(x[6], 6, odd), z7 = CAMX_SBOX(x[7], 7, odd);
	camv u0 = z0 ^ z6, u1 = z1 ^ z7, u2 = z2 ^ z4, u3 = z3 ^ z5;
	/* w_i = u_i ^ v_{i+1}, v_j = z_{4+j} ^ u_j; t_i = v_i ^ w_{i+2}: the even
	 * w and t first and each consumed at once, fewer values live */
	camv w0 = CAMX_XOR3(u0, u1, z5), w2 = CAMX_XOR3(u2, u3, z7);

	d[0] = CAMX_XOR3(d[0], CAMX_XOR3(z4, u0, w2), CAMX_B(k[0]));
	d[2] = CAMX_XOR3(d[2], CAMX_XOR3(z6, u2, w0), CAMX_B(k[2]));
	d[4] = CAMX_XOR3(d[4], w0, CAMX_B(k[4]));
	d[6] = CAMX_XOR3(d[6], w2, CAMX_B(k[6]));

	camv w1 = CAMX_XOR3(u1, u2, z6), w3 = CAMX_XOR3(u3, u0, z4);

	d[1] = CAMX_XOR3(d[1], CAMX_XOR3(z5, u1, w3), CAMX_B(k[1]));
	d[3] = CAMX_XOR3(d[3], CAMX_XOR3(z7, u3, w1), CAMX_B(k[3]));
	d[5] = CAMX_XOR3(d[5], w1, CAMX_B(k[5]));
	d[7] = CAMX_XOR3(d[7], w3, CAMX_B(k[7]));
}

/* XR ^= (XL & kL) <<< 1 on a big-endian 32-bit word of byte registers: each
 * byte doubled (VPADDB), ORed with the top bit of the next byte. */
CAMX_FN void camx_fl_r(camv x[8], const uint32_t k[8])
{
	camv a[4];

	CAMX_UNROLL
	for (int i = 0; i < 4; i++)
		a[i] = CAMX_AND(x[i], CAMX_B(k[i]));
	CAMX_UNROLL
	for (int i = 0; i < 4; i++)
		x[4 + i] = CAMX_XOR_OR(x[4 + i], a[i] + a[i], CAMX_SHR7(a[(i + 1) & 3]));
}

/* XL ^= XR | kR */
CAMX_FN void camx_fl_l(camv x[8], const uint32_t k[8])
{
	CAMX_UNROLL
	for (int i = 0; i < 4; i++)
		x[i] = CAMX_XOR_OR(x[i], x[4 + i], CAMX_B(k[4 + i]));
}

/* XOR of 8 key bytes into a half */
CAMX_FN void camx_xor8(camv x[8], const uint32_t k[8])
{
	CAMX_UNROLL
	for (int i = 0; i < 8; i++)
		x[i] = CAMX_XOR(x[i], CAMX_B(k[i]));
}

/* A pass of blocks in b[] (block CAMX_L * r + j in lane j of b[r]) through
 * the cipher (s: the encryption or decryption program), groups a constant so
 * that every loop unrolls. */
CAMX_FN void camx_body(const struct camx_sched *s, const unsigned groups, camv b[16])
{
	camv x[16];
	const uint32_t (*rk)[8] = s->rk;

	camx_slice_steps(b, 0);
	CAMX_UNROLL
	for (int q = 0; q < 4; q++)
		CAMX_UNROLL
		for (int p = 0; p < 4; p++)
			x[4 * p + q] = b[4 * q + p];
	camx_xor8(x, s->in[0]);
	camx_xor8(x + 8, s->in[1]);
	CAMX_UNROLL
	for (int i = 8; i < 16; i++)
		x[i] = CAMX_ENTER(x[i]);
	CAMX_UNROLL
	for (unsigned g = 0; g < groups; g++) {
		CAMX_UNROLL
		for (int r = 0; r < 3; r++, rk += 2) {
			camx_f(x + 8, x, rk[0], 0);
			camx_f(x, x + 8, rk[1], 1);
		}
		if (g + 1 < groups) {
			camx_xor8(x + 8, s->fix[g]);
			camx_fl_r(x, s->ke[g][0]);       /* FL */
			camx_fl_l(x, s->ke[g][0]);
			camx_fl_l(x + 8, s->ke[g][1]);   /* FL^-1 */
			camx_fl_r(x + 8, s->ke[g][1]);
			camx_xor8(x, s->post[g]);
		}
	}
	camx_xor8(x + 8, s->out);
	CAMX_UNROLL
	for (int i = 8; i < 16; i++)
		x[i] = CAMX_LEAVE(x[i]);
	/* the output block is (D2 ^ kw3) || (D1 ^ kw4) */
	CAMX_UNROLL
	for (int q = 0; q < 4; q++)
		CAMX_UNROLL
		for (int p = 0; p < 4; p++)
			b[4 * q + p] = x[4 * (p ^ 2) + q];
	camx_slice_steps(b, 1);
}

/* Out of line: every mode calls this one body. */
static __attribute__((noinline, target(CAMX_TARGET)))
void camx_pass(const struct camx_sched *s, unsigned groups, camv b[16])
{
	if (groups == 3)
		camx_body(s, 3, b);
	else
		camx_body(s, 4, b);
}

/* One block, dst = E(src) or D(src); dst may be src. */
CAMX_FN void camx_one(const struct camx_sched *sk, unsigned groups, uint8_t *dst, const uint8_t *src)
{
	camv b[16] = { 0 };

	memcpy(&b[0], src, 16);
	camx_pass(sk, groups, b);
	memcpy(dst, &b[0], 16);
	bc_wipe(b, sizeof(b));
}

/* ---- ECB (and the cipher's multi-block encrypt/decrypt): camx_ecb is the includer's ---- */
CAMX_API void camx_ecb(const struct camx_key *k, int dec, uint8_t *dst, const uint8_t *src, size_t len);

static void camx_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	camx_ecb(ctx, 0, dst, src, 16 * nblocks);
}

static void camx_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	camx_ecb(ctx, 1, dst, src, 16 * nblocks);
}

static int camx_ecb_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	camx_ecb(ctx, 0, dst, src, len);
	return 0;
}

static int camx_ecb_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	camx_ecb(ctx, 1, dst, src, len);
	return 0;
}

/* ---- CBC encryption (and the MACs): serial, one block a pass ---------------------------- */
CAMX_API void camx_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	const struct camx_key *k = ctx;

	for (; nblocks; nblocks--, src += 16) {
		bc_xor(st, st, src, 16);
		camx_one(&k->enc, k->groups, st, st);
	}
}

CAMX_API int camx_cbc_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	for (size_t i = 0; i < len; i += 16) {
		camx_mac(ctx, iv, src + i, 1);
		memcpy(dst + i, iv, 16);
	}
	return 0;
}

/* ---- XTS ------------------------------------------------------------------------------
 * len = 16m + r, m >= 1. With r = 0 all m blocks go through the includer's
 * passes (camx_xts). Otherwise (IEEE 1619 5.3.2, 5.4.2) the passes take blocks
 * 0..m-2, and block m-1 and the partial block m are stolen (camx_xts_steal):
 * encryption makes CC from block m-1 with T_{m-1}, outputs its first r bytes
 * as the partial block and encrypts P_m || CC[r..] with T_m as block m-1;
 * decryption undoes block m-1 with T_m first, then the rebuilt block with
 * T_{m-1}. r comes from the public length. */
CAMX_API void camx_xts(const struct camx_xts_key *key, int enc, const uint8_t *iv, const uint8_t *src, uint8_t *dst,
                       size_t len);

/* One block: dst = E(src ^ t) ^ t (or D). */
CAMX_FN void camx_xts_one(const struct camx_key *k, int enc, uint8_t *dst, const uint8_t *src, __m128i t)
{
	uint8_t x[16];

	_mm_storeu_si128((__m128i *)(void *)x, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)src), t));
	camx_one(enc ? &k->enc : &k->dec, k->groups, x, x);
	_mm_storeu_si128((__m128i *)(void *)dst, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(void *)x), t));
	bc_wipe(x, sizeof(x));
}

/* Blocks m-1 and m (r bytes) at src and dst, tv = T_{m-1}. */
CAMX_FN void camx_xts_steal(const struct camx_key *k, int enc, uint8_t *dst, const uint8_t *src, size_t r, __m128i tv)
{
	__m128i tb = bc_x86_xts_mul_x(tv, bc_x86_xts_mask());
	uint8_t part[16];

	camx_xts_one(k, enc, dst, src, enc ? tv : tb);
	/* dst holds CC (or PP): the stolen block takes the r bytes of block m
	 * and the rest of it, and goes into block m-1's place */
	memcpy(part, src + 16, r);
	memcpy(part + r, dst + r, 16 - r);
	memcpy(dst + 16, dst, r);
	camx_xts_one(k, enc, dst, part, enc ? tb : tv);
	bc_wipe(part, sizeof(part));
	bc_wipe(&tb, sizeof(tb));
}

static int camx_xts_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	camx_xts(ctx, 1, iv, src, dst, len);
	return 0;
}

static int camx_xts_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	camx_xts(ctx, 0, iv, src, dst, len);
	return 0;
}

/* ---- keys ------------------------------------------------------------------------------ */
/* 8 subkey bytes (v big-endian), each over a 32-bit word */
static void camx_put(uint32_t w[8], uint64_t v)
{
	for (int i = 0; i < 8; i++)
		w[i] = (uint32_t)(v >> (56 - 8 * i) & 0xff) * 0x01010101u;
}

/* The program of a pass-ordered schedule sk of n subkeys (see struct camx_sched):
 * off[h] is the offset half h (0 = L, 1 = R) carries after each step. */
static void camx_program(struct camx_sched *s, const uint64_t *sk, int n)
{
	const int groups = n == 26 ? 3 : 4;
	uint64_t off[2];

	camx_put(s->in[0], sk[0] ^ sk[2]);
	camx_put(s->in[1], sk[1]);
	off[0] = sk[2];
	off[1] = 0;
	for (int g = 0; g < groups; g++) {
		const uint64_t *k = sk + 2 + 8 * g;   /* k1..k6 of the group, then ke, ke */

		for (int r = 0; r < 6; r++) {
			int u = !(r & 1);   /* even rounds update R, odd ones L */
			uint64_t want = r < 5 ? k[r + 1] : g + 1 < groups ? 0 : sk[n - 1];

			camx_put(s->rk[6 * g + r], off[u] ^ want);
			off[u] = want;
		}
		if (g + 1 < groups) {
			camx_put(s->fix[g], off[1]);
			off[1] = 0;
			camx_put(s->ke[g][0], k[6]);
			camx_put(s->ke[g][1], k[7]);
			camx_put(s->post[g], k[8]);
			off[0] = k[8];
		}
	}
	camx_put(s->out, off[1] ^ sk[n - 2]);
	bc_wipe(off, sizeof(off));
}

static int camx_expand(struct camx_key *k, const uint8_t *key, size_t keylen)
{
	uint64_t sk[BC_CAMELLIA_SUBKEYS], dk[BC_CAMELLIA_SUBKEYS];
	int n = bc_camellia_schedule(sk, key, keylen);

	if (n < 0)
		return n;
	bc_camellia_reverse(dk, sk, n);
	camx_program(&k->enc, sk, n);
	camx_program(&k->dec, dk, n);
	k->groups = n == 26 ? 3 : 4;
	bc_wipe(sk, sizeof(sk));
	bc_wipe(dk, sizeof(dk));
	return 0;
}

static int camx_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	return camx_expand(ctx, key, keylen);
}

static int camx_skcipher_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	(void)flags;
	return camx_expand(ctx, key, keylen);
}

/* key = key1 || key2 (data, tweak); equal halves are refused unless allowed */
static int camx_xts_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	struct camx_xts_key *k = ctx;
	size_t h = keylen / 2;

	if (keylen != 32 && keylen != 48 && keylen != 64)
		return -EINVAL;
	if (!(flags & BC_ALLOW_WEAK_KEYS) && !bc_memneq(key, key + h, h))
		return -EINVAL;
	camx_expand(&k->k1, key, h);
	camx_expand(&k->k2, key + h, h);
	return 0;
}
