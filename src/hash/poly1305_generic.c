/* blockcrypt: Poly1305 in portable integer arithmetic, constant time: 44-bit limbs with 128-bit products, or 26-bit limbs with 64-bit ones.
 * RFC 8439 section 2.5 (the algorithm) and 2.5.1 (clamping of r). */
#include "poly1305.h"

#if defined(BC_POLY1305_LIMB44)
#define M44 0xfffffffffffull
#define M42 0x3ffffffffffull

void bc_poly1305_init(struct bc_poly1305 *p, const uint8_t key[BC_POLY1305_KEY], int wide)
{
	uint64_t t0 = bc_load_le64(key), t1 = bc_load_le64(key + 8);

#if defined(BC_POLY1305_WIDE)
	p->wide = wide;
#else
	(void)wide;
#endif

	/* r clamped as section 2.5 says, in the limbs' split */
	p->r[0] = t0 & 0xffc0fffffffull;
	p->r[1] = (t0 >> 44 | t1 << 20) & 0xfffffc0ffffull;
	p->r[2] = (t1 >> 24) & 0x00ffffffc0full;
	p->s20[0] = p->r[1] * 20;   /* 2^132 = 4 * 2^130 = 20 modulo p */
	p->s20[1] = p->r[2] * 20;
	p->pad[0] = bc_load_le64(key + 16);
	p->pad[1] = bc_load_le64(key + 24);
	memset(p->h, 0, sizeof(p->h));
	p->used = 0;
}

/* h = h * r modulo 2^130 - 5, s the 20 r of limbs 1 and 2 (2^132 = 20);
 * out: limbs below 2^44, 2^44 + 2^10 and 2^42. */
static inline void mul(uint64_t h[3], const uint64_t r[3], const uint64_t s[2])
{
	typedef unsigned __int128 u128;
	u128 d0, d1, d2;
	uint64_t c;

	d0 = (u128)h[0] * r[0] + (u128)h[1] * s[1] + (u128)h[2] * s[0];
	d1 = (u128)h[0] * r[1] + (u128)h[1] * r[0] + (u128)h[2] * s[1];
	d2 = (u128)h[0] * r[2] + (u128)h[1] * r[1] + (u128)h[2] * r[0];
	c = (uint64_t)(d0 >> 44); h[0] = (uint64_t)d0 & M44; d1 += c;
	c = (uint64_t)(d1 >> 44); h[1] = (uint64_t)d1 & M44; d2 += c;
	c = (uint64_t)(d2 >> 42); h[2] = (uint64_t)d2 & M42;
	h[0] += c * 5;
	h[1] += h[0] >> 44;
	h[0] &= M44;
}

static void blocks(struct bc_poly1305 *p, const uint8_t *m, size_t n, uint64_t hibit)
{
	uint64_t h[3] = { p->h[0], p->h[1], p->h[2] };

	for (; n; n--, m += 16) {
		uint64_t t0 = bc_load_le64(m), t1 = bc_load_le64(m + 8);

		h[0] += t0 & M44;
		h[1] += (t0 >> 44 | t1 << 20) & M44;
		h[2] += (t1 >> 24 & M42) | hibit;
		mul(h, p->r, p->s20);
	}
	memcpy(p->h, h, sizeof(h));
}

#if defined(BC_POLY1305_WIDE)
/* Runs shorter than this many blocks stay with the portable code: making
 * r^2..r^8 and folding eight lanes back together would cost more than the
 * wide code saves. */
#define WIDE_MIN 16

int bc_poly1305_wide(void)
{
	const uint32_t ifma = BC_CPU_AVX512 | BC_CPU_AVX512IFMA, f = bc_cpu_features();

	return (f & ifma) == ifma ? BC_POLY1305_W_IFMA : f & BC_CPU_AVX2 ? BC_POLY1305_W_AVX2 : 0;
}

/* out = a * b, both made by mul (or r) */
static void mul_pow(uint64_t out[3], const uint64_t a[3], const uint64_t b[3])
{
	const uint64_t s[2] = { b[1] * 20, b[2] * 20 };

	memcpy(out, a, 3 * sizeof(*out));
	mul(out, b, s);
}

/* pw: r^(8 - j) in lane j; r16. In four steps of independent products
 * rather than a chain of eight. */
