/* SM4 block cipher, portable constant-time bitsliced C (driver "sm4-generic").
 * Specification: GB/T 32907-2016 (also draft-ribose-cfrg-sm4, ISO/IEC 18033-3:2010/Amd 1:2021). */

#include "drivers.h"

/* ---- The S-box as a Boolean circuit ---------------------------------------------
 * No table: a secret byte must never pick a memory address. Instead the S-box
 * is written as an affine map of an inversion in GF(2^8),
 *     S(x) = A2 * inv(A1 * x + c1) + c2 = A2 * inv(A1 * (x + k)) + c2,
 * with the inversion done in a tower field GF(((2^2)^2)^2), where it is a short
 * circuit of ANDs and XORs on whole 64-bit words, one byte per bit position.
 * The circuit below starts at A1: the input constant k = A1^-1 * c1 is added
 * to every byte of the round keys (and of CK in the key schedule) instead.
 *
 * How the constants were obtained (a Python script, checked over all 256 inputs
 * against the standard's table, which is not kept here):
 *  1. Searching every circulant 8x8 matrix A and constant C for
 *     S(x) = A * inv_P(A * x + C) + C, with inv_P the inversion modulo the SM4
 *     field polynomial P = x^8+x^7+x^6+x^5+x^4+x^2+1 (0x1f5), gives exactly one
 *     solution: A has row i = rotl8(0xa7, i) (row i: which input bits make output
 *     bit i, bit 0 = least significant) and C = 0xd3.
 *  2. The tower field: GF(4) = GF(2)[w]/(w^2+w+1); GF(16) = GF(4)[z]/(z^2+z+w);
 *     GF(256) = GF(16)[y]/(y^2+y+M). A byte of it is a1*y + a0 (a1 = high nibble),
 *     a nibble b1*z + b0 (b1 = high bit pair), a pair c1*w + c0 (c1 = high bit).
 *  3. For each M in GF(16) with y^2+y+M irreducible and each root beta of P in the
 *     tower field, the isomorphism Phi (x^i -> beta^i) gives A1 = Phi * A,
 *     c1 = Phi * C, A2 = A * Phi^-1, c2 = C. Of the 64 candidates, M = 9 (w*z + 1),
 *     beta = 0x8b needs the fewest XORs in A1 and A2 (39).
 *  4. Q maps the tower byte a1*y + a0 to M*a1^2 + a0^2, the linear part of the
 *     norm a1^2*M + a1*a0 + a0^2 that the inversion needs. */
#define SM4_A1 0x26, 0x72, 0xa4, 0x18, 0x57, 0x40, 0x84, 0x7f
#define SM4_K  0x75757575u   /* k = A1^-1 * c1 = A^-1 * C = 0x75 in every byte (c1 = 0xea) */
#define SM4_A2 0x55, 0x41, 0x76, 0xd1, 0x8a, 0x2a, 0x03, 0x2f
#define SM4_C2 0xd3
#define SM4_Q0 0xfb
#define SM4_Q1 0xa6
#define SM4_Q2 0x2c
#define SM4_Q3 0x18

/* Bit `j` of the constant row `m` selects plane v[j]; with m a literal the masks
 * fold away and only the XORs remain. */
#define SM4_SEL(m, j, v) ((UINT64_C(0) - (((m) >> (j)) & 1u)) & (v)[j])
#define SM4_LIN(m, v) (SM4_SEL(m, 0, v) ^ SM4_SEL(m, 1, v) ^ SM4_SEL(m, 2, v) ^ SM4_SEL(m, 3, v) ^ \
                       SM4_SEL(m, 4, v) ^ SM4_SEL(m, 5, v) ^ SM4_SEL(m, 6, v) ^ SM4_SEL(m, 7, v))
#define SM4_BIT(c, i) (UINT64_C(0) - (((c) >> (i)) & 1u))
/* out = M * in + c for the 8x8 matrix with rows m0..m7; written out in full so
 * that every row is a literal (the extra level expands SM4_A1 into its rows). */
