/* Camellia block cipher, portable constant-time bitsliced C (driver "camellia-generic").
 * Specification: RFC 3713 (Camellia; also ISO/IEC 18033-3:2010, NESSIE, CRYPTREC). */

#include "camellia.h"
#include "gf256_tower.h"

/* ---- The S-boxes as a Boolean circuit ---------------------------------------------
 * No table: a secret byte must never pick a memory address, in the rounds or
 * in the key schedule. s1 is affine-equivalent to the inversion in GF(2^8):
 *     s1(x) = B * inv(A * (x + 0xc5)) + 0x6e
 * with inv the inversion modulo the AES polynomial x^8+x^4+x^3+x+1 and A, B
 * invertible 8x8 bit matrices, and the others are rotations of it:
 * s2(x) = s1(x) <<< 1, s3(x) = s1(x) >>> 1, s4(x) = s1(x <<< 1) (RFC 3713 2.4.4).
 * How the constants were obtained (a Python script, checked over all 256
 * inputs against the RFC's SBOX1 table, which is not kept here):
 *  1. 0xc5 and 0x6e are the specification's own constants around the
 *     inversion; with them, A and B follow from the linear-equivalence
 *     algorithm (Biryukov, De Canniere, Braeken, Preneel, EUROCRYPT 2003):
 *     guess A on two inputs, propagate B(T(x)) = inv(A(x)) through the
 *     linear spans, where T(x) = s1(x + 0xc5) + 0x6e, until both are whole.
 *     A has columns (images of bit 0..7) 01 19 b1 ab a7 93 61 d9, B^-1
 *     has columns f1 bb 8e 09 fa d7 21 e1 (the x86 drivers use the same A, B).
 *  2. The inversion runs in gf256_tower.h's tower field: for each root beta of
 *     the AES polynomial there, Phi (x^i -> beta^i) gives A1 = Phi * A,
 *     c1 = Phi * A * 0xc5, A2 = B * Phi^-1, c2 = 0x6e; beta = 0x5c needs the
 *     fewest XORs (45). Rows: row i says which input bits make output bit i. */
#define CAM_A1 0x9f, 0x26, 0x22, 0xf4, 0x42, 0x7a, 0x78, 0xe0
#define CAM_C1 0x7b
#define CAM_A2 0x6f, 0x0a, 0xac, 0x06, 0x91, 0xf5, 0x03, 0xbd
#define CAM_C2 0x6e

/* ---- Bitsliced layout -------------------------------------------------------------
 * A 64-bit half (D1 or D2) of up to 8 blocks is 8 planes: plane j, bit 8b + n is
 * bit j of byte b (b = 0 the most significant, the RFC's y1) of the half in
 * block n. So byte position b of all blocks is byte b of every plane, and the
 * 32-bit words of the FL function are the low (bytes 0..3) and high halves. */
#define CAM_BLOCKS 8
/* Byte positions by S-box: s1 at 0 and 7, s2 at 1 and 4, s3 at 2 and 5, s4 at 3 and 6. */
#define CAM_S2 UINT64_C(0x000000ff0000ff00)
#define CAM_S3 UINT64_C(0x0000ff0000ff0000)
#define CAM_S4 UINT64_C(0x00ff0000ff000000)
#define CAM_S14 (~(CAM_S2 | CAM_S3))

static inline uint32_t rotr32(uint32_t x, unsigned n)
{
	return x >> n | x << (32 - n);
}

/* d ^= F(x, k): the S-boxes on all 64 bytes at once, then P (RFC 3713 2.4.3).
 * s4's input rotation and s2's and s3's output rotations move planes by one
 * within their byte positions. P in 32-bit halves U = y1..y4, V = y5..y8,
 * where rotr32 by 8r moves byte i + r to byte i:
 *     U ^= V >>> 16; V ^= U; U ^= V >>> 8; V ^= U >>> 16; result V || U
 * (found by a search over such sequences, checked against P's definition). */
static inline void cam_f(uint64_t d[8], const uint64_t x[8], const uint64_t k[8])
{
	uint64_t t[8], u[8], o[8];

	for (int j = 0; j < 8; j++)
		t[j] = x[j] ^ k[j];
	for (int j = 0; j < 8; j++)
		u[j] = (t[j] & ~CAM_S4) | (t[(j + 7) & 7] & CAM_S4);
	BC_GF_AFFINE(t, u, CAM_C1, CAM_A1);
	bc_gf256_tower_inv(o, t);
	BC_GF_AFFINE(u, o, CAM_C2, CAM_A2);
	for (int j = 0; j < 8; j++) {
		uint64_t z = (u[j] & CAM_S14) | (u[(j + 7) & 7] & CAM_S2) | (u[(j + 1) & 7] & CAM_S3);
		uint32_t U = (uint32_t)z, V = (uint32_t)(z >> 32);

		U ^= rotr32(V, 16);
		V ^= U;
		U ^= rotr32(V, 8);
		V ^= rotr32(U, 16);
		d[j] ^= (uint64_t)V | (uint64_t)U << 32;
	}
}

