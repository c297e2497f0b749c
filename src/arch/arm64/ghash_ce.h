/* blockcrypt arm64: GHASH with PMULL/PMULL2, aggregated over 4 blocks with H..H^4 (Karatsuba), for ghash-ce and GCM.
 * NIST SP 800-38D sections 6.3-6.4; Arm ARM PMULL. Includers need BC_CPU_ARM_PMULL (flags +crypto or +aes). */
#ifndef BC_GHASH_CE_H
#define BC_GHASH_CE_H

#include "arm64_modes.h"
#include "../../hash/ghash.h"

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

/* POLYVAL (RFC 8452 appendix A) is GHASH with every block, the key and the
 * result byte-reversed: reversing the bytes and then each byte's bits
 * reflects the whole 128 bits, which puts POLYVAL's little-endian
 * coefficients into the same order as GHASH's. */
BC_A64_INLINE uint64x2_t bc_gf128_ce_in(uint8x16_t b, const int polyval)
{
	if (polyval) {
		b = vrev64q_u8(b);
		b = vextq_u8(b, b, 8);
	}
	return bc_ghash_ce_in(b);
}
BC_A64_INLINE uint8x16_t bc_gf128_ce_out(uint64x2_t v, const int polyval)
{
	uint8x16_t b = bc_ghash_ce_out(v);

	if (polyval) {
		b = vrev64q_u8(b);
		b = vextq_u8(b, b, 8);
	}
	return b;
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

/* Whole blocks from memory, GHASH's or (polyval) POLYVAL's. */
BC_A64_INLINE uint64x2_t bc_gf128_ce_blocks(const struct bc_ghash_ce_regs *r, uint64x2_t acc, const uint8_t *src,
					    size_t nblocks, const int polyval)
{
	for (; nblocks >= 4; nblocks -= 4, src += 64) {
		uint64x2_t x[4];

		BC_A64_UNROLL
		for (int i = 0; i < 4; i++)
			x[i] = bc_gf128_ce_in(vld1q_u8(src + 16 * i), polyval);
		acc = bc_ghash_ce_mul4(r, acc, x);
	}
	for (; nblocks; nblocks--, src += 16)
		acc = bc_ghash_ce_mul1(r, veorq_u64(acc, bc_gf128_ce_in(vld1q_u8(src), polyval)));
	return acc;
}

/* Any length, a partial last block zero-padded (GCM's A, C and IV). */
BC_A64_INLINE uint64x2_t bc_ghash_ce_padded(const struct bc_ghash_ce_regs *r, uint64x2_t acc, const uint8_t *src,
					    size_t len)
{
	acc = bc_gf128_ce_blocks(r, acc, src, len / 16, 0);
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

/* The update and final of the ghash-ce and polyval-ce shashes (struct
 * bc_ghash_desc, the portable drivers' partial-block rules); the key is
 * loaded only when there is a block to multiply. */
BC_A64_INLINE void bc_gf128_ce_update(const struct bc_ghash_ce_key *k, struct bc_ghash_desc *d, const uint8_t *data,
				      size_t len, const int polyval)
{
	int completed = bc_ghash_fill_pending(d, &data, &len);

	if (d->pending)
		return;
	if (completed || len >= 16) {
		struct bc_ghash_ce_regs r;
		uint64x2_t acc;

		bc_ghash_ce_load(&r, k);
		acc = bc_gf128_ce_in(vld1q_u8(d->acc), polyval);
		if (completed)
			acc = bc_ghash_ce_mul1(&r, acc);
		acc = bc_gf128_ce_blocks(&r, acc, data, len / 16, polyval);
		vst1q_u8(d->acc, bc_gf128_ce_out(acc, polyval));
		data += len & ~(size_t)15;
		len &= 15;
	}
	bc_ghash_start_pending(d, data, len);
}

BC_A64_INLINE void bc_gf128_ce_final(const struct bc_ghash_ce_key *k, struct bc_ghash_desc *d, uint8_t *out,
				     const int polyval)
{
	if (d->pending) {
		struct bc_ghash_ce_regs r;

		bc_ghash_ce_load(&r, k);
		vst1q_u8(d->acc, bc_gf128_ce_out(bc_ghash_ce_mul1(&r, bc_gf128_ce_in(vld1q_u8(d->acc), polyval)),
						 polyval));
	}
	memcpy(out, d->acc, 16);
	bc_wipe(d, sizeof(*d));
}

/* The shash table of ghash-ce or polyval-ce. */
#define BC_GF128_CE_SHASH(NAME, DRIVER, SETKEY, UPDATE, FINAL) {                                        		.name = NAME, .driver = DRIVER, .priority = 300, .cpu = BC_CPU_ARM_PMULL,                		.min_keysize = 16, .max_keysize = 16, .digestsize = 16, .blocksize = 16,                 		.ctxsize = sizeof(struct bc_ghash_ce_key), .descsize = sizeof(struct bc_ghash_desc),     		.setkey = SETKEY, .init = bc_ghash_generic_init, .update = UPDATE, .final = FINAL,       	}

#endif
