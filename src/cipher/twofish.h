/* Twofish: the bitsliced h function, the constant-time key schedule and the key-dependent S-boxes as tables.
 * Schneier, Kelsey, Whiting, Wagner, Hall, Ferguson, "Twofish: A 128-Bit Block Cipher" (AES submission, 1998). */
#ifndef BC_TWOFISH_H
#define BC_TWOFISH_H

#include "drivers.h"

/* ---- q0 and q1 without tables ------------------------------------------------------
 * q0 and q1 are each four 4-bit permutations t0..t3 joined by nibble XORs and
 * 4-bit rotations (paper, section 4.3.5). Here a permutation is its algebraic
 * normal form: output bit i is the XOR of the monomials (ANDs of input bits)
 * whose coefficients are set in a 16-bit row, bit m standing for the product
 * of the input bits set in m (bit 0 of m: input bit 0; m = 0: the constant 1).
 * The rows were computed from the paper's t-tables by the Moebius transform
 * (a Python script, checked against the paper's q0/q1 tables for all 256
 * inputs, which are not kept here). Each plane of 64 bits carries 64
 * independent bytes, so a secret byte never picks an address. */
#define TF_Q0_T0 0x608e, 0x46dc, 0x0814, 0x65d7
#define TF_Q0_T1 0x337c, 0x1853, 0x78d5, 0x6211
#define TF_Q0_T2 0x5753, 0x592d, 0x4714, 0x24bd
#define TF_Q0_T3 0x5069, 0x6086, 0x3151, 0x56b3
#define TF_Q1_T0 0x0d14, 0x7c23, 0x5098, 0x329e
#define TF_Q1_T1 0x4537, 0x6dae, 0x577a, 0x3482
#define TF_Q1_T2 0x5874, 0x56ec, 0x57b1, 0x24ea
#define TF_Q1_T3 0x3571, 0x14df, 0x6d7c, 0x2de5

/* Bit i of the literal m keeps v: with m a constant only the XORs remain. */
#define TF_SEL(m, i, v) ((UINT64_C(0) - (((m) >> (i)) & 1u)) & (v))
#define TF_ANF(m, mo) (TF_SEL(m, 0, mo[0]) ^ TF_SEL(m, 1, mo[1]) ^ TF_SEL(m, 2, mo[2]) ^ TF_SEL(m, 3, mo[3]) ^ \
	TF_SEL(m, 4, mo[4]) ^ TF_SEL(m, 5, mo[5]) ^ TF_SEL(m, 6, mo[6]) ^ TF_SEL(m, 7, mo[7]) ^ \
	TF_SEL(m, 8, mo[8]) ^ TF_SEL(m, 9, mo[9]) ^ TF_SEL(m, 10, mo[10]) ^ TF_SEL(m, 11, mo[11]) ^ \
	TF_SEL(m, 12, mo[12]) ^ TF_SEL(m, 13, mo[13]) ^ TF_SEL(m, 14, mo[14]) ^ TF_SEL(m, 15, mo[15]))

#define TF_TBOX(...) TF_TBOX_(__VA_ARGS__)
#define TF_TBOX_(o, x, r0, r1, r2, r3) do { \
	uint64_t mo_[16]; \
	mo_[0] = ~UINT64_C(0); mo_[1] = (x)[0]; mo_[2] = (x)[1]; mo_[4] = (x)[2]; mo_[8] = (x)[3]; \
	mo_[3] = mo_[1] & mo_[2]; mo_[5] = mo_[1] & mo_[4]; mo_[6] = mo_[2] & mo_[4]; mo_[7] = mo_[3] & mo_[4]; \
	mo_[9] = mo_[1] & mo_[8]; mo_[10] = mo_[2] & mo_[8]; mo_[11] = mo_[3] & mo_[8]; mo_[12] = mo_[4] & mo_[8]; \
	mo_[13] = mo_[5] & mo_[8]; mo_[14] = mo_[6] & mo_[8]; mo_[15] = mo_[7] & mo_[8]; \
	(o)[0] = TF_ANF(r0, mo_); (o)[1] = TF_ANF(r1, mo_); (o)[2] = TF_ANF(r2, mo_); (o)[3] = TF_ANF(r3, mo_); \
} while (0)

