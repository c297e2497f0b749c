/* blockcrypt: GHASH for the generic GCM mode and other drivers, without the shash ops.
 * NIST SP 800-38D section 6.4 (GHASH) and 6.3 (multiplication in GF(2^128)). */
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

#endif
