/* blockcrypt: DES and TDES shared by the des drivers: key contexts, the portable entry points, and the
 * bitsliced core over a lane word of 64 bits or wider. FIPS 46-3, NIST SP 800-67 Rev. 2. */
#ifndef BC_DES_H
#define BC_DES_H

#include "drivers.h"

/* IP and FP, in FIPS 46-3's numbering (bit 1 the most significant of the
 * first byte); indexed by loop counters only. */
static const uint8_t des_ip[64] = {
	58, 50, 42, 34, 26, 18, 10, 2, 60, 52, 44, 36, 28, 20, 12, 4,
	62, 54, 46, 38, 30, 22, 14, 6, 64, 56, 48, 40, 32, 24, 16, 8,
	57, 49, 41, 33, 25, 17, 9, 1, 59, 51, 43, 35, 27, 19, 11, 3,
	61, 53, 45, 37, 29, 21, 13, 5, 63, 55, 47, 39, 31, 23, 15, 7,
};
static const uint8_t des_fp[64] = {
	40, 8, 48, 16, 56, 24, 64, 32, 39, 7, 47, 15, 55, 23, 63, 31,
	38, 6, 46, 14, 54, 22, 62, 30, 37, 5, 45, 13, 53, 21, 61, 29,
	36, 4, 44, 12, 52, 20, 60, 28, 35, 3, 43, 11, 51, 19, 59, 27,
	34, 2, 42, 10, 50, 18, 58, 26, 33, 1, 41, 9, 49, 17, 57, 25,
};

/* The S-boxes of FIPS 46-3 without a table a secret could index: output bit b
 * (0 = least significant) of S-box j, as a 64-bit truth table over the 6-bit
 * input (its first bit the most significant, so row = bits 5 and 0 of the
 * index, column = bits 4..1), followed by where P sends that bit: its
 * position (0 = least significant) in the round function's 32-bit result.
 * X(j, t0, p0, t1, p1, t2, p2, t3, p3) for each S-box. */
#define DES_SBOXES(X) \
	X(0, 0x917be9066f81b478u, 1, 0x27e9d492609f1f29u, 9, 0xb0c7871b497826bdu, 15, 0x869d497a86e67619u, 23) \
	X(1, 0xcd235ad2b865168fu, 14, 0x746a8b7462949fc3u, 30, 0x68f93c169346c3e9u, 4, 0xe196196e69c3a659u, 19) \
	X(2, 0x4b8d9c63a965569au, 26, 0x76b9960c39c2b749u, 2, 0xd96a863526f4794au, 16, 0x96692d696b9c90d3u, 8) \
	X(3, 0x09b77c1ac34998e7u, 31, 0xacd1168f692cce71u, 22, 0xcb69718c74ca0e97u, 12, 0x92c3e719ed90583eu, 6) \
	X(4, 0xa4cd96d24b76b948u, 29, 0xc70b39c692f05d2bu, 7, 0x695b9ca191666b96u, 18, 0x429dcd6a79e1348eu, 24) \
	X(5, 0x95a36a597c3ca34cu, 13, 0x52cbe13c6d9216dau, 21, 0xc69938d615e69a69u, 3, 0xb44ab695c9a4695bu, 28) \
	X(6, 0x348e9679497969a6u, 25, 0x6a95f41a9e4b81f4u, 10, 0x869cd96699e643c3u, 20, 0x92c761f82c96d966u, 0) \
	X(7, 0x9f6281cd619c7c2bu, 11, 0xa71658a7c8f13f0cu, 17, 0x394e96b1596aa569u, 5, 0xc17abd2438c716b9u, 27)

/* A truth table rotated left by p, as a constant expression. */
#define DES_ROTL64C(t, p) ((p) ? (uint64_t)(t) << (p) | (uint64_t)(t) >> (64 - (p)) : (uint64_t)(t))

/* Round keys: S-box j's 6 key bits at bits 47-6j .. 42-6j of rk[pass][round]. */
struct des_ctx {
	uint64_t rk[1][16];
};
struct des3_ctx {
	uint64_t rk[3][16];
};

/* out = the n bits of `in` (inbits wide) that tab names, first entry the most
 * significant: IP, FP, PC-1 and PC-2. Shifts and masks only. */
static inline uint64_t permute(uint64_t in, const uint8_t *tab, unsigned n, unsigned inbits)
{
	uint64_t out = 0;

	for (unsigned i = 0; i < n; i++)
		out = out << 1 | ((in >> (inbits - tab[i])) & 1);
	return out;
}

/* The portable driver's operations, which a wider driver reuses for keys,
 * MACs and the block counts it does not take itself. */
/* A driver's four cipher entry points (exact prototypes for its tables) over its
 * crypt(rk, nkeys, dec, dst, src, nblocks): des##sfx##_encrypt ... des3##sfx##_decrypt. */
