/* blockcrypt: SM3 in portable C (the kernel's "sm3-generic").
 * GB/T 32905-2016 (SM3 cryptographic hash algorithm), sections 4 and 5. */
#include "drivers.h"
#include "md32.h"
#include "sm3.h"

const uint32_t bc_sm3_iv[8] = {
	0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600,
	0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e,
};

/* The expansion one word at a time just before the round that first needs
 * it: interleaved with the rounds it runs in their idle slots, and a
 * compiler cannot turn it into a vector loop with store-forwarding stalls
 * (gcc 12 at -O2 does that to a separate loop). */
#define EXPAND(j) BC_SM3_EXPAND(w, j)
#define W(j) w[j]
#define WP(j) (w[j] ^ w[(j) + 4])

void bc_sm3_compress_generic(uint32_t st[8], const uint8_t *p, size_t nblocks)
{
	uint32_t w[68];

	for (; nblocks; nblocks--, p += 64) {
		uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
		uint32_t e = st[4], f = st[5], g = st[6], h = st[7];

		for (int j = 0; j < 16; j++)
			w[j] = bc_load_be32(p + 4 * j);
		BC_SM3_ROUNDS4(0, BC_SM3_FF0, BC_SM3_GG0, BC_SM3_NOEXPAND, W, WP);
		BC_SM3_ROUNDS4(4, BC_SM3_FF0, BC_SM3_GG0, BC_SM3_NOEXPAND, W, WP);
		BC_SM3_ROUNDS4(8, BC_SM3_FF0, BC_SM3_GG0, BC_SM3_NOEXPAND, W, WP);
		BC_SM3_ROUNDS4(12, BC_SM3_FF0, BC_SM3_GG0, EXPAND, W, WP);
		for (int j = 16; j < 64; j += 8) {
			BC_SM3_ROUNDS4(j, BC_SM3_FF1, BC_SM3_GG1, EXPAND, W, WP);
			BC_SM3_ROUNDS4(j + 4, BC_SM3_FF1, BC_SM3_GG1, EXPAND, W, WP);
		}
		st[0] ^= a; st[1] ^= b; st[2] ^= c; st[3] ^= d;
		st[4] ^= e; st[5] ^= f; st[6] ^= g; st[7] ^= h;
	}
	/* The message may be key material. */
	bc_wipe(w, sizeof(w));
}

BC_MD32_SHASH(sm3_generic, "sm3", "sm3-generic", 100, 0, bc_sm3_iv, bc_sm3_compress_generic);
