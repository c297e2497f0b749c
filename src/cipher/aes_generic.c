/* aes-generic: portable constant-time AES, bitsliced four blocks at a time in eight 64-bit words.
 * FIPS-197 (AES); S-box circuits from Boyar & Peralta, "A depth-16 circuit for the AES S-box" (2011). */
#include "drivers.h"

/*
 * Bitsliced layout: q[i] holds bit i of all 64 state bytes of four blocks.
 * The byte in row r, column c of block b sits at bit 16*r + 4*c + b, so a
 * row is one 16-bit lane (ShiftRows rotates inside lanes) and the other rows
 * of a column are 16, 32 and 48 bits away (MixColumns rotates whole words).
 * Nothing here indexes memory or branches on data: the S-box is a circuit of
 * ANDs and XORs, and the key schedule runs its SubWord through the same one.
 */

#define AES_MAX_ROUNDS 14

/*
 * A round only runs fast when the eight words stay in registers from one
 * step to the next: unroll the per-plane loops and inline the steps, or gcc
 * spills the state between them and reloads it with wider vector loads that
 * cannot be forwarded from the narrower stores.
 */
#if defined(__GNUC__)
#define BS_INLINE static inline __attribute__((always_inline))
#define BS_UNROLL _Pragma("GCC unroll 8")
#else
#define BS_INLINE static inline
#define BS_UNROLL
#endif

struct aes_generic_ctx {
	uint64_t sk[(AES_MAX_ROUNDS + 1) * 8];   /* bitsliced round keys, all four lanes equal */
	unsigned rounds;
};

static inline uint64_t rotr64(uint64_t x, unsigned n)
{
	return x >> n | x << (64 - n);
}

/* Byte r of x to byte 2r: the even bytes of a 64-bit word. */
static inline uint64_t spread32(uint32_t x)
{
	uint64_t v = x;

	v = (v | v << 16) & 0x0000ffff0000ffffu;
	return (v | v << 8) & 0x00ff00ff00ff00ffu;
}

static inline uint32_t gather32(uint64_t v)
{
	v &= 0x00ff00ff00ff00ffu;
	v = (v | v >> 8) & 0x0000ffff0000ffffu;
	return (uint32_t)(v | v >> 16);
}

static inline void swapmove(uint64_t *a, uint64_t *b, uint64_t mask, unsigned n)
{
	uint64_t t = ((*a >> n) ^ *b) & mask;

	*b ^= t;
	*a ^= t << n;
}

/* 8x8 bit transpose in every byte lane: bit j of byte m of w[k] becomes bit k
 * of byte m of w[j]. Its own inverse. */
static void ortho(uint64_t w[8])
{
	swapmove(&w[0], &w[1], 0x5555555555555555u, 1);
	swapmove(&w[2], &w[3], 0x5555555555555555u, 1);
	swapmove(&w[4], &w[5], 0x5555555555555555u, 1);
	swapmove(&w[6], &w[7], 0x5555555555555555u, 1);
	swapmove(&w[0], &w[2], 0x3333333333333333u, 2);
	swapmove(&w[1], &w[3], 0x3333333333333333u, 2);
	swapmove(&w[4], &w[6], 0x3333333333333333u, 2);
	swapmove(&w[5], &w[7], 0x3333333333333333u, 2);
	swapmove(&w[0], &w[4], 0x0f0f0f0f0f0f0f0fu, 4);
	swapmove(&w[1], &w[5], 0x0f0f0f0f0f0f0f0fu, 4);
	swapmove(&w[2], &w[6], 0x0f0f0f0f0f0f0f0fu, 4);
	swapmove(&w[3], &w[7], 0x0f0f0f0f0f0f0f0fu, 4);
}

/*
 * Before the transpose, word k = 4*(c & 1) + b carries block b's columns c
 * and c + 2 (c = 0 or 1), their bytes alternating: the byte of row r, column
 * c lands at byte 2*r + (c >> 1), i.e. at bit 8*(2*r + (c >> 1)) + k of the
 * transposed words = 16*r + 4*c + b.
 */
