/* blockcrypt: doubling in GF(2^128) for XTS (IEEE 1619, little-endian "ble"), CMAC (NIST SP 800-38B,
 * big-endian "bbe") and GHASH's bit order ("lle", SP 800-38D 6.3, for POLYVAL's key: RFC 8452 appendix A), constant time. */
#include "internal.h"

/* The bit shifted out of the top becomes an all-ones or all-zero mask through
 * an arithmetic right shift of a signed value, and selects the reduction
 * constant 0x87 with an AND: no conditional that a compiler could turn into a
 * branch on a secret (tweaks and CMAC subkeys are secret). */
static inline uint64_t carry_mask(uint64_t top)
{
	return (uint64_t)((int64_t)top >> 63);
}

void bc_gf128mul_x_ble(uint8_t out[16], const uint8_t in[16])
{
	uint64_t lo = bc_load_le64(in), hi = bc_load_le64(in + 8);
	uint64_t red = carry_mask(hi) & 0x87;

	bc_store_le64(out + 8, hi << 1 | lo >> 63);
	bc_store_le64(out, lo << 1 ^ red);
}

void bc_gf128mul_x_bbe(uint8_t out[16], const uint8_t in[16])
{
	uint64_t hi = bc_load_be64(in), lo = bc_load_be64(in + 8);
	uint64_t red = carry_mask(hi) & 0x87;

	bc_store_be64(out, hi << 1 | lo >> 63);
	bc_store_be64(out + 8, lo << 1 ^ red);
}

/* GHASH's order holds x^0 in the top bit of byte 0: multiplying by x is a
 * right shift of the big-endian integer, and the bit leaving at the bottom
 * (x^127) comes back as x^7 + x^2 + x + 1, the byte 0xe1 at the top. */
void bc_gf128mul_x_lle(uint8_t out[16], const uint8_t in[16])
{
	uint64_t hi = bc_load_be64(in), lo = bc_load_be64(in + 8);
	uint64_t red = carry_mask(lo << 63) & 0xe100000000000000;

	bc_store_be64(out + 8, lo >> 1 | hi << 63);
	bc_store_be64(out, hi >> 1 ^ red);
}