static void powers(struct bc_poly1305 *p)
{
	uint64_t pk[9][3];

	memcpy(pk[1], p->r, sizeof(pk[1]));
	mul_pow(pk[2], pk[1], pk[1]);
	mul_pow(pk[3], pk[2], pk[1]);
	mul_pow(pk[4], pk[2], pk[2]);
	for (int i = 1; i <= 4; i++)
		mul_pow(pk[4 + i], pk[4], pk[i]);
	mul_pow(pk[0], pk[8], pk[8]);   /* r^16 */
	for (int j = 0; j < 8; j++) {
		for (int k = 0; k < 3; k++)
			p->pw[k][j] = pk[8 - j][k];
		p->pw[3][j] = pk[8 - j][1] * 20;
		p->pw[4][j] = pk[8 - j][2] * 20;
	}
	memcpy(p->r16, pk[0], sizeof(pk[0]));
	p->r16[3] = pk[0][1] * 20;
	p->r16[4] = pk[0][2] * 20;
	bc_wipe(pk, sizeof(pk));
}

/* pw26: r^4, r^2, r^3, r^1 in 26-bit limbs and 5 times limbs 1-4, from
 * the powers in the portable limbs (out of mul: below 2^44, 2^44 + 2^10,
 * 2^42); limbs below 2^26 but the last, below 2^26 + 1. */
static void powers26(struct bc_poly1305 *p)
{
	static const int order[4] = { 4, 2, 3, 1 };
	uint64_t pk[5][3];

	memcpy(pk[1], p->r, sizeof(pk[1]));
	mul_pow(pk[2], pk[1], pk[1]);
	mul_pow(pk[3], pk[2], pk[1]);
	mul_pow(pk[4], pk[2], pk[2]);
	for (int j = 0; j < 4; j++) {
		uint64_t *l = pk[order[j]], t[5];

		l[2] += l[1] >> 44;
		l[1] &= M44;
		t[0] = l[0] & 0x3ffffff;
		t[1] = (l[0] >> 26 | l[1] << 18) & 0x3ffffff;
		t[2] = l[1] >> 8 & 0x3ffffff;
		t[3] = (l[1] >> 34 | l[2] << 10) & 0x3ffffff;
		t[4] = l[2] >> 16;
		for (int k = 0; k < 5; k++)
			p->pw26[k][j] = t[k];
		for (int k = 1; k < 5; k++)
			p->pw26[4 + k][j] = 5 * t[k];
		bc_wipe(t, sizeof(t));
	}
	bc_wipe(pk, sizeof(pk));
}

/* The whole blocks of m, n of them: the wide code takes a multiple of
 * eight (IFMA) or four (AVX2). */
static size_t wide_blocks(struct bc_poly1305 *p, const uint8_t *m, size_t n)
{
	if (!p->wide || n < WIDE_MIN)
		return 0;
	if (!(p->wide & BC_POLY1305_W_MADE)) {
		if (p->wide == BC_POLY1305_W_IFMA)
			powers(p);
		else
			powers26(p);
		p->wide |= BC_POLY1305_W_MADE;
	}
	if (p->wide & BC_POLY1305_W_AVX2) {
		n &= ~(size_t)3;
		bc_poly1305_blocks_avx2(p, m, n);
	} else {
		n &= ~(size_t)7;
		bc_poly1305_blocks_ifma(p, m, n);
	}
	bc_burn_stack();   /* what its frame (under 1 KiB) spilled of a, b and r^16 */
	return n;
}
#endif

#define HIBIT (1ull << 40)