static inline void bs_load_cols(uint64_t q[8], unsigned b, const uint32_t col[4])
{
	q[b] = spread32(col[0]) | spread32(col[2]) << 8;
	q[b + 4] = spread32(col[1]) | spread32(col[3]) << 8;
}

static inline void bs_store_cols(uint32_t col[4], const uint64_t q[8], unsigned b)
{
	col[0] = gather32(q[b]);
	col[2] = gather32(q[b] >> 8);
	col[1] = gather32(q[b + 4]);
	col[3] = gather32(q[b + 4] >> 8);
}

/* Blocks blk[0..n-1] (n <= 4) into bitsliced q; lanes past n hold zeros. */
static void bs_load(uint64_t q[8], const uint8_t *const blk[4], unsigned n)
{
	uint32_t col[4];

	for (unsigned b = 0; b < 4; b++) {
		for (unsigned c = 0; c < 4; c++)
			col[c] = b < n ? bc_load_le32(blk[b] + 4 * c) : 0;
		bs_load_cols(q, b, col);
	}
	ortho(q);
}

/* Lanes 0..n-1 of q (which it destroys) to blk[0..n-1]. */
static void bs_store(uint8_t *const blk[4], uint64_t q[8], unsigned n)
{
	uint32_t col[4];

	ortho(q);
	for (unsigned b = 0; b < n; b++) {
		bs_store_cols(col, q, b);
		for (unsigned c = 0; c < 4; c++)
			bc_store_le32(blk[b] + 4 * c, col[c]);
	}
}

/*
 * The S-box and its inverse share the middle of the circuit (inversion in
 * GF(2^8) through GF(2^4) in the paper's basis); only the linear layers that
 * enter and leave that basis differ. U0/S0 in the paper is the most
 * significant bit, our q[7].
 */
struct sbox_top {
	uint64_t t1, t2, t3, t4, t6, t8, t9, t10, t13, t14, t15, t16, t17, t19, t20;
	uint64_t t22, t23, t24, t25, t26, t27, d;
};

/* m[0..17] receive M46..M63. */
BS_INLINE void sbox_middle(uint64_t m[18], const struct sbox_top *t)
{
	uint64_t m1 = t->t13 & t->t6, m2 = t->t23 & t->t8, m3 = t->t14 ^ m1;
	uint64_t m4 = t->t19 & t->d, m5 = m4 ^ m1, m6 = t->t3 & t->t16;
	uint64_t m7 = t->t22 & t->t9, m8 = t->t26 ^ m6, m9 = t->t20 & t->t17;
	uint64_t m10 = m9 ^ m6, m11 = t->t1 & t->t15, m12 = t->t4 & t->t27;
	uint64_t m13 = m12 ^ m11, m14 = t->t2 & t->t10, m15 = m14 ^ m11;
	uint64_t m16 = m3 ^ m2, m17 = m5 ^ t->t24, m18 = m8 ^ m7, m19 = m10 ^ m15;
	uint64_t m20 = m16 ^ m13, m21 = m17 ^ m15, m22 = m18 ^ m13, m23 = m19 ^ t->t25;
	uint64_t m24 = m22 ^ m23, m25 = m22 & m20, m26 = m21 ^ m25, m27 = m20 ^ m21;
	uint64_t m28 = m23 ^ m25, m29 = m28 & m27, m30 = m26 & m24, m31 = m20 & m23;
	uint64_t m32 = m27 & m31, m33 = m27 ^ m25, m34 = m21 & m22, m35 = m24 & m34;
	uint64_t m36 = m24 ^ m25, m37 = m21 ^ m29, m38 = m32 ^ m33, m39 = m23 ^ m30;
	uint64_t m40 = m35 ^ m36, m41 = m38 ^ m40, m42 = m37 ^ m39, m43 = m37 ^ m38;
	uint64_t m44 = m39 ^ m40, m45 = m42 ^ m41;

	m[0] = m44 & t->t6;   m[1] = m40 & t->t8;   m[2] = m39 & t->d;
	m[3] = m43 & t->t16;  m[4] = m38 & t->t9;   m[5] = m37 & t->t17;
	m[6] = m42 & t->t15;  m[7] = m45 & t->t27;  m[8] = m41 & t->t10;
	m[9] = m44 & t->t13;  m[10] = m40 & t->t23; m[11] = m39 & t->t19;
	m[12] = m43 & t->t3;  m[13] = m38 & t->t22; m[14] = m37 & t->t20;
	m[15] = m42 & t->t1;  m[16] = m45 & t->t4;  m[17] = m41 & t->t2;
}

