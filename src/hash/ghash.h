/* blockcrypt: GHASH for the generic GCM mode and other drivers, without the shash ops.
 * NIST SP 800-38D section 6.4 (GHASH) and 6.3 (multiplication in GF(2^128)). */
#ifndef BC_GHASH_H
#define BC_GHASH_H

#include <stddef.h>
#include <stdint.h>

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

#endif
