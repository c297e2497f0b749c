/* blockcrypt arm64: GHASH with PMULL/PMULL2, aggregated over 4 blocks with H..H^4 (Karatsuba), for ghash-ce and GCM.
 * NIST SP 800-38D sections 6.3-6.4; Arm ARM PMULL. Includers need BC_CPU_ARM_PMULL (flags +crypto or +aes). */
#ifndef BC_GHASH_CE_H
#define BC_GHASH_CE_H

#include "arm64_modes.h"

/*
 * GCM numbers the bits of a block from the most significant bit of byte 0
 * (x^0) on. RBIT reverses the bits of every byte, after which bit k of the
 * little-endian 128-bit register is the coefficient of x^k: the ordinary
 * polynomial order PMULL multiplies in. Products then reduce with
 * x^128 = x^7 + x^2 + x + 1 (0x87) in two PMULL2 folds, high word first.
 */
struct bc_ghash_ce_key {
	_Alignas(16) uint64_t h[4][2];      /* H^1..H^4, bit-reversed bytes as above */
	_Alignas(16) uint64_t k[2][2];      /* Karatsuba: lo ^ hi of H^1, H^2 | H^3, H^4 */
};

/* The key in registers for one call: 7 of them, with the 0x87 constant. */
struct bc_ghash_ce_regs {
	uint64x2_t h[4], k[2], red;
};

struct bc_ghash_ce_sum {
	uint64x2_t lo, hi, mid;
};

BC_A64_INLINE uint64x2_t bc_ghash_ce_in(uint8x16_t b)
{
	return vreinterpretq_u64_u8(vrbitq_u8(b));
}
BC_A64_INLINE uint8x16_t bc_ghash_ce_out(uint64x2_t v)
{
	return vrbitq_u8(vreinterpretq_u8_u64(v));
}

BC_A64_INLINE uint64x2_t bc_ghash_ce_pmull(uint64x2_t a, uint64x2_t b)
{
	return vreinterpretq_u64_p128(vmull_p64((poly64_t)vgetq_lane_u64(a, 0), (poly64_t)vgetq_lane_u64(b, 0)));
}
BC_A64_INLINE uint64x2_t bc_ghash_ce_pmull2(uint64x2_t a, uint64x2_t b)
{
	return vreinterpretq_u64_p128(vmull_high_p64(vreinterpretq_p64_u64(a), vreinterpretq_p64_u64(b)));
}

BC_A64_INLINE void bc_ghash_ce_load(struct bc_ghash_ce_regs *r, const struct bc_ghash_ce_key *k)
{
	BC_A64_UNROLL
	for (int i = 0; i < 4; i++)
		r->h[i] = vld1q_u64(k->h[i]);
	r->k[0] = vld1q_u64(k->k[0]);
	r->k[1] = vld1q_u64(k->k[1]);
	r->red = vdupq_n_u64(0x87);
}

/* s (+)= x * H^(p+1), p a constant 0..3; Karatsuba's middle product uses
 * lo ^ hi of x (in both lanes after the EXT) against the packed key lane. */
BC_A64_INLINE void bc_ghash_ce_mul(struct bc_ghash_ce_sum *s, const struct bc_ghash_ce_regs *r, uint64x2_t x, int p,
				   int first)
{
	uint64x2_t t = veorq_u64(x, vextq_u64(x, x, 1));
	uint64x2_t lo = bc_ghash_ce_pmull(x, r->h[p]), hi = bc_ghash_ce_pmull2(x, r->h[p]);
	uint64x2_t mid = p % 2 ? bc_ghash_ce_pmull2(t, r->k[p / 2]) : bc_ghash_ce_pmull(t, r->k[p / 2]);

	if (first) {
		s->lo = lo, s->hi = hi, s->mid = mid;
	} else {
		s->lo = veorq_u64(s->lo, lo), s->hi = veorq_u64(s->hi, hi), s->mid = veorq_u64(s->mid, mid);
	}
}

/* The 256-bit sum is p3:p2:p1:p0 with p1 = lo.1 ^ mid', p2 = hi.0 ^ mid'
 * (mid' = mid ^ lo ^ hi); p3 * 0x87 folds into p2:p1, then p2 * 0x87 into
 * p1:p0. */
BC_A64_INLINE uint64x2_t bc_ghash_ce_reduce(const struct bc_ghash_ce_sum *s, uint64x2_t red)
{
	uint64x2_t mid = veorq_u64(s->mid, veorq_u64(s->lo, s->hi));
	uint64x2_t m = veorq_u64(veorq_u64(vextq_u64(s->lo, s->hi, 1), mid), bc_ghash_ce_pmull2(s->hi, red));

	return veorq_u64(vzip1q_u64(s->lo, m), bc_ghash_ce_pmull2(m, red));
}

BC_A64_INLINE uint64x2_t bc_ghash_ce_mul1(const struct bc_ghash_ce_regs *r, uint64x2_t x)
{
	struct bc_ghash_ce_sum s;

	bc_ghash_ce_mul(&s, r, x, 0, 1);
	return bc_ghash_ce_reduce(&s, r->red);
}

/* acc = (((acc ^ X0) H ^ X1) H ...): four blocks as (acc ^ X0) H^4 ^ X1 H^3
 * ^ X2 H^2 ^ X3 H with one reduction. */
BC_A64_INLINE uint64x2_t bc_ghash_ce_mul4(const struct bc_ghash_ce_regs *r, uint64x2_t acc, const uint64x2_t x[4])
{
	struct bc_ghash_ce_sum s;

	bc_ghash_ce_mul(&s, r, veorq_u64(acc, x[0]), 3, 1);
	bc_ghash_ce_mul(&s, r, x[1], 2, 0);
	bc_ghash_ce_mul(&s, r, x[2], 1, 0);
	bc_ghash_ce_mul(&s, r, x[3], 0, 0);
	return bc_ghash_ce_reduce(&s, r->red);
}

/* Whole blocks from memory. */
BC_A64_INLINE uint64x2_t bc_ghash_ce_blocks(const struct bc_ghash_ce_regs *r, uint64x2_t acc, const uint8_t *src,
					    size_t nblocks)
{
	for (; nblocks >= 4; nblocks -= 4, src += 64) {
		uint64x2_t x[4];

		BC_A64_UNROLL
		for (int i = 0; i < 4; i++)
			x[i] = bc_ghash_ce_in(vld1q_u8(src + 16 * i));
		acc = bc_ghash_ce_mul4(r, acc, x);
	}
	for (; nblocks; nblocks--, src += 16)
		acc = bc_ghash_ce_mul1(r, veorq_u64(acc, bc_ghash_ce_in(vld1q_u8(src))));
	return acc;
}

/* Any length, a partial last block zero-padded (GCM's A, C and IV). */
BC_A64_INLINE uint64x2_t bc_ghash_ce_padded(const struct bc_ghash_ce_regs *r, uint64x2_t acc, const uint8_t *src,
					    size_t len)
{
	acc = bc_ghash_ce_blocks(r, acc, src, len / 16);
	if (len % 16) {
		uint8_t b[16] = { 0 };

		memcpy(b, src + (len & ~(size_t)15), len % 16);
		acc = bc_ghash_ce_mul1(r, veorq_u64(acc, bc_ghash_ce_in(vld1q_u8(b))));
		bc_wipe(b, sizeof(b));
	}
	return acc;
}

/* ghash_ce.c: H (16 bytes) to the key with its powers. */
void bc_ghash_ce_setkey(struct bc_ghash_ce_key *k, const uint8_t h[16]);

#endif