BS_INLINE void sub_bytes(uint64_t q[8])
{
	uint64_t u0 = q[7], u1 = q[6], u2 = q[5], u3 = q[4];
	uint64_t u4 = q[3], u5 = q[2], u6 = q[1], u7 = q[0];
	struct sbox_top t;
	uint64_t m[18];

	t.t1 = u0 ^ u3;
	t.t2 = u0 ^ u5;
	t.t3 = u0 ^ u6;
	t.t4 = u3 ^ u5;
	uint64_t t5 = u4 ^ u6;
	t.t6 = t.t1 ^ t5;
	uint64_t t7 = u1 ^ u2;
	t.t8 = u7 ^ t.t6;
	t.t9 = u7 ^ t7;
	t.t10 = t.t6 ^ t7;
	uint64_t t11 = u1 ^ u5, t12 = u2 ^ u5;
	t.t13 = t.t3 ^ t.t4;
	t.t14 = t.t6 ^ t11;
	t.t15 = t5 ^ t11;
	t.t16 = t5 ^ t12;
	t.t17 = t.t9 ^ t.t16;
	uint64_t t18 = u3 ^ u7;
	t.t19 = t7 ^ t18;
	t.t20 = t.t1 ^ t.t19;
	uint64_t t21 = u6 ^ u7;
	t.t22 = t7 ^ t21;
	t.t23 = t.t2 ^ t.t22;
	t.t24 = t.t2 ^ t.t10;
	t.t25 = t.t20 ^ t.t17;
	t.t26 = t.t3 ^ t.t16;
	t.t27 = t.t1 ^ t12;
	t.d = u7;

	sbox_middle(m, &t);

	/* m[k] is M(46 + k) */
	uint64_t l0 = m[15] ^ m[16], l1 = m[4] ^ m[10], l2 = m[0] ^ m[2];
	uint64_t l3 = m[1] ^ m[9], l4 = m[8] ^ m[12], l5 = m[3] ^ m[15];
	uint64_t l6 = m[16] ^ l5, l7 = m[0] ^ l3, l8 = m[5] ^ m[13];
	uint64_t l9 = m[6] ^ m[7], l10 = m[7] ^ l4, l11 = m[14] ^ l2;
	uint64_t l12 = m[2] ^ m[5], l13 = m[4] ^ l0, l14 = m[6] ^ m[15];
	uint64_t l15 = m[9] ^ l1, l16 = m[10] ^ l0, l17 = m[11] ^ l1;
	uint64_t l18 = m[12] ^ l8, l19 = m[17] ^ l4, l20 = l0 ^ l1;
	uint64_t l21 = l1 ^ l7, l22 = l3 ^ l12, l23 = l18 ^ l2;
	uint64_t l24 = l15 ^ l9, l25 = l6 ^ l10, l26 = l7 ^ l9;
	uint64_t l27 = l8 ^ l10, l28 = l11 ^ l14, l29 = l11 ^ l17;

	q[7] = l6 ^ l24;
	q[6] = ~(l16 ^ l26);
	q[5] = ~(l19 ^ l28);
	q[4] = l6 ^ l21;
	q[3] = l20 ^ l22;
	q[2] = l25 ^ l29;
	q[1] = ~(l13 ^ l27);
	q[0] = ~(l6 ^ l23);
}

