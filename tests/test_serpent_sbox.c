/* blockcrypt tests: Serpent's S-box circuits (src/cipher/serpent.h), all 16 inputs of every S-box and its inverse
 * at once, against the tables of the specification; and that the inverse tables invert. Anderson, Biham, Knudsen 1998. */
#include <stdio.h>

#include "common.h"

#define SERPENT_W uint32_t
#define SERPENT_FN static inline __attribute__((always_inline))
#pragma GCC diagnostic ignored "-Wunused-function"   /* the rounds are not used here */
#include "../src/cipher/serpent.h"

/* The tables again, as printed (not the constants the circuits read). */
static const unsigned sbox[8][16] = {
	{ 3, 8, 15, 1, 10, 6, 5, 11, 14, 13, 4, 2, 7, 0, 9, 12 },
	{ 15, 12, 2, 7, 9, 0, 5, 10, 1, 11, 14, 8, 6, 13, 3, 4 },
	{ 8, 6, 7, 9, 3, 12, 10, 15, 13, 1, 14, 4, 0, 11, 5, 2 },
	{ 0, 15, 11, 8, 12, 9, 6, 3, 13, 1, 2, 4, 10, 7, 5, 14 },
	{ 1, 15, 8, 3, 12, 0, 11, 6, 2, 5, 4, 10, 9, 14, 7, 13 },
	{ 15, 5, 2, 11, 4, 10, 9, 12, 0, 3, 14, 8, 13, 6, 7, 1 },
	{ 7, 2, 12, 5, 8, 4, 6, 11, 14, 9, 1, 15, 13, 3, 10, 0 },
	{ 1, 13, 15, 0, 14, 8, 2, 11, 7, 4, 12, 10, 9, 3, 5, 6 },
};

/* Bit x of word j is bit j of input x: the 16 inputs side by side. */
static void inputs(uint32_t x[1][4])
{
	x[0][0] = 0xaaaa;
	x[0][1] = 0xcccc;
	x[0][2] = 0xf0f0;
	x[0][3] = 0xff00;
}

static void check(const char *what, int s, const uint32_t x[1][4], const unsigned want[16])
{
	for (unsigned v = 0; v < 16; v++) {
		unsigned got = 0;

		for (int j = 0; j < 4; j++)
			got |= (x[0][j] >> v & 1) << j;
		CHECK(got == want[v], "%s%d(%u) = %u, want %u", what, s, v, got, want[v]);
	}
}

#define SBOX_CASE(i) case i: SERPENT_SBOX(SERPENT_S##i, x, 1); break
#define INV_CASE(i) case i: SERPENT_SBOX(SERPENT_I##i, x, 1); break

int main(void)
{
	static const uint64_t inv[8] = { SERPENT_I0, SERPENT_I1, SERPENT_I2, SERPENT_I3,
	                                 SERPENT_I4, SERPENT_I5, SERPENT_I6, SERPENT_I7 };

	test_init();
	for (int s = 0; s < 8; s++) {
		uint32_t x[1][4];
		unsigned want[16];

		inputs(x);
		switch (s) {
		SBOX_CASE(0); SBOX_CASE(1); SBOX_CASE(2); SBOX_CASE(3);
		SBOX_CASE(4); SBOX_CASE(5); SBOX_CASE(6); default: SERPENT_SBOX(SERPENT_S7, x, 1); break;
		}
		check("S", s, x, sbox[s]);
		for (unsigned v = 0; v < 16; v++) {
			want[sbox[s][v]] = v;
			CHECK((inv[s] >> (4 * sbox[s][v]) & 15) == v, "SERPENT_I%d does not invert S%d at %u", s, s, v);
		}
		inputs(x);
		switch (s) {
		INV_CASE(0); INV_CASE(1); INV_CASE(2); INV_CASE(3);
		INV_CASE(4); INV_CASE(5); INV_CASE(6); default: SERPENT_SBOX(SERPENT_I7, x, 1); break;
		}
		check("S^-1 ", s, x, want);
	}
	return test_summary("test_serpent_sbox");
}