#define SM4_AFFINE(...) SM4_AFFINE_(__VA_ARGS__)
#define SM4_AFFINE_(out, in, c, m0, m1, m2, m3, m4, m5, m6, m7) do { \
	out[0] = SM4_LIN(m0, in) ^ SM4_BIT(c, 0); out[1] = SM4_LIN(m1, in) ^ SM4_BIT(c, 1); \
	out[2] = SM4_LIN(m2, in) ^ SM4_BIT(c, 2); out[3] = SM4_LIN(m3, in) ^ SM4_BIT(c, 3); \
	out[4] = SM4_LIN(m4, in) ^ SM4_BIT(c, 4); out[5] = SM4_LIN(m5, in) ^ SM4_BIT(c, 5); \
	out[6] = SM4_LIN(m6, in) ^ SM4_BIT(c, 6); out[7] = SM4_LIN(m7, in) ^ SM4_BIT(c, 7); \
} while (0)

struct gf4 { uint64_t h, l; };        /* h*w + l */
struct gf16 { struct gf4 h, l; };     /* h*z + l */

static inline struct gf4 gf4_add(struct gf4 a, struct gf4 b)
{
	return (struct gf4){ a.h ^ b.h, a.l ^ b.l };
}

/* Karatsuba: three ANDs; w^2 = w + 1. */
static inline struct gf4 gf4_mul(struct gf4 a, struct gf4 b)
{
	uint64_t t = (a.h ^ a.l) & (b.h ^ b.l), hh = a.h & b.h, ll = a.l & b.l;
	return (struct gf4){ t ^ ll, hh ^ ll };
}

/* Squaring is linear in GF(4), and since a^3 = 1 it is also the inverse. */
static inline struct gf4 gf4_sq(struct gf4 a)
{
	return (struct gf4){ a.h, a.h ^ a.l };
}

static inline struct gf4 gf4_mulw(struct gf4 a)
{
	return (struct gf4){ a.h ^ a.l, a.h };
}

static inline struct gf16 gf16_add(struct gf16 a, struct gf16 b)
{
	return (struct gf16){ gf4_add(a.h, b.h), gf4_add(a.l, b.l) };
}

/* z^2 = z + w */
static inline struct gf16 gf16_mul(struct gf16 a, struct gf16 b)
{
	struct gf4 hh = gf4_mul(a.h, b.h), ll = gf4_mul(a.l, b.l);
	struct gf4 t = gf4_mul(gf4_add(a.h, a.l), gf4_add(b.h, b.l));
	return (struct gf16){ gf4_add(t, ll), gf4_add(gf4_mulw(hh), ll) };
}

/* (b1 z + b0)^-1 = (b1 z + b0 + b1) / N with the norm N = b1^2 w + b1 b0 + b0^2. */
static inline struct gf16 gf16_inv(struct gf16 b)
{
	struct gf4 n = gf4_add(gf4_add(gf4_mulw(gf4_sq(b.h)), gf4_mul(b.h, b.l)), gf4_sq(b.l));
	struct gf4 ni = gf4_sq(n);
	return (struct gf16){ gf4_mul(ni, b.h), gf4_mul(ni, gf4_add(b.l, b.h)) };
}