BS_INLINE void inv_sub_bytes(uint64_t q[8])
{
	uint64_t u0 = q[7], u1 = q[6], u2 = q[5], u3 = q[4];
	uint64_t u4 = q[3], u5 = q[2], u6 = q[1], u7 = q[0];
	struct sbox_top t;
	uint64_t m[18];

	t.t23 = u0 ^ u3;
	t.t22 = ~(u1 ^ u3);
	t.t2 = ~(u0 ^ u1);
	t.t1 = u3 ^ u4;
	t.t24 = ~(u4 ^ u7);
	uint64_t r5 = u6 ^ u7;
	t.t8 = ~(u1 ^ t.t23);
	t.t19 = t.t22 ^ r5;
	t.t9 = ~(u7 ^ t.t1);
	t.t10 = t.t2 ^ t.t24;
	t.t13 = t.t2 ^ r5;
	t.t3 = t.t1 ^ r5;
	t.t25 = ~(u2 ^ t.t1);
	uint64_t r13 = u1 ^ u6;
	t.t17 = ~(u2 ^ t.t19);
	t.t20 = t.t24 ^ r13;
	t.t4 = u4 ^ t.t8;
	uint64_t r17 = ~(u2 ^ u5), r18 = ~(u5 ^ u6), r19 = ~(u2 ^ u4);
	t.d = u0 ^ r17;                    /* Y5 */
	t.t6 = t.t22 ^ r17;
	t.t16 = r13 ^ r19;
	t.t27 = t.t1 ^ r18;
	t.t15 = t.t10 ^ t.t27;
	t.t14 = t.t10 ^ r18;
	t.t26 = t.t3 ^ t.t16;

	sbox_middle(m, &t);

	uint64_t p0 = m[6] ^ m[15], p1 = m[12] ^ m[13], p2 = m[8] ^ m[16];
	uint64_t p3 = m[1] ^ m[4], p4 = m[2] ^ m[10], p5 = m[0] ^ m[5];
	uint64_t p6 = m[3] ^ m[14], p7 = p0 ^ p1, p8 = m[4] ^ m[7];
	uint64_t p9 = m[9] ^ m[17], p10 = m[11] ^ p4, p11 = p0 ^ p3;
	uint64_t p12 = m[0] ^ m[2], p13 = m[3] ^ m[5], p14 = m[3] ^ m[16];
	uint64_t p15 = m[8] ^ m[13], p16 = m[11] ^ m[15], p17 = m[12] ^ p2;
	uint64_t p18 = m[17] ^ p5, p19 = p2 ^ p3, p20 = p4 ^ p6;
	uint64_t p22 = p2 ^ p7, p23 = p7 ^ p8, p24 = p5 ^ p7;
	uint64_t p25 = p6 ^ p10, p26 = p9 ^ p11, p27 = p10 ^ p18;
	uint64_t p28 = p11 ^ p25, p29 = p15 ^ p20;

	q[7] = p13 ^ p22;
	q[6] = p26 ^ p29;
	q[5] = p17 ^ p28;
	q[4] = p12 ^ p22;
	q[3] = p23 ^ p27;
	q[2] = p19 ^ p24;
	q[1] = p14 ^ p23;
	q[0] = p9 ^ p16;
}

/*
 * Row r (bits 16r..16r+15) rotates right by 4r bits: column c takes column
 * c + r. Done as rows 2 and 3 by 8, then rows 1 and 3 by 4: fewer masks than
 * one rotation per row.
 */
static inline uint64_t rot8_rows23(uint64_t x)
{
	return (x & 0x00000000ffffffffu) | (x >> 8 & 0x00ff00ff00000000u) | (x << 8 & 0xff00ff0000000000u);
}

BS_INLINE void shift_rows(uint64_t q[8])
{
	BS_UNROLL
	for (unsigned i = 0; i < 8; i++) {
		uint64_t x = rot8_rows23(q[i]);

		q[i] = (x & 0x0000ffff0000ffffu) | (x >> 4 & 0x0fff00000fff0000u) | (x << 12 & 0xf0000000f0000000u);
	}
}