#define BC_DES_ENTRIES(sfx, crypt)                                                                         \
	static void des##sfx##_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)  \
	{                                                                                                  \
		crypt(((const struct des_ctx *)ctx)->rk, 1, 0, dst, src, nblocks);                          \
	}                                                                                                  \
	static void des##sfx##_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)  \
	{                                                                                                  \
		crypt(((const struct des_ctx *)ctx)->rk, 1, 1, dst, src, nblocks);                          \
	}                                                                                                  \
	static void des3##sfx##_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks) \
	{                                                                                                  \
		crypt(((const struct des3_ctx *)ctx)->rk, 3, 0, dst, src, nblocks);                         \
	}                                                                                                  \
	static void des3##sfx##_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks) \
	{                                                                                                  \
		crypt(((const struct des3_ctx *)ctx)->rk, 3, 1, dst, src, nblocks);                         \
	}

int  bc_des_setkey(void *ctx, const uint8_t *key, size_t keylen);
int  bc_des3_setkey(void *ctx, const uint8_t *key, size_t keylen);
int  bc_des_weak_key(const uint8_t *key, size_t keylen);
int  bc_des3_weak_key(const uint8_t *key, size_t keylen);
void bc_des_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks);
void bc_des3_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks);
void bc_des_crypt(const uint64_t (*rk)[16], unsigned nkeys, int dec, uint8_t *dst, const uint8_t *src,
		  size_t nblocks);
/* x86: des-avx2's 256-lane pass (n <= 256 blocks), which the AVX-512 drivers share. */
void bc_des_avx2_pass(const uint64_t (*rk)[16], unsigned nkeys, int dec, uint8_t *dst, const uint8_t *src, size_t n);
/* A pass costs about what 15 blocks one at a time do (measured). */
#define BC_DES_PASS_MIN 15

/* The bitsliced core, for a file that defines DES_BS_WORD (the lane word:
 * uint64_t, or a vector of them), DES_BS_LANES (its bits), DES_BS_FN (the
 * functions' attributes) and DES_BS_SET/DES_BS_GET (a 64-bit part of it). */
#ifdef DES_BS_WORD
/* ---- Many blocks at a time, bitsliced ----------------------------------------------
 * Word c holds bit c+1 of every block (block k at bit 63-k of its 64-bit
 * part), so IP, E, P and FP are only a choice of words, and each S-box is
 * evaluated as gates on every lane at once: the 16 minterms of the middle four input bits, the 4 of
 * the outer two (the row), and each output bit as the XOR over the columns
 * of (column minterm AND the rows where that column's entry has the bit).
 * The row sets are constant expressions of the truth tables, so what is
 * left is about 170 AND/XOR/NOT per S-box. */
/* The 64 x 64 bit transpose (its own inverse): row k's bit 63-c becomes row
 * c's bit 63-k, by swapping ever smaller blocks of the matrix. */
static inline void transpose64(uint64_t a[64])
{
	uint64_t m = 0x00000000ffffffffu;

	for (unsigned j = 32; j; j >>= 1, m ^= m << j)
		for (unsigned k = 0; k < 64; k = ((k | j) + 1) & ~j) {
			uint64_t t = (a[k] ^ (a[k | j] >> j)) & m;

			a[k] ^= t;
			a[k | j] ^= t << j;
		}
}

/* Bit i of the constant t, as 0 or 1. */
#define DES_BIT(t, i) ((unsigned)((t) >> (i)) & 1u)
/* The rows (as a 4-bit set, row = 2 * first input bit + last) where column c
 * of truth table t has a 1. */
#define DES_ROWS(t, c) (DES_BIT(t, 2 * (c)) | DES_BIT(t, 2 * (c) + 1) << 1 | \
			DES_BIT(t, 32 + 2 * (c)) << 2 | DES_BIT(t, 33 + 2 * (c)) << 3)
#define DES_TERM(t, c) (cm[c] & g[DES_ROWS(t, c)])
#define DES_OUT(t) (DES_TERM(t, 0) ^ DES_TERM(t, 1) ^ DES_TERM(t, 2) ^ DES_TERM(t, 3) ^ \
		    DES_TERM(t, 4) ^ DES_TERM(t, 5) ^ DES_TERM(t, 6) ^ DES_TERM(t, 7) ^ \
		    DES_TERM(t, 8) ^ DES_TERM(t, 9) ^ DES_TERM(t, 10) ^ DES_TERM(t, 11) ^ \
		    DES_TERM(t, 12) ^ DES_TERM(t, 13) ^ DES_TERM(t, 14) ^ DES_TERM(t, 15))

/* The gates shared by the four outputs of one S-box: the column minterms
 * cm[16] of inputs 1..4 and g[f], the lanes whose row (inputs 0 and 5) is
 * in the set f; g[0] and g[15] are constants, so their terms fold away. */