/* h fully reduced modulo 2^130 - 5, plus s modulo 2^128 */
static void finish(struct bc_poly1305 *p, uint8_t tag[BC_POLY1305_TAG])
{
	uint64_t h0 = p->h[0], h1 = p->h[1], h2 = p->h[2], g0, g1, g2, c, mask, t0, t1;

	for (int i = 0; i < 2; i++) {
		c = h1 >> 44; h1 &= M44; h2 += c;
		c = h2 >> 42; h2 &= M42; h0 += c * 5;
		c = h0 >> 44; h0 &= M44; h1 += c;
	}
	/* g = h + 5 - 2^130: h >= p exactly when g does not borrow; the choice
	 * by a mask, never a branch */
	g0 = h0 + 5; c = g0 >> 44; g0 &= M44;
	g1 = h1 + c; c = g1 >> 44; g1 &= M44;
	g2 = h2 + c - (1ull << 42);
	mask = (g2 >> 63) - 1;
	h0 = (h0 & ~mask) | (g0 & mask);
	h1 = (h1 & ~mask) | (g1 & mask);
	h2 = (h2 & ~mask) | (g2 & mask);
	t0 = p->pad[0];
	t1 = p->pad[1];
	h0 += t0 & M44; c = h0 >> 44; h0 &= M44;
	h1 += ((t0 >> 44 | t1 << 20) & M44) + c; c = h1 >> 44; h1 &= M44;
	h2 += (t1 >> 24) + c;
	bc_store_le64(tag, h0 | h1 << 44);
	bc_store_le64(tag + 8, h1 >> 20 | h2 << 24);
}
#else
#define M26 0x3ffffffu

void bc_poly1305_init(struct bc_poly1305 *p, const uint8_t key[BC_POLY1305_KEY], int wide)
{
	(void)wide;
	/* r clamped as section 2.5 says, split into 26-bit limbs on the way */
	p->r[0] = bc_load_le32(key) & 0x3ffffff;
	p->r[1] = (bc_load_le32(key + 3) >> 2) & 0x3ffff03;
	p->r[2] = (bc_load_le32(key + 6) >> 4) & 0x3ffc0ff;
	p->r[3] = (bc_load_le32(key + 9) >> 6) & 0x3f03fff;
	p->r[4] = (bc_load_le32(key + 12) >> 8) & 0x00fffff;
	for (int i = 0; i < 4; i++) {
		p->s5[i] = p->r[i + 1] * 5;
		p->pad[i] = bc_load_le32(key + 16 + 4 * i);
	}
	memset(p->h, 0, sizeof(p->h));
	p->used = 0;
}

/* h = (h + m + hibit * 2^128) * r mod 2^130 - 5 for each block; 2^130 = 5
 * modulo p folds the high products back in through s5 = 5 r. */
static void blocks(struct bc_poly1305 *p, const uint8_t *m, size_t n, uint32_t hibit)
{
	const uint64_t r0 = p->r[0], r1 = p->r[1], r2 = p->r[2], r3 = p->r[3], r4 = p->r[4];
	const uint64_t s1 = p->s5[0], s2 = p->s5[1], s3 = p->s5[2], s4 = p->s5[3];
	uint32_t h0 = p->h[0], h1 = p->h[1], h2 = p->h[2], h3 = p->h[3], h4 = p->h[4];

	for (; n; n--, m += 16) {
		uint64_t d0, d1, d2, d3, d4, c;

		h0 += bc_load_le32(m) & M26;
		h1 += (bc_load_le32(m + 3) >> 2) & M26;
		h2 += (bc_load_le32(m + 6) >> 4) & M26;
		h3 += (bc_load_le32(m + 9) >> 6) & M26;
		h4 += (bc_load_le32(m + 12) >> 8) | hibit;
		d0 = h0 * r0 + h1 * s4 + h2 * s3 + h3 * s2 + h4 * s1;
		d1 = h0 * r1 + h1 * r0 + h2 * s4 + h3 * s3 + h4 * s2;
		d2 = h0 * r2 + h1 * r1 + h2 * r0 + h3 * s4 + h4 * s3;
		d3 = h0 * r3 + h1 * r2 + h2 * r1 + h3 * r0 + h4 * s4;
		d4 = h0 * r4 + h1 * r3 + h2 * r2 + h3 * r1 + h4 * r0;
		c = d0 >> 26; h0 = (uint32_t)d0 & M26; d1 += c;
		c = d1 >> 26; h1 = (uint32_t)d1 & M26; d2 += c;
		c = d2 >> 26; h2 = (uint32_t)d2 & M26; d3 += c;
		c = d3 >> 26; h3 = (uint32_t)d3 & M26; d4 += c;
		c = d4 >> 26; h4 = (uint32_t)d4 & M26;
		h0 += (uint32_t)c * 5;
		h1 += h0 >> 26;
		h0 &= M26;
	}
	p->h[0] = h0; p->h[1] = h1; p->h[2] = h2; p->h[3] = h3; p->h[4] = h4;
}