BS_INLINE void inv_shift_rows(uint64_t q[8])
{
	BS_UNROLL
	for (unsigned i = 0; i < 8; i++) {
		uint64_t x = q[i];

		x = (x & 0x0000ffff0000ffffu) | (x << 4 & 0xfff00000fff00000u) | (x >> 12 & 0x000f0000000f0000u);
		q[i] = rot8_rows23(x);
	}
}

/* Multiplication by x in GF(2^8) mod x^8 + x^4 + x^3 + x + 1, on bit planes. */
BS_INLINE void xtime(uint64_t out[8], const uint64_t in[8])
{
	out[0] = in[7];
	out[1] = in[0] ^ in[7];
	out[2] = in[1];
	out[3] = in[2] ^ in[7];
	out[4] = in[3] ^ in[7];
	out[5] = in[4];
	out[6] = in[5];
	out[7] = in[6];
}

/* b_r = 2 a_r + 3 a_{r+1} + a_{r+2} + a_{r+3} = 2 (a_r + a_{r+1}) + a_{r+1} + (a_{r+2} + a_{r+3}). */
BS_INLINE void mix_columns(uint64_t q[8])
{
	uint64_t a1[8], t[8], t2[8];

	BS_UNROLL
	for (unsigned i = 0; i < 8; i++) {
		a1[i] = rotr64(q[i], 16);
		t[i] = q[i] ^ a1[i];
	}
	xtime(t2, t);
	BS_UNROLL
	for (unsigned i = 0; i < 8; i++)
		q[i] = t2[i] ^ a1[i] ^ rotr64(t[i], 32);
}

/* {0e,0b,0d,09} = {02,03,01,01} x {05,00,04,00}: first a_r += 4 (a_r + a_{r+2}). */
BS_INLINE void inv_mix_columns(uint64_t q[8])
{
	uint64_t v[8], v2[8], v4[8];

	BS_UNROLL
	for (unsigned i = 0; i < 8; i++)
		v[i] = q[i] ^ rotr64(q[i], 32);
	xtime(v2, v);
	xtime(v4, v2);
	BS_UNROLL
	for (unsigned i = 0; i < 8; i++)
		q[i] ^= v4[i];
	mix_columns(q);
}

BS_INLINE void add_round_key(uint64_t q[8], const uint64_t *sk)
{
	BS_UNROLL
	for (unsigned i = 0; i < 8; i++)
		q[i] ^= sk[i];
}

static void bs_encrypt(const struct aes_generic_ctx *ctx, uint64_t *q)
{
	const uint64_t *sk = ctx->sk;

	add_round_key(q, sk);
	for (unsigned r = 1; r < ctx->rounds; r++) {
		sub_bytes(q);
		shift_rows(q);
		mix_columns(q);
		add_round_key(q, sk + 8 * r);
	}
	sub_bytes(q);
	shift_rows(q);
	add_round_key(q, sk + 8 * ctx->rounds);
}

static void bs_decrypt(const struct aes_generic_ctx *ctx, uint64_t *q)
{
	const uint64_t *sk = ctx->sk;

	add_round_key(q, sk + 8 * ctx->rounds);
	for (unsigned r = ctx->rounds - 1; r > 0; r--) {
		inv_shift_rows(q);
		inv_sub_bytes(q);
		add_round_key(q, sk + 8 * r);
		inv_mix_columns(q);
	}
	inv_shift_rows(q);
	inv_sub_bytes(q);
	add_round_key(q, sk);
}

/* SubWord through the bitsliced S-box: the word's bytes go to lane 0, column 0. */
static uint32_t sub_word(uint32_t x)
{
	uint64_t q[8] = { spread32(x) };
	uint32_t y;

	ortho(q);
	sub_bytes(q);
	ortho(q);
	y = gather32(q[0]);
	bc_wipe(q, sizeof(q));
	return y;
}