/* q on the byte planes p[0..7] (bit 0 first): a0 = high nibble, b0 = low one;
 * a1 = a0 ^ b0, b1 = a0 ^ ROR4(b0, 1) ^ 8a0 mod 16; the same after t0, t1;
 * the result is 16 t3(b3) + t2(a3). */
#define TF_Q(p, t0, t1, t2, t3) do { \
	uint64_t a_[4], b_[4], c_[4], d_[4]; \
	a_[0] = (p)[4] ^ (p)[0]; a_[1] = (p)[5] ^ (p)[1]; a_[2] = (p)[6] ^ (p)[2]; a_[3] = (p)[7] ^ (p)[3]; \
	b_[0] = (p)[4] ^ (p)[1]; b_[1] = (p)[5] ^ (p)[2]; b_[2] = (p)[6] ^ (p)[3]; b_[3] = (p)[7] ^ (p)[0] ^ (p)[4]; \
	TF_TBOX(c_, a_, t0); TF_TBOX(d_, b_, t1); \
	a_[0] = c_[0] ^ d_[0]; a_[1] = c_[1] ^ d_[1]; a_[2] = c_[2] ^ d_[2]; a_[3] = c_[3] ^ d_[3]; \
	b_[0] = c_[0] ^ d_[1]; b_[1] = c_[1] ^ d_[2]; b_[2] = c_[2] ^ d_[3]; b_[3] = c_[3] ^ d_[0] ^ c_[0]; \
	TF_TBOX((p), a_, t2); TF_TBOX((p) + 4, b_, t3); \
} while (0)

static inline void tf_q0(uint64_t p[8])
{
	TF_Q(p, TF_Q0_T0, TF_Q0_T1, TF_Q0_T2, TF_Q0_T3);
}

static inline void tf_q1(uint64_t p[8])
{
	TF_Q(p, TF_Q1_T0, TF_Q1_T1, TF_Q1_T2, TF_Q1_T3);
}

/* Key words as planes: l[i][j][b] is all ones where bit b of byte j of L_i is set. */
typedef uint64_t tf_keyplanes[4][4][8];

static inline void tf_xor_key(uint64_t y[4][8], const uint64_t l[4][8])
{
	for (int j = 0; j < 4; j++)
		for (int b = 0; b < 8; b++)
			y[j][b] ^= l[j][b];
}

/* The four key-dependent S-boxes of h(X, L) (paper, section 4.3.2) on the
 * byte planes y[j] of X, for nk = 2, 3 or 4 key words (public). */
static inline void tf_sboxes(uint64_t y[4][8], const tf_keyplanes l, unsigned nk)
{
	if (nk == 4) {
		tf_q1(y[0]); tf_q0(y[1]); tf_q0(y[2]); tf_q1(y[3]);
		tf_xor_key(y, l[3]);
	}
	if (nk >= 3) {
		tf_q1(y[0]); tf_q1(y[1]); tf_q0(y[2]); tf_q0(y[3]);
		tf_xor_key(y, l[2]);
	}
	tf_q0(y[0]); tf_q1(y[1]); tf_q0(y[2]); tf_q1(y[3]);
	tf_xor_key(y, l[1]);
	tf_q0(y[0]); tf_q0(y[1]); tf_q1(y[2]); tf_q1(y[3]);
	tf_xor_key(y, l[0]);
	tf_q1(y[0]); tf_q0(y[1]); tf_q1(y[2]); tf_q0(y[3]);
}

