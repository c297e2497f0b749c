/* blockcrypt: the Poly1305 one-time authenticator used by the rfc7539 AEADs (src/mode/chachapoly.c), NH-Poly1305 and adiantum.
 * RFC 8439 section 2.5: a 32-byte one-time key (r clamped, s), 16-byte blocks, a 16-byte tag; Adiantum's r-only form. */
#ifndef BC_POLY1305_H
#define BC_POLY1305_H

#include "internal.h"

#define BC_POLY1305_KEY 32
#define BC_POLY1305_TAG 16
#define BC_POLY1305_R 16

/* NH-Poly1305 (Linux crypto/nhpoly1305.c): Poly1305's r, then the NH key of
 * 1024 bytes and 48 more for the three further passes, each 16 bytes along. */
#define BC_NH_UNIT 1024
#define BC_NH_PASSES 4
#define BC_NH_KEY_WORDS (BC_NH_UNIT / 4 + 4 * (BC_NH_PASSES - 1))
#define BC_NHPOLY1305_KEY (BC_POLY1305_R + 4 * BC_NH_KEY_WORDS)

/* Where the compiler has a 64x64->128-bit product (x86-64, arm64, s390x),
 * the accumulator and r in three limbs of 44, 44 and 42 bits: 9 products a
 * block. Elsewhere (i386) five 26-bit limbs, whose 25 products and their sums
 * fit 64 bits. */
#if defined(__SIZEOF_INT128__)
#define BC_POLY1305_LIMB44 1
#if defined(__x86_64__)
/* Long runs of whole blocks eight at a time with AVX-512 IFMA, in the same
 * limbs (src/arch/x86/poly1305_avx512ifma.c), or, without IFMA, four at a
 * time with AVX2 in 26-bit limbs (src/arch/x86/poly1305_avx2.c). */
#define BC_POLY1305_WIDE 1
#endif
/* p->wide: which wide code (bc_poly1305_wide()), and whether its powers are made */
#define BC_POLY1305_W_IFMA 1
#define BC_POLY1305_W_AVX2 2
#define BC_POLY1305_W_MADE 4
struct bc_poly1305 {
	uint64_t r[3], s20[2], h[3], pad[2];
	uint8_t buf[16];
	size_t used;
#if defined(BC_POLY1305_WIDE)
	/* IFMA: r^8 (lane 0) down to r^1 (lane 7), and r^16: limbs 0-2, then
	 * 20 times limbs 1 and 2. AVX2: r^4, r^2, r^3, r^1 (the lanes' order
	 * of blocks 0, 2, 1, 3) in 26-bit limbs 0-4, then 5 times limbs 1-4.
	 * Made the first time a run is long enough, wiped with the rest. */
	union {
		uint64_t pw[5][8];
		uint64_t pw26[9][4];
	};
	uint64_t r16[5];
	int wide;   /* 0: the portable code alone; else BC_POLY1305_W_* */
#endif
};
/* Sixteen blocks or more, a multiple of eight (n), all with the 2^128 bit,
 * into p->h; pw and r16 made. */
void bc_poly1305_blocks_ifma(struct bc_poly1305 *p, const uint8_t *m, size_t n);
/* Sixteen blocks or more, a multiple of four, into p->h; pw26 made. */
void bc_poly1305_blocks_avx2(struct bc_poly1305 *p, const uint8_t *m, size_t n);
#else
struct bc_poly1305 {
	uint32_t r[5], s5[4], h[5], pad[4];
	uint8_t buf[16];
	size_t used;
};
#endif

/* Whether this CPU runs the wide code: asked once, when an AEAD is allocated. */
int bc_poly1305_wide(void);
/* wide: what bc_poly1305_wide() said (the portable code alone when 0). */
void bc_poly1305_init(struct bc_poly1305 *p, const uint8_t key[BC_POLY1305_KEY], int wide);
/* Tops up a partly filled 16-byte block buf (used bytes in it) from *m:
 * 1 when it is now whole (used back to 0), else 0 (nothing pending, or the
 * input ran out). */
static inline int bc_block16_fill(uint8_t buf[16], size_t *used, const uint8_t **m, size_t *len)
{
	size_t n;

	if (!*used || !*len)
		return 0;
	n = 16 - *used < *len ? 16 - *used : *len;
	memcpy(buf + *used, *m, n);
	*used += n;
	*m += n;
	*len -= n;
	if (*used < 16)
		return 0;
	*used = 0;
	return 1;
}

/* Keyed by r alone (s = 0): the result is the reduced accumulator modulo
 * 2^128, the form NH-Poly1305 and Adiantum's tweak hash use (Crowley and
 * Biggers, "Adiantum", section 6.4), whose sums then add their own terms. */
void bc_poly1305_init_r(struct bc_poly1305 *p, const uint8_t r[BC_POLY1305_R]);
void bc_poly1305_update(struct bc_poly1305 *p, const uint8_t *m, size_t len);
/* RFC 8439 section 2.8's pad16: zeros up to the next 16-byte boundary of what was given. */
void bc_poly1305_pad16(struct bc_poly1305 *p);
/* The tag; the state is wiped. */
void bc_poly1305_final(struct bc_poly1305 *p, uint8_t tag[BC_POLY1305_TAG]);

#endif
