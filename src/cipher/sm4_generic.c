/* SM4 block cipher, portable constant-time bitsliced C (driver "sm4-generic").
 * Specification: GB/T 32907-2016 (also draft-ribose-cfrg-sm4, ISO/IEC 18033-3:2010/Amd 1:2021). */

#include "drivers.h"
#include "gf256_tower.h"

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
 *  4. The tower and its inversion circuit are gf256_tower.h's, shared with Camellia. */
#define SM4_A1 0x26, 0x72, 0xa4, 0x18, 0x57, 0x40, 0x84, 0x7f
#define SM4_K  0x75757575u   /* k = A1^-1 * c1 = A^-1 * C = 0x75 in every byte (c1 = 0xea) */
#define SM4_A2 0x55, 0x41, 0x76, 0xd1, 0x8a, 0x2a, 0x03, 0x2f
#define SM4_C2 0xd3

/* The S-box on 64 bytes at once: plane v[j] holds bit j of each byte. */
static inline void sm4_sbox(uint64_t v[8])
{
	uint64_t t[8], o[8];

	BC_GF_AFFINE(t, v, 0, SM4_A1);
	bc_gf256_tower_inv(o, t);
	BC_GF_AFFINE(v, o, SM4_C2, SM4_A2);
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
		bc_gf_transpose8(x[w]);
	}
}

/* The output block is (X35, X34, X33, X32), the state words in reverse order. */
static void sm4_store(uint8_t *dst, uint64_t x[4][8], size_t n)
{
	for (int w = 0; w < 4; w++) {
		uint64_t *v = x[3 - w];
		bc_gf_transpose8(v);
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