/* The S-box on 64 bytes at once: plane v[j] holds bit j of each byte. */
static inline void sm4_sbox(uint64_t v[8])
{
	uint64_t t[8], o[8];

	SM4_AFFINE(t, v, 0, SM4_A1);

	/* (a1 y + a0)^-1 = (a1 y + a0 + a1) / (a1^2 M + a1 a0 + a0^2) */
	struct gf16 hi = { { t[7], t[6] }, { t[5], t[4] } }, lo = { { t[3], t[2] }, { t[1], t[0] } };
	struct gf16 q = { { SM4_LIN(SM4_Q3, t), SM4_LIN(SM4_Q2, t) }, { SM4_LIN(SM4_Q1, t), SM4_LIN(SM4_Q0, t) } };
	struct gf16 norm = gf16_add(q, gf16_mul(hi, lo));
	struct gf16 ni = gf16_inv(norm);
	struct gf16 oh = gf16_mul(ni, hi), ol = gf16_mul(ni, gf16_add(hi, lo));
	o[7] = oh.h.h; o[6] = oh.h.l; o[5] = oh.l.h; o[4] = oh.l.l;
	o[3] = ol.h.h; o[2] = ol.h.l; o[1] = ol.l.h; o[0] = ol.l.l;

	SM4_AFFINE(v, o, SM4_C2, SM4_A2);
}

/* ---- Bitsliced layout -------------------------------------------------------------
 * A 32-bit SM4 word of up to 16 blocks is 8 planes: plane j, bit 16*k + n is bit j
 * of byte k (k = 0 the most significant) of the word in block n. Rotating the
 * word left by 8 then rotates every plane right by 16, and a rotation by 8m + s
 * moves plane j - s to plane j, shifting one more byte where the bits wrap. */
static inline uint64_t rotr64(uint64_t x, unsigned n)
{
	return x >> n | x << (64 - n);
}

/* L(B) = B ^ B<<<2 ^ B<<<10 ^ B<<<18 ^ B<<<24 = (B ^ B<<<24) ^ (C <<< 2),
 * with C = B ^ B<<<8 ^ B<<<16, and B ^ B<<<24 = (B ^ B<<<8) <<< 24. */
static inline void sm4_l(uint64_t out[8], const uint64_t b[8])
{
	uint64_t y[8], c[8];

	for (int j = 0; j < 8; j++) {
		y[j] = b[j] ^ rotr64(b[j], 16);
		c[j] = y[j] ^ rotr64(b[j], 32);
	}
	out[0] = rotr64(y[0], 48) ^ rotr64(c[6], 16);
	out[1] = rotr64(y[1], 48) ^ rotr64(c[7], 16);
	for (int j = 2; j < 8; j++)
		out[j] = rotr64(y[j], 48) ^ c[j - 2];
}

/* a ^= T(b ^ c ^ d ^ rk) */
static inline void sm4_round(uint64_t a[8], const uint64_t b[8], const uint64_t c[8],
                             const uint64_t d[8], const uint64_t rk[8])
{
	uint64_t t[8], l[8];

	for (int j = 0; j < 8; j++)
		t[j] = b[j] ^ c[j] ^ d[j] ^ rk[j];
	sm4_sbox(t);
	sm4_l(l, t);
	for (int j = 0; j < 8; j++)
		a[j] ^= l[j];
}

/* Bytes 0..3 of v to bytes 0, 2, 4, 6 of the result. */
static inline uint64_t spread32(uint32_t v)
{
	uint64_t x = v;
	x = (x | x << 16) & UINT64_C(0x0000ffff0000ffff);
	return (x | x << 8) & UINT64_C(0x00ff00ff00ff00ff);
}

static inline uint32_t squeeze32(uint64_t x)
{
	x &= UINT64_C(0x00ff00ff00ff00ff);
	x = (x | x >> 8) & UINT64_C(0x0000ffff0000ffff);
	return (uint32_t)(x | x >> 16);
}

#define SM4_SWAP(a, b, m, s) do { uint64_t t_ = ((a) >> (s) ^ (b)) & (m); (b) ^= t_; (a) ^= t_ << (s); } while (0)

/* Transposes the 8x8 bit matrix in every byte column of v[0..7]: afterwards
 * v[j] bit 8t + i is what was bit j of byte t of v[i]. Its own inverse. */