DES_BS_FN inline void bs_minterms(const DES_BS_WORD x[6], DES_BS_WORD cm[16], DES_BS_WORD g[16])
{
	DES_BS_WORD p[4], q[4], rm[4], zero = { 0 };

	p[0] = ~(x[1] | x[2]); p[1] = ~x[1] & x[2]; p[2] = x[1] & ~x[2]; p[3] = x[1] & x[2];
	q[0] = ~(x[3] | x[4]); q[1] = ~x[3] & x[4]; q[2] = x[3] & ~x[4]; q[3] = x[3] & x[4];
	rm[0] = ~(x[0] | x[5]); rm[1] = ~x[0] & x[5]; rm[2] = x[0] & ~x[5]; rm[3] = x[0] & x[5];
	for (unsigned c = 0; c < 16; c++)
		cm[c] = p[c >> 2] & q[c & 3];
	g[0] = zero;
	g[1] = rm[0]; g[2] = rm[1]; g[3] = rm[0] ^ rm[1];
	g[4] = rm[2]; g[5] = rm[0] ^ rm[2]; g[6] = rm[1] ^ rm[2]; g[7] = g[3] ^ rm[2];
	g[8] = rm[3]; g[9] = rm[0] ^ rm[3]; g[10] = rm[1] ^ rm[3]; g[11] = g[3] ^ rm[3];
	g[12] = rm[2] ^ rm[3]; g[13] = g[5] ^ rm[3]; g[14] = g[6] ^ rm[3];
	g[15] = ~zero;
}

/* S-box j's inputs are R's bits 4j-1 .. 4j+4 (0-based, modulo 32) XOR the
 * key bits, each a mask of all ones or none. */
#define DES_SBOX_BS(j, t0, p0, t1, p1, t2, p2, t3, p3) do { \
	DES_BS_WORD x[6], cm[16], g[16]; \
	for (unsigned b = 0; b < 6; b++) \
		x[b] = r[(4 * (j) + b + 31) & 31] ^ ((uint64_t)0 - ((k >> (47 - 6 * (j) - b)) & 1)); \
	bs_minterms(x, cm, g); \
	l[31 - (p0)] ^= DES_OUT(t0); \
	l[31 - (p1)] ^= DES_OUT(t1); \
	l[31 - (p2)] ^= DES_OUT(t2); \
	l[31 - (p3)] ^= DES_OUT(t3); \
} while (0);

/* l ^= f(r, k) on every lane. */
DES_BS_FN void bs_round(DES_BS_WORD l[32], const DES_BS_WORD r[32], uint64_t k)
{
	DES_SBOXES(DES_SBOX_BS)
}

/* Up to DES_BS_LANES blocks through nkeys DES passes, as the one-block path
 * does for one: each group of 64 blocks is transposed into one 64-bit part
 * of the lane words. */
DES_BS_FN void des_bs(const uint64_t (*rk)[16], unsigned nkeys, int dec, uint8_t *dst, const uint8_t *src, size_t n)
{
	DES_BS_WORD w[64], h[2][32];
	DES_BS_WORD *l = h[0], *r = h[1], *t;
	uint64_t a[64];

	for (size_t q = 0; q < DES_BS_LANES / 64; q++) {
		for (size_t i = 0; i < 64; i++)
			a[i] = 64 * q + i < n ? bc_load_be64(src + 8 * (64 * q + i)) : 0;
		transpose64(a);
		for (size_t i = 0; i < 64; i++)
			DES_BS_SET(w[i], q, a[i]);
	}
	for (unsigned i = 0; i < 32; i++) {
		l[i] = w[des_ip[i] - 1];
		r[i] = w[des_ip[32 + i] - 1];
	}
	for (unsigned s = 0; s < nkeys; s++) {
		const uint64_t *k = rk[dec ? nkeys - 1 - s : s];
		int back = dec ^ (s == 1);

		for (unsigned i = 0; i < 16; i += 2) {
			bs_round(l, r, k[back ? 15 - i : i]);
			bs_round(r, l, k[back ? 14 - i : i + 1]);
		}
		t = l;
		l = r;
		r = t;
	}
	for (unsigned i = 0; i < 64; i++) {
		unsigned q = des_fp[i] - 1;

		w[i] = q < 32 ? l[q] : r[q - 32];
	}
	for (size_t q = 0; q < DES_BS_LANES / 64 && 64 * q < n; q++) {
		for (size_t i = 0; i < 64; i++)
			a[i] = DES_BS_GET(w[i], q);
		transpose64(a);
		for (size_t i = 0; i < 64 && 64 * q + i < n; i++)
			bc_store_be64(dst + 8 * (64 * q + i), a[i]);
	}
	bc_wipe(w, sizeof(w));
	bc_wipe(h, sizeof(h));
	bc_wipe(a, sizeof(a));
}
#endif

#endif