#define HIBIT (1u << 24)
/* h fully reduced modulo 2^130 - 5, plus s modulo 2^128 */
static void finish(struct bc_poly1305 *p, uint8_t tag[BC_POLY1305_TAG])
{
	uint32_t h0, h1, h2, h3, h4, g0, g1, g2, g3, g4, mask;
	uint64_t f;

	h0 = p->h[0]; h1 = p->h[1]; h2 = p->h[2]; h3 = p->h[3]; h4 = p->h[4];
	h2 += h1 >> 26; h1 &= M26;
	h3 += h2 >> 26; h2 &= M26;
	h4 += h3 >> 26; h3 &= M26;
	h0 += (h4 >> 26) * 5; h4 &= M26;
	h1 += h0 >> 26; h0 &= M26;
	/* g = h + 5 - 2^130: h >= p exactly when g does not borrow; the choice
	 * by a mask, never a branch */
	g0 = h0 + 5; g1 = h1 + (g0 >> 26); g0 &= M26;
	g2 = h2 + (g1 >> 26); g1 &= M26;
	g3 = h3 + (g2 >> 26); g2 &= M26;
	g4 = h4 + (g3 >> 26) - (1u << 26); g3 &= M26;
	mask = (g4 >> 31) - 1;     /* all ones when g4 did not go below zero */
	h0 = (h0 & ~mask) | (g0 & mask);
	h1 = (h1 & ~mask) | (g1 & mask);
	h2 = (h2 & ~mask) | (g2 & mask);
	h3 = (h3 & ~mask) | (g3 & mask);
	h4 = (h4 & ~mask) | (g4 & mask);
	/* 130 bits to 128, plus s modulo 2^128 */
	f = (uint64_t)(h0 | h1 << 26) + p->pad[0];
	bc_store_le32(tag, (uint32_t)f);
	f = (uint64_t)(h1 >> 6 | h2 << 20) + p->pad[1] + (f >> 32);
	bc_store_le32(tag + 4, (uint32_t)f);
	f = (uint64_t)(h2 >> 12 | h3 << 14) + p->pad[2] + (f >> 32);
	bc_store_le32(tag + 8, (uint32_t)f);
	f = (uint64_t)(h3 >> 18 | h4 << 8) + p->pad[3] + (f >> 32);
	bc_store_le32(tag + 12, (uint32_t)f);
}

#endif

#if !defined(BC_POLY1305_WIDE)
int bc_poly1305_wide(void)
{
	return 0;
}
#endif
void bc_poly1305_init_r(struct bc_poly1305 *p, const uint8_t r[BC_POLY1305_R])
{
	uint8_t key[BC_POLY1305_KEY] = { 0 };

	memcpy(key, r, BC_POLY1305_R);
	bc_poly1305_init(p, key, 0);   /* short runs between NH's units: the portable code */
	bc_wipe(key, sizeof(key));
}

void bc_poly1305_update(struct bc_poly1305 *p, const uint8_t *m, size_t len)
{
	if (bc_block16_fill(p->buf, &p->used, &m, &len))
		blocks(p, p->buf, 1, HIBIT);
	if (p->used)
		return;
	if (len >= 16) {
		size_t n = len / 16;
#if defined(BC_POLY1305_WIDE)
		size_t w = wide_blocks(p, m, n);

		m += 16 * w;
		n -= w;
#endif
		blocks(p, m, n, HIBIT);
		m += 16 * n;
		len &= 15;
	}
	if (len) {
		memcpy(p->buf, m, len);
		p->used = len;
	}
}

void bc_poly1305_pad16(struct bc_poly1305 *p)
{
	if (p->used) {
		memset(p->buf + p->used, 0, 16 - p->used);
		blocks(p, p->buf, 1, HIBIT);
		p->used = 0;
	}
}

void bc_poly1305_final(struct bc_poly1305 *p, uint8_t tag[BC_POLY1305_TAG])
{
	if (p->used) {             /* a last partial block: its 1 byte right after the data */
		p->buf[p->used] = 1;
		memset(p->buf + p->used + 1, 0, 15 - p->used);
		blocks(p, p->buf, 1, 0);
	}
	finish(p, tag);
	bc_wipe(p, sizeof(*p));
	/* the limbs of r that blocks() spilled, in this message's calls at this
	 * depth or a few frames below it (NH-Poly1305's r is a key of its tfm) */
	bc_burn_stack();
}
