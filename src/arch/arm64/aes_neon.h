/* blockcrypt arm64: AES with plain NEON (no Crypto Extensions): S-box lookups with TBL/TBX from 16 registers.
 * FIPS-197 (AES: S-box 5.1.1, MixColumns 5.1.3, inverse cipher 5.3). Needs NEON only (every arm64 CPU). */
#ifndef BC_AES_NEON_H
#define BC_AES_NEON_H

#include "arm64_modes.h"

/*
 * Constant time without AES instructions: the 256-byte S-box is held in
 * sixteen vector registers and looked up with TBL (indices 0..63 of the
 * first quarter) and three TBX (the other quarters, reached by subtracting
 * 64 each time; TBX leaves a lane alone when its index is out of range).
 * No memory address depends on data or key. The other 16 registers hold
 * the blocks in flight and the permutation constants; round keys come from
 * memory, one load per round for all blocks.
 */
struct bc_aes_neon_key {
	_Alignas(16) uint8_t rk[15][16];     /* FIPS-197 round keys, in order */
	unsigned rounds;
};

struct bc_aes_neon_xts_ctx {
	struct bc_aes_neon_key k1, k2;
};

/* The FIPS-197 S-box and its inverse (aes_neon.c), the inverse only for decryption. */
extern const uint8_t bc_aes_neon_sbox[256], bc_aes_neon_inv_sbox[256];

/* What a call keeps in registers: the table, the round keys' place and
 * two byte permutations: encryption's ShiftRows, and ShiftRows followed by
 * the rotation of each column by one row that MixColumns needs;
 * decryption's InvShiftRows, and that rotation alone. */
struct bc_aes_neon_state {
	uint8x16x4_t t[4];
	uint8x16_t perm, rot, c40, c1b;
	const uint8_t (*rk)[16];
	unsigned rounds;
};

BC_A64_INLINE void bc_aes_neon_init(struct bc_aes_neon_state *s, const struct bc_aes_neon_key *k, int dec)
{
	static const uint8_t sr[16] = { 0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11 };
	static const uint8_t isr[16] = { 0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3 };
	static const uint8_t sr_rot[16] = { 5, 10, 15, 0, 9, 14, 3, 4, 13, 2, 7, 8, 1, 6, 11, 12 };
	static const uint8_t rot[16] = { 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12 };
	const uint8_t *tab = dec ? bc_aes_neon_inv_sbox : bc_aes_neon_sbox;

	BC_A64_UNROLL
	for (int i = 0; i < 4; i++)
		s->t[i] = vld1q_u8_x4(tab + 64 * i);
	s->perm = vld1q_u8(dec ? isr : sr);
	s->rot = vld1q_u8(dec ? rot : sr_rot);
	s->c40 = vdupq_n_u8(0x40);
	s->c1b = vdupq_n_u8(0x1b);
	s->rk = (const uint8_t (*)[16])k->rk;
	s->rounds = k->rounds;
}

BC_A64_INLINE uint8x16_t bc_aes_neon_sub(const struct bc_aes_neon_state *s, uint8x16_t x)
{
	uint8x16_t r = vqtbl4q_u8(s->t[0], x);

	x = vsubq_u8(x, s->c40);
	r = vqtbx4q_u8(r, s->t[1], x);
	x = vsubq_u8(x, s->c40);
	r = vqtbx4q_u8(r, s->t[2], x);
	x = vsubq_u8(x, s->c40);
	return vqtbx4q_u8(r, s->t[3], x);
}

/* Multiplication by x in GF(2^8) on every byte: the top bit, spread to a
 * mask by an arithmetic shift, selects the reduction 0x1b. */
BC_A64_INLINE uint8x16_t bc_aes_neon_xtime(const struct bc_aes_neon_state *s, uint8x16_t x)
{
	uint8x16_t m = vreinterpretq_u8_s8(vshrq_n_s8(vreinterpretq_s8_u8(x), 7));

	return veorq_u8(vaddq_u8(x, x), vandq_u8(m, s->c1b));
}

/* Multiplication by x^2: the two bits shifted out, as a number 0..3,
 * times 0x1b carry-less (PMUL) is exactly what they reduce to. */
BC_A64_INLINE uint8x16_t bc_aes_neon_mul4(const struct bc_aes_neon_state *s, uint8x16_t x)
{
	poly8x16_t top = vreinterpretq_p8_u8(vshrq_n_u8(x, 6));

	return veorq_u8(vshlq_n_u8(x, 2), vreinterpretq_u8_p8(vmulq_p8(top, vreinterpretq_p8_u8(s->c1b))));
}