static inline void transpose8(uint64_t v[8])
{
	for (int i = 0; i < 8; i += 2)
		SM4_SWAP(v[i], v[i + 1], UINT64_C(0x5555555555555555), 1);
	for (int i = 0; i < 8; i += 4) {
		SM4_SWAP(v[i], v[i + 2], UINT64_C(0x3333333333333333), 2);
		SM4_SWAP(v[i + 1], v[i + 3], UINT64_C(0x3333333333333333), 2);
	}
	for (int i = 0; i < 4; i++)
		SM4_SWAP(v[i], v[i + 4], UINT64_C(0x0f0f0f0f0f0f0f0f), 4);
}

#define SM4_MAX_BLOCKS 16

struct sm4_ctx {
	uint64_t rk[32][8];   /* round keys + SM4_K, each bit broadcast over its 16-bit lane */
};

/* Word w of blocks i and i + 8 interleaved byte by byte, so that after transpose8
 * byte t of the 8 words lands at lane t/2, block i + 8*(t&1) (see the layout). */
static void sm4_load(uint64_t x[4][8], const uint8_t *src, size_t n)
{
	for (int w = 0; w < 4; w++) {
		for (size_t i = 0; i < 8; i++) {
			uint64_t lo = i < n ? spread32(bc_load_le32(src + 16 * i + 4 * w)) : 0;
			uint64_t hi = i + 8 < n ? spread32(bc_load_le32(src + 16 * (i + 8) + 4 * w)) : 0;
			x[w][i] = lo | hi << 8;
		}
		transpose8(x[w]);
	}
}

/* The output block is (X35, X34, X33, X32), the state words in reverse order. */
static void sm4_store(uint8_t *dst, uint64_t x[4][8], size_t n)
{
	for (int w = 0; w < 4; w++) {
		uint64_t *v = x[3 - w];
		transpose8(v);
		for (size_t i = 0; i < 8 && i < n; i++) {
			bc_store_le32(dst + 16 * i + 4 * w, squeeze32(v[i]));
			if (i + 8 < n)
				bc_store_le32(dst + 16 * (i + 8) + 4 * w, squeeze32(v[i] >> 8));
		}
	}
}

/* n (1..16) blocks through the 32 rounds; rk steps by `step` round keys (+1 to
 * encrypt, -1 to decrypt). x is the caller's scratch, to be wiped by it. */
static void sm4_pass(const uint64_t (*rk)[8], ptrdiff_t step, uint8_t *dst, const uint8_t *src,
                     size_t n, uint64_t x[4][8])
{
	sm4_load(x, src, n);
	for (ptrdiff_t r = 0; r < 32; r++)
		sm4_round(x[r & 3], x[(r + 1) & 3], x[(r + 2) & 3], x[(r + 3) & 3], rk[r * step]);
	sm4_store(dst, x, n);
}

static void sm4_crypt(const uint64_t (*rk)[8], ptrdiff_t step, uint8_t *dst, const uint8_t *src,
                      size_t nblocks)
{
	uint64_t x[4][8];

	while (nblocks) {
		size_t n = nblocks < SM4_MAX_BLOCKS ? nblocks : SM4_MAX_BLOCKS;
		sm4_pass(rk, step, dst, src, n, x);
		src += 16 * n;
		dst += 16 * n;
		nblocks -= n;
	}
	bc_wipe(x, sizeof(x));
}

static void sm4_encrypt(const void *vctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	const struct sm4_ctx *ctx = vctx;
	sm4_crypt(ctx->rk, 1, dst, src, nblocks);
}

static void sm4_decrypt(const void *vctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	const struct sm4_ctx *ctx = vctx;
	sm4_crypt(ctx->rk + 31, -1, dst, src, nblocks);
}

static void sm4_mac(const void *vctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	const struct sm4_ctx *ctx = vctx;
	uint64_t x[4][8];
	uint8_t b[16];

	for (size_t i = 0; i < nblocks; i++) {
		bc_xor(b, st, src + 16 * i, 16);
		sm4_pass(ctx->rk, 1, st, b, 1, x);
	}
	bc_wipe(x, sizeof(x));
	bc_wipe(b, sizeof(b));
}

