/* blockcrypt: GHASH in constant-time portable C (the kernel's "ghash-generic" shash).
 * NIST SP 800-38D sections 6.3 and 6.4; shash semantics of Linux crypto/ghash-generic.c. */
#include "drivers.h"
#include "ghash.h"

/*
 * Carry-less products come from ordinary integer multiplications of operands
 * that keep only every fourth bit ("holes"). A kept bit of such a product
 * receives at most 15 (64-bit words, see prepare64) or 8 (32-bit words)
 * partial products, a count below 2^4, so a carry never reaches the next
 * kept bit and every kept bit is the XOR of its partial products. No table,
 * no branch and no address depends on H or the data.
 *
 * Field elements are loaded big-endian, so bit 127 of the 128-bit integer
 * is the coefficient of x^0 (the GCM bit order, SP 800-38D 6.3): the integer
 * product of two such values is the field product bit-reversed and short by
 * one bit, which gf128_mul undoes with a one-bit shift before reducing.
 */

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 u128;

/* Every fourth bit: bits 0, 4, 8, ...; 1, 5, 9, ...; and so on. */
static const uint64_t m4[4] = {
	0x1111111111111111, 0x2222222222222222, 0x4444444444444444, 0x8888888888888888,
};

/* y[0..3]: v's four bit groups without bits 60..63, so no group holds more
 * than 15 bits; y[4..7]: bits 60..63 of v as all-zero or all-one masks. */
static void prepare64(uint64_t y[8], uint64_t v)
{
	for (int i = 0; i < 4; i++) {
		y[i] = v & m4[i] & ~(0xfull << 60);
		y[4 + i] = 0 - (v >> (60 + i) & 1);
	}
}

/* The 128-bit carry-less product of x and the prepared y. Group i times
 * group j lands on group (i + j) mod 4, and a kept bit collects at most 15
 * partial products (y's groups are one bit short), so carries stay in the
 * holes. The four bits of y left out are added back by masked shifts. */
static inline void clmul64(const uint64_t y[8], uint64_t x, uint64_t *lo, uint64_t *hi)
{
	uint64_t x0 = x & m4[0], x1 = x & m4[1], x2 = x & m4[2], x3 = x & m4[3];
	u128 z0 = (u128)x0 * y[0] ^ (u128)x1 * y[3] ^ (u128)x2 * y[2] ^ (u128)x3 * y[1];
	u128 z1 = (u128)x0 * y[1] ^ (u128)x1 * y[0] ^ (u128)x2 * y[3] ^ (u128)x3 * y[2];
	u128 z2 = (u128)x0 * y[2] ^ (u128)x1 * y[1] ^ (u128)x2 * y[0] ^ (u128)x3 * y[3];
	u128 z3 = (u128)x0 * y[3] ^ (u128)x1 * y[2] ^ (u128)x2 * y[1] ^ (u128)x3 * y[0];
	uint64_t l = ((uint64_t)z0 & m4[0]) | ((uint64_t)z1 & m4[1]) | ((uint64_t)z2 & m4[2]) | ((uint64_t)z3 & m4[3]);
	uint64_t h = ((uint64_t)(z0 >> 64) & m4[0]) | ((uint64_t)(z1 >> 64) & m4[1]) |
	             ((uint64_t)(z2 >> 64) & m4[2]) | ((uint64_t)(z3 >> 64) & m4[3]);

	for (int i = 0; i < 4; i++) {
		uint64_t u = x & y[4 + i];
		l ^= u << (60 + i);
		h ^= u >> (4 - i);
	}
	*lo = l;
	*hi = h;
}

#else /* no 64x64->128 product: 32x32->64 ones, which every 32-bit CPU has */

static const uint32_t m4[4] = { 0x11111111, 0x22222222, 0x44444444, 0x88888888 };
#define M4_64(i) ((uint64_t)m4[i] << 32 | m4[i])

static void prepare32(uint32_t y[4], uint32_t v)
{
	for (int i = 0; i < 4; i++)
		y[i] = v & m4[i];
}

/* Four groups of 8 bits: at most 8 partial products meet in one bit. */
static inline uint64_t clmul32(const uint32_t y[4], uint32_t x)
{
	uint32_t x0 = x & m4[0], x1 = x & m4[1], x2 = x & m4[2], x3 = x & m4[3];
	uint64_t z0 = (uint64_t)x0 * y[0] ^ (uint64_t)x1 * y[3] ^ (uint64_t)x2 * y[2] ^ (uint64_t)x3 * y[1];
	uint64_t z1 = (uint64_t)x0 * y[1] ^ (uint64_t)x1 * y[0] ^ (uint64_t)x2 * y[3] ^ (uint64_t)x3 * y[2];
	uint64_t z2 = (uint64_t)x0 * y[2] ^ (uint64_t)x1 * y[1] ^ (uint64_t)x2 * y[0] ^ (uint64_t)x3 * y[3];
	uint64_t z3 = (uint64_t)x0 * y[3] ^ (uint64_t)x1 * y[2] ^ (uint64_t)x2 * y[1] ^ (uint64_t)x3 * y[0];

	return (z0 & M4_64(0)) | (z1 & M4_64(1)) | (z2 & M4_64(2)) | (z3 & M4_64(3));
}

/* y: the low half, the high half and their XOR, as Karatsuba needs them. */
static void prepare64(uint32_t y[3][4], uint64_t v)
{
	prepare32(y[0], (uint32_t)v);
	prepare32(y[1], (uint32_t)(v >> 32));
	prepare32(y[2], (uint32_t)v ^ (uint32_t)(v >> 32));
}