/* MixColumns of a = ShiftRows(y) with b = a rotated by one row in each
 * column (byte i of a column gets byte i+1): with t = a ^ b, every output
 * byte 2a0 ^ 3a1 ^ a2 ^ a3 is xtime(t) ^ b ^ (t rotated by two rows). */
BC_A64_INLINE uint8x16_t bc_aes_neon_mix(const struct bc_aes_neon_state *s, uint8x16_t a, uint8x16_t b)
{
	uint8x16_t t = veorq_u8(a, b);

	return veorq_u8(veorq_u8(bc_aes_neon_xtime(s, t), b),
			vreinterpretq_u8_u16(vrev32q_u16(vreinterpretq_u16_u8(t))));
}

/* n (a constant) blocks through the cipher. */
BC_A64_INLINE void bc_aes_neon_enc_n(const struct bc_aes_neon_state *s, uint8x16_t *x, int n)
{
	unsigned r;

	BC_A64_UNROLL
	for (int i = 0; i < n; i++)
		x[i] = veorq_u8(x[i], vld1q_u8(s->rk[0]));
	for (r = 1; r < s->rounds; r++) {
		uint8x16_t k = vld1q_u8(s->rk[r]);

		BC_A64_UNROLL
		for (int i = 0; i < n; i++) {
			uint8x16_t y = bc_aes_neon_sub(s, x[i]);

			x[i] = veorq_u8(bc_aes_neon_mix(s, vqtbl1q_u8(y, s->perm), vqtbl1q_u8(y, s->rot)), k);
		}
	}
	BC_A64_UNROLL
	for (int i = 0; i < n; i++)
		x[i] = veorq_u8(vqtbl1q_u8(bc_aes_neon_sub(s, x[i]), s->perm), vld1q_u8(s->rk[r]));
}

/* FIPS-197 5.3 with the encryption round keys; InvMixColumns is
 * MixColumns after multiplying each column by 04 x^2 + 05 (the inverse
 * matrix factors as the forward one times that circulant): u = x ^ 4(x ^
 * x rotated by two rows). */
BC_A64_INLINE void bc_aes_neon_dec_n(const struct bc_aes_neon_state *s, uint8x16_t *x, int n)
{
	unsigned r = s->rounds;

	BC_A64_UNROLL
	for (int i = 0; i < n; i++)
		x[i] = veorq_u8(x[i], vld1q_u8(s->rk[r]));
	for (r--; r > 0; r--) {
		uint8x16_t k = vld1q_u8(s->rk[r]);

		BC_A64_UNROLL
		for (int i = 0; i < n; i++) {
			uint8x16_t y = veorq_u8(bc_aes_neon_sub(s, vqtbl1q_u8(x[i], s->perm)), k);
			uint8x16_t v = veorq_u8(y, vreinterpretq_u8_u16(vrev32q_u16(vreinterpretq_u16_u8(y))));

			y = veorq_u8(y, bc_aes_neon_mul4(s, v));
			x[i] = bc_aes_neon_mix(s, y, vqtbl1q_u8(y, s->rot));
		}
	}
	BC_A64_UNROLL
	for (int i = 0; i < n; i++)
		x[i] = veorq_u8(bc_aes_neon_sub(s, vqtbl1q_u8(x[i], s->perm)), vld1q_u8(s->rk[0]));
}

BC_A64_INLINE void bc_aes_neon_enc4(const void *ks, uint8x16_t x[4])
{
	bc_aes_neon_enc_n(ks, x, 4);
}
BC_A64_INLINE uint8x16_t bc_aes_neon_enc1(const void *ks, uint8x16_t x)
{
	bc_aes_neon_enc_n(ks, &x, 1);
	return x;
}
BC_A64_INLINE void bc_aes_neon_dec4(const void *ks, uint8x16_t x[4])
{
	bc_aes_neon_dec_n(ks, x, 4);
}
BC_A64_INLINE uint8x16_t bc_aes_neon_dec1(const void *ks, uint8x16_t x)
{
	bc_aes_neon_dec_n(ks, &x, 1);
	return x;
}

/* aes_neon.c */
static inline int bc_aes_neon_keylen_ok(size_t keylen)
{
	return keylen == 16 || keylen == 24 || keylen == 32;
}
void bc_aes_neon_expand(struct bc_aes_neon_key *k, const uint8_t *key, size_t keylen);
int bc_aes_neon_setkey(void *ctx, const uint8_t *key, size_t keylen);
void bc_aes_neon_ecb_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks);
void bc_aes_neon_ecb_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks);

#endif