static void sm4_mac_many(const void *vctx, unsigned n, uint8_t (*st)[16], const uint8_t *const src[],
                         size_t nblocks)
{
	const struct sm4_ctx *ctx = vctx;
	uint64_t x[4][8];
	uint8_t b[8][16];

	for (size_t i = 0; i < nblocks; i++) {
		for (unsigned c = 0; c < n; c++)
			bc_xor(b[c], st[c], src[c] + 16 * i, 16);
		sm4_pass(ctx->rk, 1, b[0], b[0], n, x);
		memcpy(st, b, 16 * (size_t)n);
	}
	bc_wipe(x, sizeof(x));
	bc_wipe(b, sizeof(b));
}

/* One word (block 0 only) to planes. */
static void word_planes(uint64_t v[8], uint32_t w)
{
	for (int j = 0; j < 8; j++) {
		v[j] = 0;
		for (int k = 0; k < 4; k++)
			v[j] |= (uint64_t)(w >> (8 * (3 - k) + j) & 1) << 16 * k;
	}
}

/* tau(w + SM4_K), the S-box on the four bytes of one word, for the key schedule. */
static uint32_t sm4_tau(uint32_t w)
{
	uint64_t v[8];
	uint32_t r = 0;

	word_planes(v, w);
	sm4_sbox(v);
	for (int j = 0; j < 8; j++)
		for (int k = 0; k < 4; k++)
			r |= (uint32_t)(v[j] >> 16 * k & 1) << (8 * (3 - k) + j);
	bc_wipe(v, sizeof(v));
	return r;
}

static inline uint32_t rotl32(uint32_t x, unsigned n)
{
	return x << n | x >> (32 - n);
}

static int sm4_setkey(void *vctx, const uint8_t *key, size_t keylen)
{
	static const uint32_t fk[4] = { 0xa3b1bac6, 0x56aa3350, 0x677d9197, 0xb27022dc };
	struct sm4_ctx *ctx = vctx;
	uint32_t k[4], t;
	uint64_t p[8];

	if (keylen != 16)
		return -EINVAL;
	for (int i = 0; i < 4; i++)
		k[i] = bc_load_be32(key + 4 * i) ^ fk[i];
	for (unsigned i = 0; i < 32; i++) {
		/* CK_i byte j = (4i + j) * 7 mod 256 */
		uint32_t ck = 0;
		for (unsigned j = 0; j < 4; j++)
			ck = ck << 8 | (((4 * i + j) * 7) & 0xff);
		/* K_{i+4} = K_i ^ T'(K_{i+1} ^ K_{i+2} ^ K_{i+3} ^ CK_i), T' = L'(tau(.));
		 * k[] is indexed by the round number, and tau is the S-box circuit */
		t = sm4_tau(k[(i + 1) & 3] ^ k[(i + 2) & 3] ^ k[(i + 3) & 3] ^ ck ^ SM4_K);
		k[i & 3] ^= t ^ rotl32(t, 13) ^ rotl32(t, 23);
		word_planes(p, k[i & 3] ^ SM4_K);
		for (int j = 0; j < 8; j++)
			ctx->rk[i][j] = (p[j] << 16) - p[j];   /* each lane's bit 0 over its 16 bits */
	}
	bc_wipe(k, sizeof(k));
	bc_wipe(&t, sizeof(t));
	bc_wipe(p, sizeof(p));
	return 0;
}

const struct bc_cipher_alg bc_sm4_generic = {
	.name = "sm4",
	.driver = "sm4-generic",
	.priority = 100,
	.cpu = 0,
	.min_keysize = 16,
	.max_keysize = 16,
	.ctxsize = sizeof(struct sm4_ctx),
	.setkey = sm4_setkey,
	.encrypt = sm4_encrypt,
	.decrypt = sm4_decrypt,
	.mac = sm4_mac,
	.mac_many = sm4_mac_many,
};
