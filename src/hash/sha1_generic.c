/* blockcrypt: SHA-1 in portable C (the kernel's "sha1-generic").
 * FIPS 180-4, sections 4.1.1, 4.2.1, 5.3.1 and 6.1. */
#include "drivers.h"
#include "md32.h"
#include "sha1.h"

const uint32_t bc_sha1_iv[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };

/* The message schedule (6.1.2 step 1) kept as a 16-word window: round
 * t >= 16 overwrites the word it no longer needs. */
#define SCHED(t) (w[(t) & 15] = bc_sha1_rol(w[((t) - 3) & 15] ^ w[((t) - 8) & 15] ^ w[((t) - 14) & 15] ^ \
                                            w[(t) & 15], 1))
#define WK0(t) (BC_SHA1_K0 + ((t) < 16 ? (w[t] = bc_load_be32(p + 4 * (t))) : SCHED(t)))
#define WK1(t) (BC_SHA1_K1 + SCHED(t))
#define WK2(t) (BC_SHA1_K2 + SCHED(t))
#define WK3(t) (BC_SHA1_K3 + SCHED(t))

void bc_sha1_compress_generic(uint32_t st[8], const uint8_t *p, size_t nblocks)
{
	uint32_t w[16];

	for (; nblocks; nblocks--, p += 64) {
		uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4];

		BC_SHA1_ROUNDS20(0, BC_SHA1_CH, WK0);
		BC_SHA1_ROUNDS20(20, BC_SHA1_PARITY, WK1);
		BC_SHA1_ROUNDS20(40, BC_SHA1_MAJ, WK2);
		BC_SHA1_ROUNDS20(60, BC_SHA1_PARITY, WK3);
		st[0] += a; st[1] += b; st[2] += c; st[3] += d; st[4] += e;
	}
	/* The message may be a key. */
	bc_wipe(w, sizeof(w));
}

BC_MD32_SHASH_FULL(sha1_generic, "sha1", "sha1-generic", 100, 0, bc_sha1_iv, 5, bc_sha1_compress_generic, 20, 0);
