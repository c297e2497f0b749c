/* blockcrypt: SHA-256 and SHA-224 in portable C (the kernel's "sha256-generic" and "sha224-generic").
 * FIPS 180-4, sections 4.1.2, 4.2.2, 5.3.2, 5.3.3, 6.2 and 6.3. */
#include "drivers.h"
#include "md32.h"
#include "sha256.h"

const uint32_t bc_sha256_iv[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

/* SHA-224 is SHA-256 from another initial value, cut to seven words (6.3). */
const uint32_t bc_sha224_iv[8] = {
	0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
	0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4,
};

const uint32_t bc_sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* The message schedule (6.2.2 step 1) kept as a 16-word window: round i >= 16
 * overwrites the word it no longer needs. */
#define SCHED(i) (bc_sha256_k[i] + (w[(i) & 15] += BC_SHA256_SSIG1(w[((i) - 2) & 15]) + w[((i) - 7) & 15] + \
                                                BC_SHA256_SSIG0(w[((i) - 15) & 15])))

#define LOADW(i) (bc_sha256_k[i] + (w[i] = bc_load_be32(p + 4 * (i))))

void bc_sha256_compress_generic(uint32_t st[8], const uint8_t *p, size_t nblocks)
{
	uint32_t w[16];

	for (; nblocks; nblocks--, p += 64) {
		uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
		uint32_t e = st[4], f = st[5], g = st[6], h = st[7];

		BC_SHA256_ROUNDS8(0, LOADW);
		BC_SHA256_ROUNDS8(8, LOADW);
		for (int i = 16; i < 64; i += 16) {
			BC_SHA256_ROUNDS8(i, SCHED);
			BC_SHA256_ROUNDS8(i + 8, SCHED);
		}
		st[0] += a; st[1] += b; st[2] += c; st[3] += d;
		st[4] += e; st[5] += f; st[6] += g; st[7] += h;
	}
	/* The message may be a key (essiv hashes one). */
	bc_wipe(w, sizeof(w));
}

BC_MD32_SHASH(sha256_generic, "sha256", "sha256-generic", 100, 0, bc_sha256_iv, bc_sha256_compress_generic);
BC_SHA224_SHASH(sha224_generic, "sha224-generic", 100, 0, bc_sha256_compress_generic);
