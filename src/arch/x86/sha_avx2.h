/* blockcrypt x86: the block-pair loop shared by sha1-avx2, sha256-avx2 and sha512-avx2.
 * FIPS 180-4 sections 6.1.2, 6.2.2 and 6.4.2 (the schedule of each block is independent of the state). */
#ifndef BC_SHA_AVX2_H
#define BC_SHA_AVX2_H

/* The compress fn of a driver whose file defines struct wk_pair (W + K of
 * two blocks, the second one half a group, half, further on), sched_load
 * (the message words of both blocks), sched_step (from first to nsteps - 1)
 * and rounds (one block from wk, and with next the schedule of the next
 * pair in between). Blocks go in pairs (a last odd one is scheduled twice
 * over and used once); the first block of each pair runs while the next
 * pair is scheduled. A single block (short messages, most finals) goes to
 * the portable code generic: the first schedule would overlap nothing, and
 * the portable rounds make their schedule as they go. */
#define BC_SHA_AVX2_PAIRS(fn, word_t, bs, nx, first, nsteps, half, generic)                            \
	static BC_X86_AVX2_BMI2 void rounds_only(word_t st[8], const word_t *wk)                       \
	{                                                                                              \
		rounds(st, wk, NULL, NULL, NULL);                                                      \
	}                                                                                              \
	static BC_X86_AVX2_BMI2 void rounds_and_schedule(word_t st[8], const word_t *wk,                \
	                                                 struct wk_pair *next, const uint8_t *p0,      \
	                                                 const uint8_t *p1)                            \
	{                                                                                              \
		rounds(st, wk, next, p0, p1);                                                          \
	}                                                                                              \
	static BC_X86_AVX2_BMI2 void fn(word_t st[8], const uint8_t *p, size_t nblocks)                \
	{                                                                                              \
		struct wk_pair wk[2];                                                                  \
		__m256i x[nx];                                                                         \
		int cur = 0;                                                                           \
                                                                                                       \
		if (nblocks < 2) {                                                                     \
			generic(st, p, nblocks);                                                       \
			return;                                                                        \
		}                                                                                      \
		sched_load(x, &wk[0], p, p + (bs));                                                    \
		for (int i = first; i < nsteps; i++)                                                   \
			sched_step(x, &wk[0], i);                                                      \
		while (nblocks) {                                                                      \
			size_t n = nblocks >= 2 ? 2 : 1;                                               \
			const uint8_t *np = p + (bs) * n;                                              \
                                                                                                       \
			/* The schedule's stores must reach memory: the rounds read it there. */       \
			__asm__("" : : "r"(wk) : "memory");                                            \
			if (nblocks > n)                                                               \
				rounds_and_schedule(st, wk[cur].v, &wk[cur ^ 1], np,                   \
				                    np + (bs) * (nblocks - n >= 2));                   \
			else                                                                           \
				rounds_only(st, wk[cur].v);                                            \
			if (n == 2)                                                                    \
				rounds_only(st, wk[cur].v + (half));                                   \
			cur ^= 1;                                                                      \
			p = np;                                                                        \
			nblocks -= n;                                                                  \
		}                                                                                      \
		/* The message may be a key. */                                                        \
		bc_wipe(wk, sizeof(wk));                                                               \
	}

#endif
