/* blockcrypt: GHASH for the generic GCM mode and other drivers, and POLYVAL through it, without the shash ops.
 * NIST SP 800-38D section 6.4 (GHASH) and 6.3 (multiplication in GF(2^128)); RFC 8452 appendix A (POLYVAL from GHASH). */
#ifndef BC_GHASH_H
#define BC_GHASH_H

#include "internal.h"

/* H prepared for the carry-less multiply of src/hash/ghash_generic.c: its
 * high 64 bits, low 64 bits and their XOR (the Karatsuba middle term), each
 * split into the groups of every fourth bit the multiply uses. Where the
 * compiler offers a 64x64->128 product, per 64-bit word the four groups less
 * bits 60..63 plus those four bits as masks; otherwise the groups of each
 * 32-bit half and of the halves' XOR. */
struct bc_ghash_key {
#if defined(__SIZEOF_INT128__)
	uint64_t h[3][8];
#else
	uint32_t h[3][3][4];
#endif
};

/* h: the hash subkey, E_K(0^128), as 16 bytes. */
void bc_ghash_setkey_generic(struct bc_ghash_key *k, const uint8_t h[16]);
/* For each 16-byte block of src: acc = (acc ^ block) * H. Constant-time. */
void bc_ghash_blocks_generic(const struct bc_ghash_key *k, uint8_t acc[16], const uint8_t *src, size_t nblocks);

/* POLYVAL (RFC 8452) through the same multiply: appendix A's
 * POLYVAL(H, X) = ByteReverse(GHASH(mulX_GHASH(ByteReverse(H)), ByteReverse(X))).
 * The key is that transformed H; blocks and acc are POLYVAL's own byte
 * order, reversed on load and store, so acc is what POLYVAL returns. */
void bc_polyval_setkey_generic(struct bc_ghash_key *k, const uint8_t h[16]);
/* That transformed key, mulX_GHASH(ByteReverse(H)), for every POLYVAL driver. */
void bc_polyval_ghash_key(uint8_t g[16], const uint8_t h[16]);
void bc_polyval_blocks_generic(const struct bc_ghash_key *k, uint8_t acc[16], const uint8_t *src, size_t nblocks);

/* The "ghash" shash's per-message state, the same for the portable and the
 * PMULL driver: a partial block is XORed into acc at once and multiplied when
 * the block completes (or at final, as if zero-padded), so split updates
 * equal one. */
struct bc_ghash_desc {
	uint8_t acc[16];
	uint32_t pending;        /* bytes of a partial block already in acc */
};

/* Feeds the head of data into a pending partial block, advancing data and
 * len. Returns 1 when that block is now complete: acc then wants one
 * multiplication by H alone. If d->pending is still set afterwards, data
 * ran out inside the block and the update is done. */
static inline int bc_ghash_fill_pending(struct bc_ghash_desc *d, const uint8_t **data, size_t *len)
{
	size_t take;

	if (!d->pending)
		return 0;
	take = 16 - d->pending < *len ? 16 - d->pending : *len;
	bc_xor(d->acc + d->pending, d->acc + d->pending, *data, take);
	d->pending += (uint32_t)take;
	*data += take;
	*len -= take;
	if (d->pending < 16)
		return 0;
	d->pending = 0;
	return 1;
}

/* The tail of an update (len < 16 bytes) becomes the pending block. */
static inline void bc_ghash_start_pending(struct bc_ghash_desc *d, const uint8_t *data, size_t len)
{
	bc_xor(d->acc, d->acc, data, len);
	d->pending = (uint32_t)len;
}

/* The portable shashes' update and final over either multiply (ghash,
 * polyval: the same partial-block rules, as in the kernel's ghash-generic
 * and polyval-generic), inlined so the call to blocks is direct. */
void bc_ghash_generic_init(const void *ctx, void *desc);   /* the zeroed state (ghash_generic.c) */
typedef void bc_gf128_blocks_fn(const struct bc_ghash_key *k, uint8_t acc[16], const uint8_t *src, size_t nblocks);

/* The shash table of a portable ghash or polyval: the same key, state and init. */
#define BC_GF128_GENERIC_SHASH(NAME, DRIVER, SETKEY, UPDATE, FINAL) {                                   \
		.name = NAME, .driver = DRIVER, .priority = 100, .cpu = 0, .min_keysize = 16,            \
		.max_keysize = 16, .digestsize = 16, .blocksize = 16,                                    \
		.ctxsize = sizeof(struct bc_ghash_key), .descsize = sizeof(struct bc_ghash_desc),        \
		.setkey = SETKEY, .init = bc_ghash_generic_init, .update = UPDATE, .final = FINAL,       \
	}

static inline void bc_ghash_desc_update(const struct bc_ghash_key *k, struct bc_ghash_desc *d, const uint8_t *data,
					size_t len, bc_gf128_blocks_fn *blocks)
{
	static const uint8_t zero_block[16];

	/* A completed pending block is already XORed in: multiply by H alone. */
	if (bc_ghash_fill_pending(d, &data, &len))
		blocks(k, d->acc, zero_block, 1);
	if (d->pending)
		return;
	blocks(k, d->acc, data, len / 16);
	bc_ghash_start_pending(d, data + (len & ~(size_t)15), len & 15);
}

static inline void bc_ghash_desc_final(const struct bc_ghash_key *k, struct bc_ghash_desc *d, uint8_t *out,
				       bc_gf128_blocks_fn *blocks)
{
	static const uint8_t zero_block[16];

	if (d->pending)
		blocks(k, d->acc, zero_block, 1);
	memcpy(out, d->acc, 16);
	bc_wipe(d, sizeof(*d));
}

#endif
