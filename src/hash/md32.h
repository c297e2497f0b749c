/* blockcrypt: message buffering and padding shared by SHA-256 and SM3.
 * Merkle-Damgard strengthening with a 64-bit big-endian bit count (FIPS 180-4 5.1.1, GB/T 32905-2016 5.2). */
#ifndef BC_MD32_H
#define BC_MD32_H

#include "internal.h"

/* The per-message state both hashes keep in their desc: no pointers, so a
 * desc can be copied or wiped as plain bytes. buf comes first: the desc is
 * 64-byte aligned, so the block compress reads from buf (a short message's
 * only block, just written) lies in one cache line instead of two. */
struct bc_md32_state {
	uint8_t buf[64];
	uint32_t h[8];
	uint64_t count;          /* bytes hashed so far; count % 64 of them wait in buf */
};

typedef void bc_md32_compress_fn(uint32_t h[8], const uint8_t *blocks, size_t nblocks);

static inline void bc_md32_init(struct bc_md32_state *s, const uint32_t iv[8])
{
	memcpy(s->h, iv, sizeof(s->h));
	s->count = 0;
}

static inline void bc_md32_update(struct bc_md32_state *s, const uint8_t *data, size_t len,
                                  bc_md32_compress_fn *compress)
{
	size_t used = (size_t)(s->count & 63);

	if (!len)        /* data may be NULL then, which memcpy does not allow */
		return;
	s->count += len;
	if (used) {
		size_t take = 64 - used;
		if (len < take) {
			memcpy(s->buf + used, data, len);
			return;
		}
		memcpy(s->buf + used, data, take);
		compress(s->h, s->buf, 1);
		data += take;
		len -= take;
	}
	/* Whole blocks go straight from the caller's buffer, never through buf. */
	if (len >= 64) {
		compress(s->h, data, len / 64);
		data += len & ~(size_t)63;
		len &= 63;
	}
	memcpy(s->buf, data, len);
}

/* Writes the 32-byte digest and wipes the state (it may hold key material,
 * as when essiv hashes a key). */
static inline void bc_md32_final(struct bc_md32_state *s, uint8_t out[32], bc_md32_compress_fn *compress)
{
	size_t used = (size_t)(s->count & 63);
	uint64_t bits = s->count << 3;

	s->buf[used++] = 0x80;
	if (used > 56) {
		memset(s->buf + used, 0, 64 - used);
		compress(s->h, s->buf, 1);
		used = 0;
	}
	memset(s->buf + used, 0, 56 - used);
	bc_store_be64(s->buf + 56, bits);
	compress(s->h, s->buf, 1);
	for (int i = 0; i < 8; i++)
		bc_store_be32(out + 4 * i, s->h[i]);
	bc_wipe(s, sizeof(*s));
}

/* The shash driver bc_<id> of a 32-byte digest over compress (which takes
 * whole blocks) and its initial value iv: init, update and final are the
 * functions above, unkeyed. Every sha256 and sm3 driver is one of these, so
 * they differ only in their compress. */
#define BC_MD32_SHASH(id, alg, drv, prio, cpu_bits, iv, compress)                             \
	static void id##_init(const void *ctx, void *desc)                                    \
	{                                                                                     \
		(void)ctx;                                                                    \
		bc_md32_init(desc, iv);                                                       \
	}                                                                                     \
	static void id##_update(const void *ctx, void *desc, const uint8_t *data, size_t len) \
	{                                                                                     \
		(void)ctx;                                                                    \
		bc_md32_update(desc, data, len, compress);                                    \
	}                                                                                     \
	static void id##_final(const void *ctx, void *desc, uint8_t *out)                     \
	{                                                                                     \
		(void)ctx;                                                                    \
		bc_md32_final(desc, out, compress);                                           \
	}                                                                                     \
	const struct bc_shash_alg bc_##id = {                                                 \
		.name = alg,                                                                  \
		.driver = drv,                                                                \
		.priority = prio,                                                             \
		.cpu = cpu_bits,                                                              \
		.digestsize = 32,                                                             \
		.blocksize = 64,                                                              \
		.descsize = sizeof(struct bc_md32_state),                                     \
		.init = id##_init,                                                            \
		.update = id##_update,                                                        \
		.final = id##_final,                                                          \
	}

#endif
