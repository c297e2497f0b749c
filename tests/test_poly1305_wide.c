/* blockcrypt tests: the wide (x86-64 AVX-512 IFMA, else AVX2) Poly1305 code of src/hash/poly1305.h against the portable code
 * alone, at every length 0..2000, random and all-ones keys and text, whole and split updates. RFC 8439 section 2.5. */
#include <stdio.h>

#include "common.h"
#include "../src/hash/poly1305.h"

#define MAXLEN 2000

/* The tag of m, given to update in pieces of random lengths when split (long
 * ones too, so the wide code also starts behind a partial block), with a
 * pad16 after the first piece when padded. */
static void tag_of(const uint8_t key[BC_POLY1305_KEY], const uint8_t *m, size_t len, int wide, int split, int padded,
		   uint8_t tag[BC_POLY1305_TAG], int *went_wide)
{
	struct bc_poly1305 p;
	size_t off = 0;

	bc_poly1305_init(&p, key, wide);
	while (off < len) {
		size_t n = split ? 1 + rng_below(rng_below(2) ? 600 : 20) : len;

		n = n < len - off ? n : len - off;
		bc_poly1305_update(&p, m + off, n);
		if (padded && !off)
			bc_poly1305_pad16(&p);
		off += n;
	}
#if defined(BC_POLY1305_WIDE)
	*went_wide |= (p.wide & BC_POLY1305_W_MADE) != 0;
#else
	(void)went_wide;
#endif
	bc_poly1305_final(&p, tag);
}

int main(void)
{
	static uint8_t m[MAXLEN];
	uint8_t key[BC_POLY1305_KEY], want[BC_POLY1305_TAG], got[BC_POLY1305_TAG];
	int went_wide = 0, dummy = 0, wide;

	test_init();
	wide = bc_poly1305_wide();
	if (!wide) {
		printf("test_poly1305_wide: no wide Poly1305 code on this CPU or build, nothing to compare\n");
		return test_summary("test_poly1305_wide");
	}
	rng_seed(0x1305);
	for (size_t len = 0; len <= MAXLEN; len++) {
		/* kind 0: random; 1: all ones (the largest limbs, every carry) */
		for (int kind = 0; kind < 2; kind++) {
			if (kind) {
				memset(key, 0xff, sizeof(key));
				memset(m, 0xff, len);
			} else {
				rng_fill(key, sizeof(key));
				rng_fill(m, len);
			}
			for (int mode = 0; mode < 4; mode++) {
				uint64_t seed = rng_u64();
				int split = mode & 1, padded = mode >> 1;

				set_context("len %zu kind %d split %d pad16 %d", len, kind, split, padded);
				rng_seed(seed);
				tag_of(key, m, len, 0, split, padded, want, &dummy);
				rng_seed(seed);    /* the same pieces */
				tag_of(key, m, len, wide, split, padded, got, &went_wide);
				CHECK(!memcmp(want, got, sizeof(want)), "tag %s, portable %s", hex_str(got, sizeof(got)),
				      hex_str(want, sizeof(want)));
				tmp_free_all();
			}
		}
	}
	set_context("all lengths");
	CHECK(went_wide, "the wide code never ran");
	return test_summary("test_poly1305_wide");
}