/* XR ^= (XL & kL) <<< 1 on the planes: a rotation of a big-endian word by one
 * moves plane j - 1 to plane j, and plane 7 to plane 0 one byte up. */
static inline void cam_fl_r(uint64_t x[8], const uint64_t k[8])
{
	uint32_t a[8];

	for (int j = 0; j < 8; j++)
		a[j] = (uint32_t)(x[j] & k[j]);
	x[0] ^= (uint64_t)rotr32(a[7], 8) << 32;
	for (int j = 1; j < 8; j++)
		x[j] ^= (uint64_t)a[j - 1] << 32;
}

/* XL ^= XR | kR */
static inline void cam_fl_l(uint64_t x[8], const uint64_t k[8])
{
	for (int j = 0; j < 8; j++)
		x[j] ^= (x[j] | k[j]) >> 32;
}

struct camellia_ctx {
	uint64_t enc[BC_CAMELLIA_SUBKEYS][8];   /* subkeys as planes: each bit over its byte */
	uint64_t dec[BC_CAMELLIA_SUBKEYS][8];
	unsigned groups;                        /* 3 or 4 six-round groups */
};

/* n (1..8) blocks; x is the caller's scratch, to be wiped by it. */
static void cam_pass(const uint64_t (*k)[8], unsigned groups, uint8_t *dst, const uint8_t *src, size_t n,
                     uint64_t x[2][8])
{
	for (size_t i = 0; i < CAM_BLOCKS; i++) {
		x[0][i] = i < n ? bc_load_le64(src + 16 * i) : 0;
		x[1][i] = i < n ? bc_load_le64(src + 16 * i + 8) : 0;
	}
	bc_gf_transpose8(x[0]);
	bc_gf_transpose8(x[1]);
	for (int j = 0; j < 8; j++) {
		x[0][j] ^= k[0][j];
		x[1][j] ^= k[1][j];
	}
	k += 2;
	for (unsigned g = 0; g < groups; g++) {
		for (int r = 0; r < 3; r++, k += 2) {
			cam_f(x[1], x[0], k[0]);
			cam_f(x[0], x[1], k[1]);
		}
		if (g + 1 < groups) {
			cam_fl_r(x[0], k[0]);   /* FL */
			cam_fl_l(x[0], k[0]);
			cam_fl_l(x[1], k[1]);   /* FL^-1 */
			cam_fl_r(x[1], k[1]);
			k += 2;
		}
	}
	for (int j = 0; j < 8; j++) {
		x[1][j] ^= k[0][j];
		x[0][j] ^= k[1][j];
	}
	bc_gf_transpose8(x[0]);
	bc_gf_transpose8(x[1]);
	for (size_t i = 0; i < n; i++) {
		bc_store_le64(dst + 16 * i, x[1][i]);
		bc_store_le64(dst + 16 * i + 8, x[0][i]);
	}
}

static void cam_crypt(const uint64_t (*k)[8], unsigned groups, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	uint64_t x[2][8];

	while (nblocks) {
		size_t n = nblocks < CAM_BLOCKS ? nblocks : CAM_BLOCKS;

		cam_pass(k, groups, dst, src, n, x);
		src += 16 * n;
		dst += 16 * n;
		nblocks -= n;
	}
	bc_wipe(x, sizeof(x));
}

static void camellia_encrypt(const void *vctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	const struct camellia_ctx *ctx = vctx;
	cam_crypt(ctx->enc, ctx->groups, dst, src, nblocks);
}

static void camellia_decrypt(const void *vctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	const struct camellia_ctx *ctx = vctx;
	cam_crypt(ctx->dec, ctx->groups, dst, src, nblocks);
}

static void camellia_mac(const void *vctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	const struct camellia_ctx *ctx = vctx;
	uint64_t x[2][8];
	uint8_t b[16];

	for (size_t i = 0; i < nblocks; i++) {
		bc_xor(b, st, src + 16 * i, 16);
		cam_pass(ctx->enc, ctx->groups, st, b, 1, x);
	}
	bc_wipe(x, sizeof(x));
	bc_wipe(b, sizeof(b));
}

