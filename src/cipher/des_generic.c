/* DES and Triple DES (EDE), portable constant-time C (drivers "des-generic", "des3_ede-generic").
 * Specification: FIPS 46-3 (DES), NIST SP 800-67 Rev. 2 (TDEA); key checks as the Linux kernel's. */

#include "drivers.h"

/* ---- Tables of public positions only --------------------------------------------
 * Bits are numbered as in FIPS 46-3: bit 1 is the most significant bit of the
 * first byte. Every table below is indexed by a loop counter, never by data. */
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
static const uint8_t des_pc1[56] = {
	57, 49, 41, 33, 25, 17, 9, 1, 58, 50, 42, 34, 26, 18,
	10, 2, 59, 51, 43, 35, 27, 19, 11, 3, 60, 52, 44, 36,
	63, 55, 47, 39, 31, 23, 15, 7, 62, 54, 46, 38, 30, 22,
	14, 6, 61, 53, 45, 37, 29, 21, 13, 5, 28, 20, 12, 4,
};
static const uint8_t des_pc2[48] = {
	14, 17, 11, 24, 1, 5, 3, 28, 15, 6, 21, 10,
	23, 19, 12, 4, 26, 8, 16, 7, 27, 20, 13, 2,
	41, 52, 31, 37, 47, 55, 30, 40, 51, 45, 33, 48,
	44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32,
};
static const uint8_t des_shifts[16] = { 1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1 };

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

/* Round keys: S-box j's 6 key bits at bits 47-6j .. 42-6j of rk[pass][round]. */
struct des_ctx {
	uint64_t rk[1][16];
};
struct des3_ctx {
	uint64_t rk[3][16];
};

/* out = the n bits of `in` (inbits wide) that tab names, first entry the most
 * significant: IP, FP, PC-1 and PC-2. Shifts and masks only. */
static uint64_t permute(uint64_t in, const uint8_t *tab, unsigned n, unsigned inbits)
{
	uint64_t out = 0;

	for (unsigned i = 0; i < n; i++)
		out = out << 1 | ((in >> (inbits - tab[i])) & 1);
	return out;
}

static void des_key_schedule(uint64_t rk[16], const uint8_t key[8], uint32_t *c0, uint32_t *d0)
{
	uint64_t cd = permute(bc_load_be64(key), des_pc1, 56, 64);
	uint32_t c = (uint32_t)(cd >> 28), d = (uint32_t)cd & 0x0fffffff;

	*c0 = c;
	*d0 = d;
	for (unsigned r = 0; r < 16; r++) {
		unsigned s = des_shifts[r];

		c = ((c << s) | (c >> (28 - s))) & 0x0fffffff;
		d = ((d << s) | (d >> (28 - s))) & 0x0fffffff;
		rk[r] = permute((uint64_t)c << 28 | d, des_pc2, 48, 56);
	}
	bc_wipe(&cd, sizeof(cd));
	bc_wipe(&c, sizeof(c));
	bc_wipe(&d, sizeof(d));
}

/* All ones when v is 0 or 0x0fffffff, else 0, with no branch. */
static uint32_t ct_all_or_none28(uint32_t v)
{
	uint32_t a = v, b = v ^ 0x0fffffff;

	/* (x - 1) >> 31 is 1 exactly for x == 0 (x < 2^28) */
	return (uint32_t)0 - (((a - 1) >> 31) | ((b - 1) >> 31));
}

/* The kernel's des_ekey verdict: a key is weak when PC-1 leaves both
 * 28-bit halves constant (all zeros or all ones), the four weak keys of
 * FIPS 74 with any parity bits; the semi-weak keys pass. Computed on every
 * key bit without a branch; the verdict becomes public only through
 * bc_memneq, the comparison every key and tag check shares. */
static int des_weak_key(const uint8_t *key, size_t keylen)
{
	static const uint32_t none;
	uint64_t rk[16];
	uint32_t c, d, w;
	int weak;

	if (keylen != 8)
		return 0;
	des_key_schedule(rk, key, &c, &d);
	w = ct_all_or_none28(c) & ct_all_or_none28(d);
	weak = bc_memneq(&w, &none, sizeof(w));
	bc_wipe(rk, sizeof(rk));
	bc_wipe(&c, sizeof(c));
	bc_wipe(&d, sizeof(d));
	bc_wipe(&w, sizeof(w));
	return weak;
}

