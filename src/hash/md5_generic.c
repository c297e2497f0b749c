/* blockcrypt: MD5 in portable C (the kernel's "md5-generic"), for the protocols and formats that still name it.
 * RFC 1321, section 3.4 (steps), 3.3 (initial value) and the table T[i] = floor(2^32 * abs(sin(i))). */
#include "drivers.h"
#include "md32.h"

static const uint32_t md5_iv[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };

static const uint32_t md5_t[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
	0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
	0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
	0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
	0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
	0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

static inline uint32_t rol(uint32_t x, unsigned n)
{
	return x << n | x >> (32 - n);
}

/* The four auxiliary functions, F and G with one operation fewer (same
 * truth tables as 3.4). */
#define F(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define G(x, y, z) ((y) ^ ((z) & ((x) ^ (y))))
#define H(x, y, z) ((x) ^ (y) ^ (z))
#define I(x, y, z) ((y) ^ ((x) | ~(z)))

/* a = b + ((a + FN(b,c,d) + X[k] + T[i]) <<< s), the names rotated by the caller. */
#define STEP(FN, a, b, c, d, k, s, i) ((a) = (b) + rol((a) + FN(b, c, d) + x[k] + md5_t[i], s))

/* Four steps of one round: message words k0, k0 + dk, ... (mod 16), shifts s0..s3. */
#define STEP4(FN, i, k0, dk, s0, s1, s2, s3)                             \
	STEP(FN, a, b, c, d, (k0) & 15, s0, i);                          \
	STEP(FN, d, a, b, c, ((k0) + (dk)) & 15, s1, (i) + 1);           \
	STEP(FN, c, d, a, b, ((k0) + 2 * (dk)) & 15, s2, (i) + 2);       \
	STEP(FN, b, c, d, a, ((k0) + 3 * (dk)) & 15, s3, (i) + 3)

static void md5_compress(uint32_t st[8], const uint8_t *p, size_t nblocks)
{
	uint32_t x[16];

	for (; nblocks; nblocks--, p += 64) {
		uint32_t a = st[0], b = st[1], c = st[2], d = st[3];

		for (int j = 0; j < 16; j++)
			x[j] = bc_load_le32(p + 4 * j);
		/* Round 1: X[i]; round 2: X[1 + 5i]; round 3: X[5 + 3i]; round 4: X[7i]. */
#pragma GCC unroll 4
		for (int j = 0; j < 16; j += 4) {
			STEP4(F, j, j, 1, 7, 12, 17, 22);
		}
#pragma GCC unroll 4
		for (int j = 0; j < 16; j += 4) {
			STEP4(G, 16 + j, 1 + 5 * j, 5, 5, 9, 14, 20);
		}
#pragma GCC unroll 4
		for (int j = 0; j < 16; j += 4) {
			STEP4(H, 32 + j, 5 + 3 * j, 3, 4, 11, 16, 23);
		}
#pragma GCC unroll 4
		for (int j = 0; j < 16; j += 4) {
			STEP4(I, 48 + j, 7 * j, 7, 6, 10, 15, 21);
		}
		st[0] += a; st[1] += b; st[2] += c; st[3] += d;
	}
	/* The message may be key material. */
	bc_wipe(x, sizeof(x));
}

BC_MD32_SHASH_FULL(md5_generic, "md5", "md5-generic", 100, 0, md5_iv, 4, md5_compress, 16, 1);