static int aes_generic_setkey(void *vctx, const uint8_t *key, size_t keylen)
{
	struct aes_generic_ctx *ctx = vctx;
	uint32_t w[4 * (AES_MAX_ROUNDS + 1)];
	unsigned nk, nw;
	uint32_t rcon = 1;

	if (keylen != 16 && keylen != 24 && keylen != 32)
		return -EINVAL;
	nk = (unsigned)keylen / 4;
	ctx->rounds = nk + 6;
	nw = 4 * (ctx->rounds + 1);

	/* FIPS-197 KeyExpansion with little-endian words: byte 0 is the low byte.
	 * The branches test the word index, never the key; SubWord is the circuit
	 * and Rcon's doubling a mask. */
	for (unsigned i = 0; i < nk; i++)
		w[i] = bc_load_le32(key + 4 * i);
	for (unsigned i = nk; i < nw; i++) {
		uint32_t t = w[i - 1];

		if (i % nk == 0) {
			t = sub_word(t >> 8 | t << 24) ^ rcon;
			rcon = (rcon << 1) ^ (0x11b & (0u - (rcon >> 7)));
		} else if (nk > 6 && i % nk == 4) {
			t = sub_word(t);
		}
		w[i] = w[i - nk] ^ t;
	}

	for (unsigned r = 0; r <= ctx->rounds; r++) {
		uint64_t *q = ctx->sk + 8 * r;

		for (unsigned b = 0; b < 4; b++)
			bs_load_cols(q, b, w + 4 * r);
		ortho(q);
	}
	bc_wipe(w, sizeof(w));
	return 0;
}

static void ecb_passes(const struct aes_generic_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks,
                       void (*pass)(const struct aes_generic_ctx *, uint64_t *))
{
	uint64_t q[8];

	while (nblocks > 0) {
		unsigned n = nblocks < 4 ? (unsigned)nblocks : 4;
		const uint8_t *in[4];
		uint8_t *out[4];

		for (unsigned b = 0; b < n; b++) {
			in[b] = src + 16 * b;
			out[b] = dst + 16 * b;
		}
		bs_load(q, in, n);
		pass(ctx, q);
		bs_store(out, q, n);
		src += 16 * n;
		dst += 16 * n;
		nblocks -= n;
	}
}

static void aes_generic_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	ecb_passes(ctx, dst, src, nblocks, bs_encrypt);
}

static void aes_generic_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	ecb_passes(ctx, dst, src, nblocks, bs_decrypt);
}

/* Chains st[0..n-1] (n <= 4), one lane each: st[i] = E(st[i] ^ src[i] block j), for every j. */
static void mac_lanes(const struct aes_generic_ctx *ctx, unsigned n, uint8_t (*st)[16],
                      const uint8_t *const src[], size_t nblocks)
{
	uint8_t x[4][16];
	const uint8_t *in[4] = { x[0], x[1], x[2], x[3] };
	uint8_t *out[4];
	uint64_t q[8];

	for (unsigned i = 0; i < n; i++)
		out[i] = st[i];

	for (size_t j = 0; j < nblocks; j++) {
		for (unsigned i = 0; i < n; i++)
			bc_xor(x[i], st[i], src[i] + 16 * j, 16);
		bs_load(q, in, n);
		bs_encrypt(ctx, q);
		bs_store(out, q, n);
	}
	bc_wipe(x, sizeof(x));
	bc_wipe(q, sizeof(q));
}

static void aes_generic_mac(const void *vctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	mac_lanes(vctx, 1, (uint8_t (*)[16])st, &src, nblocks);
}

static void aes_generic_mac_many(const void *vctx, unsigned n, uint8_t (*st)[16], const uint8_t *const src[],
                                 size_t nblocks)
{
	for (unsigned i = 0; i < n; i += 4)
		mac_lanes(vctx, n - i < 4 ? n - i : 4, st + i, src + i, nblocks);
}

const struct bc_cipher_alg bc_aes_generic = {
	.name = "aes",
	.driver = "aes-generic",
	.priority = 100,
	.cpu = 0,
	.min_keysize = 16,
	.max_keysize = 32,
	.ctxsize = sizeof(struct aes_generic_ctx),
	.setkey = aes_generic_setkey,
	.encrypt = aes_generic_encrypt,
	.decrypt = aes_generic_decrypt,
	.mac = aes_generic_mac,
	.mac_many = aes_generic_mac_many,
};