/* RFC 2451 / the kernel's des3_ede_verify_key: K1 == K2 or K2 == K3 makes
 * the EDE one single DES, refused when weak keys are forbidden. bc_memneq
 * reads every byte whatever they hold. */
static int des3_weak_key(const uint8_t *key, size_t keylen)
{
	if (keylen != 24)
		return 0;
	return !bc_memneq(key, key + 8, 8) | !bc_memneq(key + 8, key + 16, 8);
}

static int des_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct des_ctx *x = ctx;
	uint32_t c, d;

	if (keylen != 8)
		return -EINVAL;
	des_key_schedule(x->rk[0], key, &c, &d);
	bc_wipe(&c, sizeof(c));
	bc_wipe(&d, sizeof(d));
	return 0;
}

static int des3_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct des3_ctx *x = ctx;
	uint32_t c, d;

	if (keylen != 24)
		return -EINVAL;
	for (int i = 0; i < 3; i++)
		des_key_schedule(x->rk[i], key + 8 * i, &c, &d);
	bc_wipe(&c, sizeof(c));
	bc_wipe(&d, sizeof(d));
	return 0;
}

/* ---- One block at a time: the S-boxes read out of registers ----------------------
 * Bit idx of a 64-bit constant, idx secret: a rotation by a register, which
 * takes the same time whatever the count on every CPU this library runs on.
 * The constant is the truth table rotated left by the bit's place, so one
 * rotation right by idx brings the wanted bit to that place. A 32-bit
 * target would make a 64-bit rotation a branch on bit 5 of the count, so
 * there the half is chosen with a mask instead. */
#define DES_ROTL64C(t, p) ((p) ? (uint64_t)(t) << (p) | (uint64_t)(t) >> (64 - (p)) : (uint64_t)(t))
/* The bit lands at pos + 32 and f is taken from the upper half: a result
 * confined to the lower half lets the compiler narrow the rotation into two
 * shifts. */
static inline uint64_t bit_to(uint64_t t, uint32_t idx, unsigned pos)
{
#if UINTPTR_MAX > 0xffffffffu
	unsigned n = idx & 63;

	return ((t >> n) | (t << (-n & 63))) & ((uint64_t)1 << (pos + 32));
#else
	/* t rotated right by idx, upper 32 bits only: idx's bit 5 picks the halves */
	uint32_t hi = (uint32_t)0 - (idx >> 5), s = idx & 31;
	uint32_t a = ((uint32_t)(t >> 32) & ~hi) | ((uint32_t)t & hi);
	uint32_t b = ((uint32_t)t & ~hi) | ((uint32_t)(t >> 32) & hi);
	uint32_t w = (a >> s) | ((b << ((32 - s) & 31)) & ((uint32_t)0 - (uint32_t)(s != 0)));

	return (uint64_t)(w & ((uint32_t)1 << pos)) << 32;
#endif
}

static inline uint32_t rotl32(uint32_t v, unsigned s)
{
	return (v << (s & 31)) | (v >> ((32 - s) & 31));
}

/* f(R, K) = P(S(E(R) ^ K)): S-box j's input is R's bits 4j .. 4j+5 (bit 0
 * meaning bit 32), the top six bits of R rotated left by 4j - 1. */
#define DES_SBOX_F(j, t0, p0, t1, p1, t2, p2, t3, p3) { \
	uint32_t idx = ((rotl32(r, (4 * (j) + 31) & 31) >> 26) ^ (uint32_t)(k >> (42 - 6 * (j)))) & 63; \
	out |= bit_to(DES_ROTL64C(t0, p0 + 32), idx, p0) | bit_to(DES_ROTL64C(t1, p1 + 32), idx, p1) | \
	       bit_to(DES_ROTL64C(t2, p2 + 32), idx, p2) | bit_to(DES_ROTL64C(t3, p3 + 32), idx, p3); \
}
static inline uint32_t des_f(uint32_t r, uint64_t k)
{
	uint64_t out = 0;

	DES_SBOXES(DES_SBOX_F)
	return (uint32_t)(out >> 32);
}