static void camellia_mac_many(const void *vctx, unsigned n, uint8_t (*st)[16], const uint8_t *const src[],
                              size_t nblocks)
{
	const struct camellia_ctx *ctx = vctx;
	uint64_t x[2][8];
	uint8_t b[8][16];

	for (size_t i = 0; i < nblocks; i++) {
		for (unsigned c = 0; c < n; c++)
			bc_xor(b[c], st[c], src[c] + 16 * i, 16);
		cam_pass(ctx->enc, ctx->groups, b[0], b[0], n, x);
		memcpy(st, b, 16 * (size_t)n);
	}
	bc_wipe(x, sizeof(x));
	bc_wipe(b, sizeof(b));
}

/* ---- Key schedule (RFC 3713 2.2, 2.3.2) --------------------------------------------- */

/* A subkey (big-endian number) to planes, every bit over its byte position. */
static void key_planes(uint64_t p[8], uint64_t k)
{
	for (int j = 0; j < 8; j++) {
		p[j] = 0;
		for (int b = 0; b < 8; b++)
			p[j] |= (UINT64_C(0) - (k >> (56 - 8 * b + j) & 1)) & UINT64_C(0xff) << 8 * b;
	}
}

/* F(x, k) of one 64-bit value: lane 0 of the circuit. */
static uint64_t cam_f64(uint64_t x, uint64_t k)
{
	uint64_t v[8] = { 0 }, kp[8], d[8] = { 0 };
	uint8_t b[8];

	bc_store_be64(b, x);
	v[0] = bc_load_le64(b);
	bc_gf_transpose8(v);
	key_planes(kp, k);
	cam_f(d, v, kp);
	bc_gf_transpose8(d);
	bc_store_le64(b, d[0]);
	x = bc_load_be64(b);
	bc_wipe(v, sizeof(v));
	bc_wipe(d, sizeof(d));
	bc_wipe(b, sizeof(b));
	return x;
}

/* (h, l) <<< n, the half `lo` of it */
static uint64_t rot128(const uint64_t k[2], unsigned n, int lo)
{
	uint64_t h = k[n >= 64], l = k[n < 64];

	n &= 63;
	if (n) {
		uint64_t t = h << n | l >> (64 - n);
		l = l << n | h >> (64 - n);
		h = t;
	}
	return lo ? l : h;
}

/* Each subkey: source (KL, KR, KA, KB), rotation, half (0 left, 1 right). */
struct cam_sk { uint8_t src, rot, lo; };
enum { KL, KR, KA, KB };
static const struct cam_sk cam_sk128[26] = {
	{ KL, 0, 0 }, { KL, 0, 1 },                                   /* kw1 kw2 */
	{ KA, 0, 0 }, { KA, 0, 1 }, { KL, 15, 0 }, { KL, 15, 1 }, { KA, 15, 0 }, { KA, 15, 1 },
	{ KA, 30, 0 }, { KA, 30, 1 },                                 /* ke1 ke2 */
	{ KL, 45, 0 }, { KL, 45, 1 }, { KA, 45, 0 }, { KL, 60, 1 }, { KA, 60, 0 }, { KA, 60, 1 },
	{ KL, 77, 0 }, { KL, 77, 1 },                                 /* ke3 ke4 */
	{ KL, 94, 0 }, { KL, 94, 1 }, { KA, 94, 0 }, { KA, 94, 1 }, { KL, 111, 0 }, { KL, 111, 1 },
	{ KA, 111, 0 }, { KA, 111, 1 },                               /* kw3 kw4 */
};
static const struct cam_sk cam_sk256[34] = {
	{ KL, 0, 0 }, { KL, 0, 1 },                                   /* kw1 kw2 */
	{ KB, 0, 0 }, { KB, 0, 1 }, { KR, 15, 0 }, { KR, 15, 1 }, { KA, 15, 0 }, { KA, 15, 1 },
	{ KR, 30, 0 }, { KR, 30, 1 },                                 /* ke1 ke2 */
	{ KB, 30, 0 }, { KB, 30, 1 }, { KL, 45, 0 }, { KL, 45, 1 }, { KA, 45, 0 }, { KA, 45, 1 },
	{ KL, 60, 0 }, { KL, 60, 1 },                                 /* ke3 ke4 */
	{ KR, 60, 0 }, { KR, 60, 1 }, { KB, 60, 0 }, { KB, 60, 1 }, { KL, 77, 0 }, { KL, 77, 1 },
	{ KA, 77, 0 }, { KA, 77, 1 },                                 /* ke5 ke6 */
	{ KR, 94, 0 }, { KR, 94, 1 }, { KA, 94, 0 }, { KA, 94, 1 }, { KL, 111, 0 }, { KL, 111, 1 },
	{ KB, 111, 0 }, { KB, 111, 1 },                               /* kw3 kw4 */
};

