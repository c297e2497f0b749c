/* blockcrypt: the NH-Poly1305 state and framing shared by its drivers (src/hash/nhpoly1305_generic.c, src/arch/x86/nhpoly1305_*.c).
 * Crowley and Biggers, "Adiantum: length-preserving encryption for entry-level processors" (ia.cr/2018/720), section 6.3-6.4. */
#ifndef BC_NHPOLY1305_H
#define BC_NHPOLY1305_H

#include "poly1305.h"

/* The key: Poly1305 keyed by r alone, and the NH key as 32-bit words. */
struct bc_nhp_key {
	struct bc_poly1305 poly;
	uint32_t nh[BC_NH_KEY_WORDS];
};

/* One message: Poly1305 over the NH results of the 1024-byte units so far;
 * the NH sums of the current unit and how far into it the message is
 * (a multiple of 16), and a partial 16-byte stride. */
struct bc_nhp_desc {
	struct bc_poly1305 poly;
	uint64_t sums[BC_NH_PASSES];
	size_t pos, buflen;
	uint8_t buf[16];
};

/* NH over n 16-byte strides of m, into the four pass sums: each pass i pairs
 * the message words with the key words 4i further on (kw: the key at the
 * strides' position in the unit), (m0 + k0)(m2 + k2) + (m1 + k1)(m3 + k3),
 * sums modulo 2^32 and 2^64. A stride never reaches past the unit. */
typedef void bc_nh_strides_fn(const uint32_t *kw, uint64_t sums[BC_NH_PASSES], const uint8_t *m, size_t n);

int bc_nhp_setkey(void *ctx, const uint8_t *key, size_t keylen);
void bc_nhp_init(const void *ctx, void *desc);
/* The shash update and final over a driver's strides. */
void bc_nhp_update(const void *ctx, void *desc, const uint8_t *data, size_t len, bc_nh_strides_fn *strides);
void bc_nhp_final(const void *ctx, void *desc, uint8_t *out, bc_nh_strides_fn *strides);

/* A driver's shash over its strides function. */
#define BC_NHPOLY1305_SHASH(id, drv, prio, cpu_bits, strides)                                    \
	static void id##_update(const void *ctx, void *desc, const uint8_t *data, size_t len)  \
	{                                                                                      \
		bc_nhp_update(ctx, desc, data, len, strides);                                  \
	}                                                                                      \
	static void id##_final(const void *ctx, void *desc, uint8_t *out)                      \
	{                                                                                      \
		bc_nhp_final(ctx, desc, out, strides);                                         \
	}                                                                                      \
	const struct bc_shash_alg id = {                                                       \
		.name = "nhpoly1305", .driver = drv, .priority = prio, .cpu = cpu_bits,        \
		.min_keysize = BC_NHPOLY1305_KEY, .max_keysize = BC_NHPOLY1305_KEY,            \
		.digestsize = BC_POLY1305_TAG, .blocksize = 16,                                \
		.ctxsize = sizeof(struct bc_nhp_key), .descsize = sizeof(struct bc_nhp_desc),  \
		.setkey = bc_nhp_setkey, .init = bc_nhp_init,                                  \
		.update = id##_update, .final = id##_final,                                    \
	}

#endif