/* nkeys (1 or 3) DES passes over one block; the EDE middle pass runs the
 * other way. IP and FP between passes cancel, so they are done once. */
static void des_one(const uint64_t (*rk)[16], unsigned nkeys, int dec, uint8_t *dst, const uint8_t *src)
{
	uint64_t x = permute(bc_load_be64(src), des_ip, 64, 64);
	uint32_t l = (uint32_t)(x >> 32), r = (uint32_t)x, t;

	for (unsigned s = 0; s < nkeys; s++) {
		const uint64_t *k = rk[dec ? nkeys - 1 - s : s];
		int back = dec ^ (s == 1);

		for (unsigned i = 0; i < 16; i++) {
			t = l ^ des_f(r, k[back ? 15 - i : i]);
			l = r;
			r = t;
		}
		t = l;
		l = r;
		r = t;
	}
	x = permute((uint64_t)l << 32 | r, des_fp, 64, 64);
	bc_store_be64(dst, x);
	bc_wipe(&x, sizeof(x));
	bc_wipe(&l, sizeof(l));
	bc_wipe(&r, sizeof(r));
	bc_wipe(&t, sizeof(t));
}

/* ---- 64 blocks at a time, bitsliced ----------------------------------------------
 * Word c holds bit c+1 of every block (block k at bit 63-k), so IP, E, P and
 * FP are only a choice of words, and each S-box is evaluated as gates on
 * 64 blocks at once: the 16 minterms of the middle four input bits, the 4 of
 * the outer two (the row), and each output bit as the XOR over the columns
 * of (column minterm AND the rows where that column's entry has the bit).
 * The row sets are constant expressions of the truth tables, so what is
 * left is about 170 AND/XOR/NOT per S-box. */
#define DES_BS_MIN 17   /* from this many blocks on, 64 lanes beat one block at a time (measured) */

/* The 64 x 64 bit transpose (its own inverse): row k's bit 63-c becomes row
 * c's bit 63-k, by swapping ever smaller blocks of the matrix. */
static void transpose64(uint64_t a[64])
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
static inline void bs_minterms(const uint64_t x[6], uint64_t cm[16], uint64_t g[16])
{
	uint64_t p[4], q[4], rm[4];

	p[0] = ~(x[1] | x[2]); p[1] = ~x[1] & x[2]; p[2] = x[1] & ~x[2]; p[3] = x[1] & x[2];
	q[0] = ~(x[3] | x[4]); q[1] = ~x[3] & x[4]; q[2] = x[3] & ~x[4]; q[3] = x[3] & x[4];
	rm[0] = ~(x[0] | x[5]); rm[1] = ~x[0] & x[5]; rm[2] = x[0] & ~x[5]; rm[3] = x[0] & x[5];
	for (unsigned c = 0; c < 16; c++)
		cm[c] = p[c >> 2] & q[c & 3];
	g[0] = 0;
	g[1] = rm[0]; g[2] = rm[1]; g[3] = rm[0] ^ rm[1];
	g[4] = rm[2]; g[5] = rm[0] ^ rm[2]; g[6] = rm[1] ^ rm[2]; g[7] = g[3] ^ rm[2];
	g[8] = rm[3]; g[9] = rm[0] ^ rm[3]; g[10] = rm[1] ^ rm[3]; g[11] = g[3] ^ rm[3];
	g[12] = rm[2] ^ rm[3]; g[13] = g[5] ^ rm[3]; g[14] = g[6] ^ rm[3];
	g[15] = ~(uint64_t)0;
}

/* S-box j's inputs are R's bits 4j-1 .. 4j+4 (0-based, modulo 32) XOR the
 * key bits, each a mask of all ones or none. */
