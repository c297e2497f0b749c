/* blockcrypt x86-64: Serpent on 256-bit registers, 16 blocks in flight (drivers "serpent-avx2", "MODE-serpent-avx2").
 * Anderson, Biham, Knudsen, "Serpent: A Proposal for the AES"; IEEE 1619-2018 (xts keys). Needs AVX2. */
#include "drivers.h"

#if defined(__x86_64__)
#define SPX_BITS 256
#define SPX_TARGET "avx2"
#include "serpent_x86.h"

int bc_serpent_x86_skcipher_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	(void)flags;
	return bc_serpent_setkey(ctx, key, keylen);
}

/* Both halves have the same length: once the first is accepted, so is the second. */
int bc_serpent_x86_xts_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	struct bc_serpent_x86_xts_key *k = ctx;
	size_t half = keylen / 2;

	if (keylen % 2 || half > 32)
		return -EINVAL;
	if (!(flags & BC_ALLOW_WEAK_KEYS) && !bc_memneq(key, key + half, half))
		return -EINVAL;
	bc_serpent_setkey(&k->k1, key, half);
	return bc_serpent_setkey(&k->k2, key + half, half);
}

BC_SERPENT_X86_DRIVERS(avx2, "avx2", 200, 400, BC_CPU_AVX | BC_CPU_AVX2);
#endif
