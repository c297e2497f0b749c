/* blockcrypt: the Poly1305 one-time authenticator used by the rfc7539 AEADs (src/mode/chachapoly.c).
 * RFC 8439 section 2.5: a 32-byte one-time key (r clamped, s), 16-byte blocks, a 16-byte tag. */
#ifndef BC_POLY1305_H
#define BC_POLY1305_H

#include "internal.h"

#define BC_POLY1305_KEY 32
#define BC_POLY1305_TAG 16

/* The accumulator and r in five 26-bit limbs: every product of a limb by
 * a limb (or by 5 times one) fits 64 bits with room for the five-term sums,
 * and nothing needs a 128-bit type, so the same code serves i386. */
struct bc_poly1305 {
	uint32_t r[5], s5[4], h[5], pad[4];
	uint8_t buf[16];
	size_t used;
};

void bc_poly1305_init(struct bc_poly1305 *p, const uint8_t key[BC_POLY1305_KEY]);
void bc_poly1305_update(struct bc_poly1305 *p, const uint8_t *m, size_t len);
/* RFC 8439 section 2.8's pad16: zeros up to the next 16-byte boundary of what was given. */
void bc_poly1305_pad16(struct bc_poly1305 *p);
/* The tag; the state is wiped. */
void bc_poly1305_final(struct bc_poly1305 *p, uint8_t tag[BC_POLY1305_TAG]);

#endif