#define DES_SBOX_BS(j, t0, p0, t1, p1, t2, p2, t3, p3) do { \
	uint64_t x[6], cm[16], g[16]; \
	for (unsigned b = 0; b < 6; b++) \
		x[b] = r[(4 * (j) + b + 31) & 31] ^ ((uint64_t)0 - ((k >> (47 - 6 * (j) - b)) & 1)); \
	bs_minterms(x, cm, g); \
	l[31 - (p0)] ^= DES_OUT(t0); \
	l[31 - (p1)] ^= DES_OUT(t1); \
	l[31 - (p2)] ^= DES_OUT(t2); \
	l[31 - (p3)] ^= DES_OUT(t3); \
} while (0);

/* l ^= f(r, k) on 64 blocks. */
static void bs_round(uint64_t l[32], const uint64_t r[32], uint64_t k)
{
	DES_SBOXES(DES_SBOX_BS)
}

/* Up to 64 blocks through nkeys DES passes, as des_one does for one. */
static void des_bs(const uint64_t (*rk)[16], unsigned nkeys, int dec, uint8_t *dst, const uint8_t *src, size_t n)
{
	uint64_t w[64], h[2][32];
	uint64_t *l = h[0], *r = h[1], *t;

	for (size_t i = 0; i < 64; i++)
		w[i] = i < n ? bc_load_be64(src + 8 * i) : 0;
	transpose64(w);
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
	transpose64(w);
	for (size_t i = 0; i < n; i++)
		bc_store_be64(dst + 8 * i, w[i]);
	bc_wipe(w, sizeof(w));
	bc_wipe(h, sizeof(h));
}

static void des_crypt(const uint64_t (*rk)[16], unsigned nkeys, int dec, uint8_t *dst, const uint8_t *src,
		      size_t nblocks)
{
	while (nblocks >= DES_BS_MIN) {
		size_t n = nblocks < 64 ? nblocks : 64;

		des_bs(rk, nkeys, dec, dst, src, n);
		src += 8 * n;
		dst += 8 * n;
		nblocks -= n;
	}
	for (; nblocks; nblocks--, src += 8, dst += 8)
		des_one(rk, nkeys, dec, dst, src);
}

static void des_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	des_crypt(((const struct des_ctx *)ctx)->rk, 1, 0, dst, src, nblocks);
}

static void des_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	des_crypt(((const struct des_ctx *)ctx)->rk, 1, 1, dst, src, nblocks);
}

static void des3_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	des_crypt(((const struct des3_ctx *)ctx)->rk, 3, 0, dst, src, nblocks);
}

static void des3_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	des_crypt(((const struct des3_ctx *)ctx)->rk, 3, 1, dst, src, nblocks);
}

/* The CBC-MAC chain over 8-byte blocks (st[0..7]): serial by nature. */
static void des_chain(const uint64_t (*rk)[16], unsigned nkeys, uint8_t st[16], const uint8_t *src,
		      size_t nblocks)
{
	for (; nblocks; nblocks--, src += 8) {
		bc_xor(st, st, src, 8);
		des_one(rk, nkeys, 0, st, st);
	}
}

static void des_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	des_chain(((const struct des_ctx *)ctx)->rk, 1, st, src, nblocks);
}

static void des3_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	des_chain(((const struct des3_ctx *)ctx)->rk, 3, st, src, nblocks);
}

const struct bc_cipher_alg bc_des_generic = {
	.name = "des",
	.driver = "des-generic",
	.priority = 100,
	.cpu = 0,
	.blocksize = 8,
	.min_keysize = 8,
	.max_keysize = 8,
	.ctxsize = sizeof(struct des_ctx),
	.setkey = des_setkey,
	.weak_key = des_weak_key,
	.encrypt = des_encrypt,
	.decrypt = des_decrypt,
	.mac = des_mac,
};

const struct bc_cipher_alg bc_des3_ede_generic = {
	.name = "des3_ede",
	.driver = "des3_ede-generic",
	.priority = 100,
	.cpu = 0,
	.blocksize = 8,
	.min_keysize = 24,
	.max_keysize = 24,
	.ctxsize = sizeof(struct des3_ctx),
	.setkey = des3_setkey,
	.weak_key = des3_weak_key,
	.encrypt = des3_encrypt,
	.decrypt = des3_decrypt,
	.mac = des3_mac,
};
