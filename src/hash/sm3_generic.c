/* blockcrypt: SM3 in portable C (the kernel's "sm3-generic").
 * GB/T 32905-2016 (SM3 cryptographic hash algorithm), sections 4 and 5. */
#include "drivers.h"
#include "md32.h"

static const uint32_t sm3_iv[8] = {
	0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600,
	0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e,
};

static inline uint32_t rol32(uint32_t x, unsigned n)
{
	return x << n | x >> ((32 - n) & 31);
}

/* T_j <<< (j mod 32) for every round, so a round adds one constant. */
static const uint32_t sm3_t[64] = {
#define T0(j) (uint32_t)(0x79cc4519u << (j) | 0x79cc4519u >> ((32 - (j)) & 31))
#define T1(j) (uint32_t)(0x7a879d8au << ((j) % 32) | 0x7a879d8au >> ((32 - (j) % 32) & 31))
	T0(0), T0(1), T0(2), T0(3), T0(4), T0(5), T0(6), T0(7),
	T0(8), T0(9), T0(10), T0(11), T0(12), T0(13), T0(14), T0(15),
	T1(16), T1(17), T1(18), T1(19), T1(20), T1(21), T1(22), T1(23),
	T1(24), T1(25), T1(26), T1(27), T1(28), T1(29), T1(30), T1(31),
	T1(32), T1(33), T1(34), T1(35), T1(36), T1(37), T1(38), T1(39),
	T1(40), T1(41), T1(42), T1(43), T1(44), T1(45), T1(46), T1(47),
	T1(48), T1(49), T1(50), T1(51), T1(52), T1(53), T1(54), T1(55),
	T1(56), T1(57), T1(58), T1(59), T1(60), T1(61), T1(62), T1(63),
#undef T0
#undef T1
};

#define P0(x) ((x) ^ rol32(x, 9) ^ rol32(x, 17))
#define P1(x) ((x) ^ rol32(x, 15) ^ rol32(x, 23))
#define FF0(x, y, z) ((x) ^ (y) ^ (z))
#define GG0(x, y, z) ((x) ^ (y) ^ (z))
#define FF1(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))
#define GG1(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))

/* Message expansion (5.3.2), one word at a time just before the round that
 * first needs it: interleaved with the rounds it runs in their idle slots,
 * and a compiler cannot turn it into a vector loop with store-forwarding
 * stalls (gcc 12 at -O2 does that to a separate loop). */
#define EXPAND(j) (w[j] = P1(w[(j) - 16] ^ w[(j) - 9] ^ rol32(w[(j) - 3], 15)) ^ rol32(w[(j) - 13], 7) ^ w[(j) - 6])
#define NOEXPAND(j) ((void)0)

/* One round (5.3.3) with the registers renamed rather than shifted along:
 * B, D, F and H are the ones that change, and the caller rotates the names. */
#define ROUND(a, b, c, d, e, f, g, h, j, FF, GG, EXP) do {            \
		EXP((j) + 4);                                           \
		uint32_t a12 = rol32(a, 12);                            \
		uint32_t ss1 = rol32(a12 + (e) + sm3_t[j], 7);          \
		(d) += FF(a, b, c) + (ss1 ^ a12) + (w[j] ^ w[(j) + 4]); \
		(h) += GG(e, f, g) + ss1 + w[j];                        \
		(h) = P0(h);                                            \
		(b) = rol32(b, 9);                                      \
		(f) = rol32(f, 19);                                     \
	} while (0)

#define ROUNDS4(j, FF, GG, EXP)                                 \
	ROUND(a, b, c, d, e, f, g, h, (j) + 0, FF, GG, EXP);    \
	ROUND(d, a, b, c, h, e, f, g, (j) + 1, FF, GG, EXP);    \
	ROUND(c, d, a, b, g, h, e, f, (j) + 2, FF, GG, EXP);    \
	ROUND(b, c, d, a, f, g, h, e, (j) + 3, FF, GG, EXP)

static void sm3_compress(uint32_t st[8], const uint8_t *p, size_t nblocks)
{
	uint32_t w[68];

	for (; nblocks; nblocks--, p += 64) {
		uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
		uint32_t e = st[4], f = st[5], g = st[6], h = st[7];

		for (int j = 0; j < 16; j++)
			w[j] = bc_load_be32(p + 4 * j);
		ROUNDS4(0, FF0, GG0, NOEXPAND);
		ROUNDS4(4, FF0, GG0, NOEXPAND);
		ROUNDS4(8, FF0, GG0, NOEXPAND);
		ROUNDS4(12, FF0, GG0, EXPAND);
		for (int j = 16; j < 64; j += 8) {
			ROUNDS4(j, FF1, GG1, EXPAND);
			ROUNDS4(j + 4, FF1, GG1, EXPAND);
		}
		st[0] ^= a; st[1] ^= b; st[2] ^= c; st[3] ^= d;
		st[4] ^= e; st[5] ^= f; st[6] ^= g; st[7] ^= h;
	}
	/* The message may be key material. */
	bc_wipe(w, sizeof(w));
}

BC_MD32_SHASH(sm3, "sm3", sm3_iv, sm3_compress);