static inline void clmul64(const uint32_t y[3][4], uint64_t x, uint64_t *lo, uint64_t *hi)
{
	uint32_t xl = (uint32_t)x, xh = (uint32_t)(x >> 32);
	uint64_t l = clmul32(y[0], xl), h = clmul32(y[1], xh);
	uint64_t m = clmul32(y[2], xl ^ xh) ^ l ^ h;

	*lo = l ^ m << 32;
	*hi = h ^ m >> 32;
}

#endif

/* x = x * H, with x as two big-endian-loaded 64-bit words (x1 holds bytes 0..7). */
static inline void gf128_mul(const struct bc_ghash_key *k, uint64_t *x1, uint64_t *x0)
{
	uint64_t a0, a1, b0, b1, c0, c1, z3, z2, z1, z0, v1;

	/* Karatsuba: three 64x64 products instead of four. */
	clmul64(k->h[0], *x1, &a0, &a1);
	clmul64(k->h[1], *x0, &b0, &b1);
	clmul64(k->h[2], *x1 ^ *x0, &c0, &c1);
	c0 ^= a0 ^ b0;
	c1 ^= a1 ^ b1;
	z3 = a1;
	z2 = a0 ^ c1;
	z1 = b1 ^ c0;
	z0 = b0;

	/* Reflected operands leave the 255-bit product one bit short of 256. */
	z3 = z3 << 1 | z2 >> 63;
	z2 = z2 << 1 | z1 >> 63;
	z1 = z1 << 1 | z0 >> 63;
	z0 <<= 1;

	/* Reduce by x^128 = x^7 + x^2 + x + 1; multiplying by x^k is a right
	 * shift here. The bits z1:z0 would shift out by 1, 2 and 7 are folded
	 * back in first, then the whole high half is folded onto the low. */
	v1 = z1 ^ z0 << 63 ^ z0 << 62 ^ z0 << 57;
	*x1 = z3 ^ v1 ^ v1 >> 1 ^ v1 >> 2 ^ v1 >> 7;
	*x0 = z2 ^ z0 ^ z0 >> 1 ^ z0 >> 2 ^ z0 >> 7 ^ v1 << 63 ^ v1 << 62 ^ v1 << 57;
}

void bc_ghash_setkey_generic(struct bc_ghash_key *k, const uint8_t h[16])
{
	uint64_t h1 = bc_load_be64(h), h0 = bc_load_be64(h + 8);

	prepare64(k->h[0], h1);
	prepare64(k->h[1], h0);
	prepare64(k->h[2], h1 ^ h0);
}

/* Over whole blocks: GHASH's loads the bytes big-endian; POLYVAL's reads
 * them reversed (RFC 8452 appendix A), which is the two little-endian
 * halves swapped, so neither copies a block. */
static inline void gf128_blocks(const struct bc_ghash_key *k, uint8_t acc[16], const uint8_t *src, size_t nblocks,
				int polyval)
{
	uint64_t x1 = polyval ? bc_load_le64(acc + 8) : bc_load_be64(acc);
	uint64_t x0 = polyval ? bc_load_le64(acc) : bc_load_be64(acc + 8);

	for (; nblocks; nblocks--, src += 16) {
		x1 ^= polyval ? bc_load_le64(src + 8) : bc_load_be64(src);
		x0 ^= polyval ? bc_load_le64(src) : bc_load_be64(src + 8);
		gf128_mul(k, &x1, &x0);
	}
	if (polyval) {
		bc_store_le64(acc + 8, x1);
		bc_store_le64(acc, x0);
	} else {
		bc_store_be64(acc, x1);
		bc_store_be64(acc + 8, x0);
	}
}

void bc_ghash_blocks_generic(const struct bc_ghash_key *k, uint8_t acc[16], const uint8_t *src, size_t nblocks)
{
	gf128_blocks(k, acc, src, nblocks, 0);
}

void bc_polyval_blocks_generic(const struct bc_ghash_key *k, uint8_t acc[16], const uint8_t *src, size_t nblocks)
{
	gf128_blocks(k, acc, src, nblocks, 1);
}

void bc_polyval_ghash_key(uint8_t g[16], const uint8_t h[16])
{
	for (int i = 0; i < 16; i++)
		g[i] = h[15 - i];
	bc_gf128mul_x_lle(g, g);
}

void bc_polyval_setkey_generic(struct bc_ghash_key *k, const uint8_t h[16])
{
	uint8_t g[16];

	bc_polyval_ghash_key(g, h);
	bc_ghash_setkey_generic(k, g);
	bc_wipe(g, sizeof(g));
}

/* ---- the "ghash" shash ---------------------------------------------------- */

static int ghash_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	if (keylen != 16)
		return -EINVAL;
	bc_ghash_setkey_generic(ctx, key);
	return 0;
}

void bc_ghash_generic_init(const void *ctx, void *desc)
{
	(void)ctx;
	memset(desc, 0, sizeof(struct bc_ghash_desc));
}

static void ghash_update(const void *ctx, void *desc, const uint8_t *data, size_t len)
{
	bc_ghash_desc_update(ctx, desc, data, len, bc_ghash_blocks_generic);
}

static void ghash_final(const void *ctx, void *desc, uint8_t *out)
{
	bc_ghash_desc_final(ctx, desc, out, bc_ghash_blocks_generic);
}

const struct bc_shash_alg bc_ghash_generic =
	BC_GF128_GENERIC_SHASH("ghash", "ghash-generic", ghash_setkey, ghash_update, ghash_final);
