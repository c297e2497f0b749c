/* blockcrypt: bitsliced inversion in GF(2^8) through the tower GF(((2^2)^2)^2), and bitsliced 8x8 affine maps, for the constant-time S-boxes of SM4 and Camellia.
 * Specification: the tower representation of GF(2^8) (Canright, "A very compact S-box for AES", CHES 2005); the fields and constants below. */
#ifndef BC_GF256_TOWER_H
#define BC_GF256_TOWER_H

#include <stdint.h>

/*
 * A byte of the tower field is a1*y + a0 (a1 = high nibble) in
 * GF(256) = GF(16)[y]/(y^2+y+M) with M = 9 (w*z + 1); a nibble is b1*z + b0
 * (b1 = high bit pair) in GF(16) = GF(4)[z]/(z^2+z+w); a pair is c1*w + c0
 * (c1 = high bit) in GF(4) = GF(2)[w]/(w^2+w+1). The circuit works on
 * planes: v[j] holds bit j of up to 64 bytes, one byte per bit position, so
 * every operation is an AND or XOR of whole 64-bit words and no secret ever
 * picks an address. A cipher's S-box of the form A2 * inv(A1 * x + c1) + c2
 * (with any field polynomial: all representations of GF(2^8) are related by
 * a linear map) becomes BC_GF_AFFINE with A1 composed with the isomorphism
 * into the tower, bc_gf256_tower_inv, and BC_GF_AFFINE with A2 composed with
 * its inverse; each cipher's file says how its constants were obtained.
 *
 * Q maps the tower byte a1*y + a0 to M*a1^2 + a0^2, the linear part of the
 * norm a1^2*M + a1*a0 + a0^2 that the inversion needs (rows as below).
 */
#define BC_GF_Q0 0xfb
#define BC_GF_Q1 0xa6
#define BC_GF_Q2 0x2c
#define BC_GF_Q3 0x18

/* Bit `j` of the constant row `m` selects plane v[j]; with m a literal the masks
 * fold away and only the XORs remain. */
#define BC_GF_SEL(m, j, v) ((UINT64_C(0) - (((m) >> (j)) & 1u)) & (v)[j])
#define BC_GF_LIN(m, v) (BC_GF_SEL(m, 0, v) ^ BC_GF_SEL(m, 1, v) ^ BC_GF_SEL(m, 2, v) ^ BC_GF_SEL(m, 3, v) ^ \
                         BC_GF_SEL(m, 4, v) ^ BC_GF_SEL(m, 5, v) ^ BC_GF_SEL(m, 6, v) ^ BC_GF_SEL(m, 7, v))
#define BC_GF_BIT(c, i) (UINT64_C(0) - (((c) >> (i)) & 1u))
/* out = M * in + c for the 8x8 matrix with rows m0..m7 (row i: which input
 * bits make output bit i, bit 0 = least significant); written out in full so
 * that every row is a literal (the extra level expands a list of rows). */
#define BC_GF_AFFINE(...) BC_GF_AFFINE_(__VA_ARGS__)
#define BC_GF_AFFINE_(out, in, c, m0, m1, m2, m3, m4, m5, m6, m7) do { \
	out[0] = BC_GF_LIN(m0, in) ^ BC_GF_BIT(c, 0); out[1] = BC_GF_LIN(m1, in) ^ BC_GF_BIT(c, 1); \
	out[2] = BC_GF_LIN(m2, in) ^ BC_GF_BIT(c, 2); out[3] = BC_GF_LIN(m3, in) ^ BC_GF_BIT(c, 3); \
	out[4] = BC_GF_LIN(m4, in) ^ BC_GF_BIT(c, 4); out[5] = BC_GF_LIN(m5, in) ^ BC_GF_BIT(c, 5); \
	out[6] = BC_GF_LIN(m6, in) ^ BC_GF_BIT(c, 6); out[7] = BC_GF_LIN(m7, in) ^ BC_GF_BIT(c, 7); \
} while (0)

struct bc_gf4 { uint64_t h, l; };        /* h*w + l */
struct bc_gf16 { struct bc_gf4 h, l; };  /* h*z + l */

static inline struct bc_gf4 bc_gf4_add(struct bc_gf4 a, struct bc_gf4 b)
{
	return (struct bc_gf4){ a.h ^ b.h, a.l ^ b.l };
}

/* Karatsuba: three ANDs; w^2 = w + 1. */
static inline struct bc_gf4 bc_gf4_mul(struct bc_gf4 a, struct bc_gf4 b)
{
	uint64_t t = (a.h ^ a.l) & (b.h ^ b.l), hh = a.h & b.h, ll = a.l & b.l;
	return (struct bc_gf4){ t ^ ll, hh ^ ll };
}