int bc_camellia_schedule(uint64_t sk[BC_CAMELLIA_SUBKEYS], const uint8_t *key, size_t keylen)
{
	static const uint64_t sigma[6] = {
		UINT64_C(0xa09e667f3bcc908b), UINT64_C(0xb67ae8584caa73b2), UINT64_C(0xc6ef372fe94f82be),
		UINT64_C(0x54ff53a5f1d36f1c), UINT64_C(0x10e527fade682d1d), UINT64_C(0xb05688c2b3e6c1fd),
	};
	uint64_t k[4][2] = { { 0 } }, d1, d2;
	const struct cam_sk *tab = keylen == 16 ? cam_sk128 : cam_sk256;
	int n = keylen == 16 ? 26 : 34;

	if (keylen != 16 && keylen != 24 && keylen != 32)
		return -EINVAL;
	k[KL][0] = bc_load_be64(key);
	k[KL][1] = bc_load_be64(key + 8);
	if (keylen >= 24) {
		k[KR][0] = bc_load_be64(key + 16);
		k[KR][1] = keylen == 32 ? bc_load_be64(key + 24) : ~k[KR][0];
	}
	d1 = k[KL][0] ^ k[KR][0];
	d2 = k[KL][1] ^ k[KR][1];
	d2 ^= cam_f64(d1, sigma[0]);
	d1 ^= cam_f64(d2, sigma[1]);
	d1 ^= k[KL][0];
	d2 ^= k[KL][1];
	d2 ^= cam_f64(d1, sigma[2]);
	d1 ^= cam_f64(d2, sigma[3]);
	k[KA][0] = d1;
	k[KA][1] = d2;
	if (keylen >= 24) {
		d1 = k[KA][0] ^ k[KR][0];
		d2 = k[KA][1] ^ k[KR][1];
		d2 ^= cam_f64(d1, sigma[4]);
		d1 ^= cam_f64(d2, sigma[5]);
		k[KB][0] = d1;
		k[KB][1] = d2;
	}
	for (int i = 0; i < n; i++)
		sk[i] = rot128(k[tab[i].src], tab[i].rot, tab[i].lo);
	bc_wipe(k, sizeof(k));
	bc_wipe(&d1, sizeof(d1));
	bc_wipe(&d2, sizeof(d2));
	return n;
}

void bc_camellia_reverse(uint64_t dk[BC_CAMELLIA_SUBKEYS], const uint64_t sk[BC_CAMELLIA_SUBKEYS], int n)
{
	dk[0] = sk[n - 2];
	dk[1] = sk[n - 1];
	for (int i = 2; i < n - 2; i++)
		dk[i] = sk[n - 1 - i];
	dk[n - 2] = sk[0];
	dk[n - 1] = sk[1];
}

static int camellia_setkey(void *vctx, const uint8_t *key, size_t keylen)
{
	struct camellia_ctx *ctx = vctx;
	uint64_t sk[BC_CAMELLIA_SUBKEYS], dk[BC_CAMELLIA_SUBKEYS];
	int n = bc_camellia_schedule(sk, key, keylen);

	if (n < 0)
		return n;
	bc_camellia_reverse(dk, sk, n);
	for (int i = 0; i < n; i++) {
		key_planes(ctx->enc[i], sk[i]);
		key_planes(ctx->dec[i], dk[i]);
	}
	ctx->groups = n == 26 ? 3 : 4;
	bc_wipe(sk, sizeof(sk));
	bc_wipe(dk, sizeof(dk));
	return 0;
}

const struct bc_cipher_alg bc_camellia_generic = {
	.name = "camellia",
	.driver = "camellia-generic",
	.priority = 100,
	.cpu = 0,
	.min_keysize = 16,
	.max_keysize = 32,
	.ctxsize = sizeof(struct camellia_ctx),
	.setkey = camellia_setkey,
	.encrypt = camellia_encrypt,
	.decrypt = camellia_decrypt,
	.mac = camellia_mac,
	.mac_many = camellia_mac_many,
};
