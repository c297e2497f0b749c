/* bench/floor.c: the least a 16-byte xts(aes) encryption can take in bench-peers' per-operation loop, beside blockcrypt's,
 * and blockcrypt beside nettle in dm-crypt's plain64 loop. IEEE 1619-2018 (one block: C = E_K1(P ^ T) ^ T, T = E_K2(IV)). */
#include <nettle/xts.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blockcrypt.h"
#include "bench_iv.h"
#include "speed.h"
#include "aes_x86.h"

#define OPS 20000      /* operations per timed run */
#define RUNS 200       /* the fastest run counts */

/* Keys for the floor kernel: their values do not change its timing. */
static _Alignas(16) uint8_t rk1[15][16], rk2[15][16];

/* The floor of any implementation: xts-aes-vaes-avx2's own one-block path
 * (bc_aes_x86_xts16: 2 Nr dependent AES instructions, every XOR but the
 * IV's whitening folded into a round key), without the API around it. */
__attribute__((noinline, target("aes,sse4.1,ssse3"))) static void floor_xts1(const uint8_t *iv, const uint8_t *src,
                                                                             uint8_t *dst, int nr)
{
	if (nr == 10)
		bc_aes_x86_xts16(rk2, rk1, 10, 1, iv, src, dst);
	else
		bc_aes_x86_xts16(rk2, rk1, 14, 1, iv, src, dst);
}

/* One operation as bench-peers makes it: the IV copied (its bc_op copies it because cbc and ctr
 * write it back), then the call; in place on buf. */
__attribute__((noinline)) static void op_blockcrypt(bc_skcipher *sk, int nr, const uint8_t *iv, uint8_t *buf)
{
	uint8_t v[16];

	(void)nr;
	memcpy(v, iv, 16);
	if (bc_skcipher_encrypt(sk, v, buf, buf, 16))
		abort();
}

__attribute__((noinline)) static void op_floor(bc_skcipher *sk, int nr, const uint8_t *iv, uint8_t *buf)
{
	uint8_t v[16];

	(void)sk;
	memcpy(v, iv, 16);
	floor_xts1(v, buf, buf, nr);
}

/* dm-crypt's plain64 loop: the IV zeroed, the sector number stored into
 * it as one 8-byte word, and the IV passed as it is (no copy). */
static void make_iv_plain64(uint8_t iv[16], uint64_t n)
{
	memset(iv, 0, 16);
	n = __builtin_bswap64(__builtin_bswap64(n));   /* x86: little-endian already */
	memcpy(iv, &n, 8);
}

__attribute__((noinline)) static void op_bc_plain64(bc_skcipher *sk, int nr, const uint8_t *iv, uint8_t *buf)
{
	(void)nr;
	if (bc_skcipher_encrypt(sk, (uint8_t *)(uintptr_t)iv, buf, buf, 16))
		abort();
}

static struct xts_aes128_key nettle128;
static struct xts_aes256_key nettle256;

__attribute__((noinline)) static void op_nettle_plain64(bc_skcipher *sk, int nr, const uint8_t *iv, uint8_t *buf)
{
	(void)sk;
	if (nr == 10)
		xts_aes128_encrypt_message(&nettle128, iv, 16, buf, buf);
	else
		xts_aes256_encrypt_message(&nettle256, iv, 16, buf, buf);
}

/* The same IV built in a register and stored whole: what bench_make_iv's byte stores cost. */
static void make_iv_whole(uint8_t iv[16], uint64_t n)
{
	_mm_storeu_si128((__m128i *)(void *)iv, _mm_cvtsi64_si128((long long)n));
}

/* Core cycles per operation: the fastest of RUNS runs, at the core clock measured around it. */
static double cycles_per_op(void (*op)(bc_skcipher *, int, const uint8_t *, uint8_t *),
                            void (*make_iv)(uint8_t *, uint64_t), bc_skcipher *sk, int nr)
{
	uint8_t iv[16], buf[16] = { 0 };
	double best = 1e30, hz = speed_core_hz();

	for (int run = 0; run < RUNS; run++) {
		double t0 = speed_seconds(CLOCK_MONOTONIC), dt;

		for (uint64_t i = 0; i < OPS; i++) {
			make_iv(iv, i);
			op(sk, nr, iv, buf);
		}
		dt = speed_seconds(CLOCK_MONOTONIC) - t0;
		if (dt < best)
			best = dt;
	}
	hz = (hz + speed_core_hz()) / 2;
	return best * hz / OPS;
}

int main(void)
{
	static const struct { const char *label; size_t keylen; int nr; } keys[] = {
		{ "aes-128-xts", 32, 10 }, { "aes-256-xts", 64, 14 },
	};
	uint8_t key[64];

	if (!__builtin_cpu_supports("aes")) {
		fprintf(stderr, "floor: this CPU has no AES-NI\n");
		return 1;
	}
	for (int i = 0; i < 64; i++)
		key[i] = (uint8_t)(7 * i + 1);
	memset(rk1, 0x11, sizeof(rk1));
	memset(rk2, 0x22, sizeof(rk2));
	printf("# 16-byte xts(aes) encryption in bench-peers' loop (IV written byte by byte, copied, then the call),\n"
	       "# core cycles per operation (fastest of %d runs of %d; core clock from chains of dependent additions):\n"
	       "# floor = 2 x rounds dependent AES rounds and nothing else, the least any library can take there;\n"
	       "# last column: the floor with the IV stored whole, i.e. what the loop's byte-wise IV costs\n",
	       RUNS, OPS);
	xts_aes128_set_encrypt_key(&nettle128, key);
	xts_aes256_set_encrypt_key(&nettle256, key);
	printf("# plain64 columns: the IV zeroed and the sector number stored as one 8-byte word (dm-crypt's\n"
	       "# plain64), passed uncopied, blockcrypt and nettle; ratio = nettle / blockcrypt cycles\n");
	printf("%-12s %-22s %10s %8s %14s %10s %10s %6s\n", "algorithm", "driver", "blockcrypt", "floor", "floor, IV whole",
	       "plain64 bc", "nettle", "ratio");
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		bc_skcipher *sk;

		if (bc_skcipher_alloc(&sk, "xts(aes)") || bc_skcipher_setkey(sk, key, keys[k].keylen)) {
			fprintf(stderr, "floor: cannot set up xts(aes)\n");
			return 1;
		}
		double p_bc = cycles_per_op(op_bc_plain64, make_iv_plain64, sk, keys[k].nr);
		double p_nt = cycles_per_op(op_nettle_plain64, make_iv_plain64, sk, keys[k].nr);

		printf("%-12s %-22s %10.1f %8.1f %14.1f %10.1f %10.1f %6.2f\n", keys[k].label, bc_skcipher_driver(sk),
		       cycles_per_op(op_blockcrypt, bench_make_iv, sk, keys[k].nr),
		       cycles_per_op(op_floor, bench_make_iv, sk, keys[k].nr),
		       cycles_per_op(op_floor, make_iv_whole, sk, keys[k].nr), p_bc, p_nt, p_nt / p_bc);
		bc_skcipher_free(sk);
	}
	return 0;
}
