/* bench/bench_iv.h: the per-operation IV of the side-by-side benchmarks (bench/peers.c, bench/floor.c).
 * A little-endian 64-bit sector number in a 16-byte IV, as IEEE 1619 and dm-crypt's plain64 IVs have it. */
#ifndef BENCH_IV_H
#define BENCH_IV_H

#include <stdint.h>
#include <string.h>

/* The IV of operation n: a little-endian sector number, as a disk workload has. Written
 * byte by byte; a library that then loads it whole waits for the bytes to reach the cache. */
static inline void bench_make_iv(uint8_t iv[16], uint64_t n)
{
	memset(iv, 0, 16);
	for (int i = 0; i < 8; i++)
		iv[i] = (uint8_t)(n >> (8 * i));
}

/* The same IV as dm-crypt's plain64 writes it: zeroed, then the sector number in one 8-byte
 * store (little-endian hosts), which the store buffer can hand to a load of that word. */
static inline void bench_make_iv_word(uint8_t iv[16], uint64_t n)
{
	memset(iv, 0, 16);
	memcpy(iv, &n, 8);
}

#endif
