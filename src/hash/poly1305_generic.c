/* blockcrypt: Poly1305 in portable integer arithmetic, constant time: 44-bit limbs with 128-bit products, or 26-bit limbs with 64-bit ones.
 * RFC 8439 section 2.5 (the algorithm) and 2.5.1 (clamping of r). */
#include "poly1305.h"

#if defined(BC_POLY1305_LIMB44)
#define M44 0xfffffffffffull
#define M42 0x3ffffffffffull

void bc_poly1305_init(struct bc_poly1305 *p, const uint8_t key[BC_POLY1305_KEY])
{
	uint64_t t0 = bc_load_le64(key), t1 = bc_load_le64(key + 8);

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

static void blocks(struct bc_poly1305 *p, const uint8_t *m, size_t n, uint64_t hibit)
{
	typedef unsigned __int128 u128;
	const uint64_t r0 = p->r[0], r1 = p->r[1], r2 = p->r[2], s1 = p->s20[0], s2 = p->s20[1];
	uint64_t h0 = p->h[0], h1 = p->h[1], h2 = p->h[2];

	for (; n; n--, m += 16) {
		uint64_t t0 = bc_load_le64(m), t1 = bc_load_le64(m + 8), c;
		u128 d0, d1, d2;

		h0 += t0 & M44;
		h1 += (t0 >> 44 | t1 << 20) & M44;
		h2 += (t1 >> 24 & M42) | hibit;
		d0 = (u128)h0 * r0 + (u128)h1 * s2 + (u128)h2 * s1;
		d1 = (u128)h0 * r1 + (u128)h1 * r0 + (u128)h2 * s2;
		d2 = (u128)h0 * r2 + (u128)h1 * r1 + (u128)h2 * r0;
		c = (uint64_t)(d0 >> 44); h0 = (uint64_t)d0 & M44; d1 += c;
		c = (uint64_t)(d1 >> 44); h1 = (uint64_t)d1 & M44; d2 += c;
		c = (uint64_t)(d2 >> 42); h2 = (uint64_t)d2 & M42;
		h0 += c * 5;
		h1 += h0 >> 44;
		h0 &= M44;
	}
	p->h[0] = h0; p->h[1] = h1; p->h[2] = h2;
}

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

void bc_poly1305_init(struct bc_poly1305 *p, const uint8_t key[BC_POLY1305_KEY])
{
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

void bc_poly1305_init_r(struct bc_poly1305 *p, const uint8_t r[BC_POLY1305_R])
{
	uint8_t key[BC_POLY1305_KEY] = { 0 };

	memcpy(key, r, BC_POLY1305_R);
	bc_poly1305_init(p, key);
	bc_wipe(key, sizeof(key));
}

void bc_poly1305_update(struct bc_poly1305 *p, const uint8_t *m, size_t len)
{
	if (bc_block16_fill(p->buf, &p->used, &m, &len))
		blocks(p, p->buf, 1, HIBIT);
	if (p->used)
		return;
	if (len >= 16) {
		blocks(p, m, len / 16, HIBIT);
		m += len & ~(size_t)15;
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
}