/* Squaring is linear in GF(4), and since a^3 = 1 it is also the inverse. */
static inline struct bc_gf4 bc_gf4_sq(struct bc_gf4 a)
{
	return (struct bc_gf4){ a.h, a.h ^ a.l };
}

static inline struct bc_gf4 bc_gf4_mulw(struct bc_gf4 a)
{
	return (struct bc_gf4){ a.h ^ a.l, a.h };
}

static inline struct bc_gf16 bc_gf16_add(struct bc_gf16 a, struct bc_gf16 b)
{
	return (struct bc_gf16){ bc_gf4_add(a.h, b.h), bc_gf4_add(a.l, b.l) };
}

/* z^2 = z + w */
static inline struct bc_gf16 bc_gf16_mul(struct bc_gf16 a, struct bc_gf16 b)
{
	struct bc_gf4 hh = bc_gf4_mul(a.h, b.h), ll = bc_gf4_mul(a.l, b.l);
	struct bc_gf4 t = bc_gf4_mul(bc_gf4_add(a.h, a.l), bc_gf4_add(b.h, b.l));
	return (struct bc_gf16){ bc_gf4_add(t, ll), bc_gf4_add(bc_gf4_mulw(hh), ll) };
}

/* (b1 z + b0)^-1 = (b1 z + b0 + b1) / N with the norm N = b1^2 w + b1 b0 + b0^2. */
static inline struct bc_gf16 bc_gf16_inv(struct bc_gf16 b)
{
	struct bc_gf4 n = bc_gf4_add(bc_gf4_add(bc_gf4_mulw(bc_gf4_sq(b.h)), bc_gf4_mul(b.h, b.l)), bc_gf4_sq(b.l));
	struct bc_gf4 ni = bc_gf4_sq(n);
	return (struct bc_gf16){ bc_gf4_mul(ni, b.h), bc_gf4_mul(ni, bc_gf4_add(b.l, b.h)) };
}

/* o = t^-1 in the tower field (0 -> 0), on 64 bytes at once:
 * (a1 y + a0)^-1 = (a1 y + a0 + a1) / (a1^2 M + a1 a0 + a0^2). */
static inline void bc_gf256_tower_inv(uint64_t o[8], const uint64_t t[8])
{
	struct bc_gf16 hi = { { t[7], t[6] }, { t[5], t[4] } }, lo = { { t[3], t[2] }, { t[1], t[0] } };
	struct bc_gf16 q = { { BC_GF_LIN(BC_GF_Q3, t), BC_GF_LIN(BC_GF_Q2, t) },
	                     { BC_GF_LIN(BC_GF_Q1, t), BC_GF_LIN(BC_GF_Q0, t) } };
	struct bc_gf16 norm = bc_gf16_add(q, bc_gf16_mul(hi, lo));
	struct bc_gf16 ni = bc_gf16_inv(norm);
	struct bc_gf16 oh = bc_gf16_mul(ni, hi), ol = bc_gf16_mul(ni, bc_gf16_add(hi, lo));
	o[7] = oh.h.h; o[6] = oh.h.l; o[5] = oh.l.h; o[4] = oh.l.l;
	o[3] = ol.h.h; o[2] = ol.h.l; o[1] = ol.l.h; o[0] = ol.l.l;
}

#define BC_GF_SWAP(a, b, m, s) do { uint64_t t_ = ((a) >> (s) ^ (b)) & (m); (b) ^= t_; (a) ^= t_ << (s); } while (0)

/* Transposes the 8x8 bit matrix in every byte column of v[0..7]: afterwards
 * v[j] bit 8t + i is what was bit j of byte t of v[i]. Its own inverse. */
static inline void bc_gf_transpose8(uint64_t v[8])
{
	for (int i = 0; i < 8; i += 2)
		BC_GF_SWAP(v[i], v[i + 1], UINT64_C(0x5555555555555555), 1);
	for (int i = 0; i < 8; i += 4) {
		BC_GF_SWAP(v[i], v[i + 2], UINT64_C(0x3333333333333333), 2);
		BC_GF_SWAP(v[i + 1], v[i + 3], UINT64_C(0x3333333333333333), 2);
	}
	for (int i = 0; i < 4; i++)
		BC_GF_SWAP(v[i], v[i + 4], UINT64_C(0x0f0f0f0f0f0f0f0f), 4);
}

#endif /* BC_GF256_TOWER_H */