/* ---- MDS ------------------------------------------------------------------------------
 * Z = MDS * y over GF(2^8) mod x^8 + x^6 + x^5 + x^3 + 1 is linear over GF(2):
 * output plane 8i + b (bit b of z_i) is the XOR of the input planes 8j + c
 * set in its 32-bit row (computed from the paper's matrix). */
#define TF_LIN8(m, s, v) (TF_SEL(m, s, (v)[0]) ^ TF_SEL(m, s + 1, (v)[1]) ^ TF_SEL(m, s + 2, (v)[2]) ^ \
	TF_SEL(m, s + 3, (v)[3]) ^ TF_SEL(m, s + 4, (v)[4]) ^ TF_SEL(m, s + 5, (v)[5]) ^ \
	TF_SEL(m, s + 6, (v)[6]) ^ TF_SEL(m, s + 7, (v)[7]))
#define TF_LIN32(m, y) (TF_LIN8(m, 0, y[0]) ^ TF_LIN8(m, 8, y[1]) ^ TF_LIN8(m, 16, y[2]) ^ TF_LIN8(m, 24, y[3]))
#define TF_MDS_ROWS(X) \
	X(0, 0x05050701) X(1, 0x0b0b0f02) X(2, 0x16161f04) X(3, 0x29293908) \
	X(4, 0x53537210) X(5, 0xa2a2e320) X(6, 0x4141c140) X(7, 0x82828380) \
	X(8, 0x01070705) X(9, 0x020f0f0b) X(10, 0x041f1f16) X(11, 0x08393929) \
	X(12, 0x10727253) X(13, 0x20e3e3a2) X(14, 0x40c1c141) X(15, 0x80838382) \
	X(16, 0x07010507) X(17, 0x0f020b0f) X(18, 0x1f04161f) X(19, 0x39082939) \
	X(20, 0x72105372) X(21, 0xe320a2e3) X(22, 0xc14041c1) X(23, 0x83808283) \
	X(24, 0x05070107) X(25, 0x0b0f020f) X(26, 0x161f041f) X(27, 0x29390839) \
	X(28, 0x53721072) X(29, 0xa2e320e3) X(30, 0x41c140c1) X(31, 0x82838083)

/* z = h(x, L): x and z as 32 planes, bit i of the word in plane i. */
static inline void tf_h(uint64_t z[32], const uint64_t x[32], const tf_keyplanes l, unsigned nk)
{
	uint64_t y[4][8];

	memcpy(y, x, sizeof(y));
	tf_sboxes(y, l, nk);
#define TF_MDS_ROW(r, m) z[r] = TF_LIN32(m, y);
	TF_MDS_ROWS(TF_MDS_ROW)
#undef TF_MDS_ROW
}

/* ---- transposition ---------------------------------------------------------------------
 * In place: afterwards bit j of a[i] is what bit i of a[j] was. Its own inverse. */
static inline void tf_transpose64(uint64_t a[64])
{
	uint64_t m = UINT64_C(0x00000000ffffffff);

	for (unsigned j = 32; j; j >>= 1, m ^= m << j)
		for (unsigned k = 0; k < 64; k = ((k | j) + 1) & ~j) {
			uint64_t t = (a[k] >> j ^ a[k | j]) & m;
			a[k | j] ^= t;
			a[k] ^= t << j;
		}
}

/* ---- key schedule ----------------------------------------------------------------------- */
struct tf_key {
	uint32_t k[40];        /* K_0..K_39 */
	tf_keyplanes s;        /* the S-box key S = (S_{k-1}, ..., S_0) as planes, for every lane */
	unsigned nk;           /* key length in 64-bit words: 2, 3 or 4 */
};

int tf_setkey(struct tf_key *key, const uint8_t *in, size_t keylen);

/* The four key-dependent S-boxes as tables, tab[j][x] = s_j(x), for drivers
 * that look them up within registers (never by a secret address). */
void tf_sbox_tables(const struct tf_key *key, uint8_t tab[4][256]);

#endif
