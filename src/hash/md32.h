/* blockcrypt: message buffering and padding shared by the Merkle-Damgard hashes (MD5, SHA-1, SHA-2, SM3).
 * Merkle-Damgard strengthening with the bit count (FIPS 180-4 5.1, RFC 1321 3.1-3.2, GB/T 32905-2016 5.2). */
#ifndef BC_MD32_H
#define BC_MD32_H

#include "internal.h"

/* ---- the buffering itself, for any block size ----------------------------------
 * h is the chaining value in whatever words the hash keeps; blocks compresses
 * whole blocks into it. Written once for every block size: the callers below
 * pass constants for bs, lenbytes and le, and their own blocks function, so
 * each use compiles to straight-line code with direct calls. */
typedef void bc_md_blocks_fn(void *h, const uint8_t *blocks, size_t nblocks);

static inline __attribute__((always_inline)) void bc_md_update(void *h, uint8_t *buf, uint64_t *count, size_t bs,
                                                               const uint8_t *data, size_t len,
                                                               bc_md_blocks_fn *blocks)
{
	size_t used = (size_t)(*count & (bs - 1));

	if (!len)        /* data may be NULL then, which memcpy does not allow */
		return;
	*count += len;
	if (used) {
		size_t take = bs - used;
		if (len < take) {
			memcpy(buf + used, data, len);
			return;
		}
		memcpy(buf + used, data, take);
		blocks(h, buf, 1);
		data += take;
		len -= take;
	}
	/* Whole blocks go straight from the caller's buffer, never through buf. */
	if (len >= bs) {
		blocks(h, data, len / bs);
		data += len & ~(bs - 1);
		len &= bs - 1;
	}
	memcpy(buf, data, len);
}

/* The padding: 0x80, zeros, and the message length in bits in the last
 * lenbytes (8, or 16 for SHA-384/512) of the block, big-endian, or
 * little-endian with le (MD5). */
static inline __attribute__((always_inline)) void bc_md_pad(void *h, uint8_t *buf, uint64_t count, size_t bs,
                                                            size_t lenbytes, int le, bc_md_blocks_fn *blocks)
{
	size_t used = (size_t)(count & (bs - 1));

	buf[used++] = 0x80;
	if (used > bs - lenbytes) {
		memset(buf + used, 0, bs - used);
		blocks(h, buf, 1);
		used = 0;
	}
	memset(buf + used, 0, bs - 8 - used);
	if (lenbytes == 16)      /* the bits of count above 2^61 bytes */
		bc_store_be64(buf + bs - 16, count >> 61);
	if (le)
		bc_store_le64(buf + bs - 8, count << 3);
	else
		bc_store_be64(buf + bs - 8, count << 3);
	blocks(h, buf, 1);
}

/* ---- 64-byte blocks, 32-bit words: MD5, SHA-1, SHA-224/256, SM3 ------------------ */

/* The per-message state these hashes keep in their desc: no pointers, so a
 * desc can be copied or wiped as plain bytes. buf comes first: the desc is
 * 64-byte aligned, so the block compress reads from buf (a short message's
 * only block, just written) lies in one cache line instead of two. MD5 and
 * SHA-1 use the first 4 and 5 words of h. */
struct bc_md32_state {
	uint8_t buf[64];
	uint32_t h[8];
	uint64_t count;          /* bytes hashed so far; count % 64 of them wait in buf */
};

/* Writes the first nwords words of h (little-endian with le, as MD5 has
 * them) and wipes the state (it may hold key material, as when essiv hashes
 * a key). */
static inline __attribute__((always_inline)) void bc_md32_final(struct bc_md32_state *s, uint8_t *out, int nwords,
                                                                int le, bc_md_blocks_fn *blocks)
{
	bc_md_pad(s->h, s->buf, s->count, 64, 8, le, blocks);
	for (int i = 0; i < nwords; i++) {
		if (le)
			bc_store_le32(out + 4 * i, s->h[i]);
		else
			bc_store_be32(out + 4 * i, s->h[i]);
	}
	bc_wipe(s, sizeof(*s));
}

/* What every driver below shares: the adapter that gives compress (over
 * its own word type) the blocks function type, init (the first ivbytes of
 * h from iv) and update over a state with buf, h and count; and the unkeyed
 * shash_alg table over the id's init, update and final. */
#define BC_MD_INIT_UPDATE(id, compress, state, bs, iv, ivbytes)                                    \
	static void id##_blocks(void *h, const uint8_t *p, size_t n)                          \
	{                                                                                     \
		compress(h, p, n);                                                            \
	}                                                                                     \
	static void id##_init(const void *ctx, void *desc)                                    \
	{                                                                                     \
		state *s_ = desc;                                                             \
		(void)ctx;                                                                    \
		memcpy(s_->h, iv, ivbytes);                                                   \
		s_->count = 0;                                                                \
	}                                                                                     \
	static void id##_update(const void *ctx, void *desc, const uint8_t *data, size_t len) \
	{                                                                                     \
		state *s_ = desc;                                                             \
		(void)ctx;                                                                    \
		bc_md_update(s_->h, s_->buf, &s_->count, bs, data, len, id##_blocks);         \
	}
#define BC_MD_SHASH_ALG(id, alg, drv, prio, cpu_bits, dsize, bs, state)                       \
	const struct bc_shash_alg bc_##id = {                                                 \
		.name = alg,                                                                  \
		.driver = drv,                                                                \
		.priority = prio,                                                             \
		.cpu = cpu_bits,                                                              \
		.digestsize = dsize,                                                          \
		.blocksize = bs,                                                              \
		.descsize = sizeof(state),                                                    \
		.init = id##_init,                                                            \
		.update = id##_update,                                                        \
		.final = id##_final,                                                          \
	}

/* The shash driver bc_<id> over compress (which takes whole blocks of 64
 * bytes into uint32_t h[8]) and its initial value iv (nwords words): init,
 * update and final are the functions above, unkeyed; the digest is the first
 * dsize / 4 words. Every md5, sha1, sha224, sha256 and sm3 driver is one of
 * these, so they differ only in their compress. */
#define BC_MD32_SHASH_FULL(id, alg, drv, prio, cpu_bits, iv, nwords, compress, dsize, le)       \
	BC_MD_INIT_UPDATE(id, compress, struct bc_md32_state, 64, iv, 4 * (nwords))                \
	static void id##_final(const void *ctx, void *desc, uint8_t *out)                     \
	{                                                                                     \
		(void)ctx;                                                                    \
		bc_md32_final(desc, out, (dsize) / 4, le, id##_blocks);                       \
	}                                                                                     \
	BC_MD_SHASH_ALG(id, alg, drv, prio, cpu_bits, dsize, 64, struct bc_md32_state)

/* A 32-byte digest of eight big-endian words: sha256 and sm3. */
#define BC_MD32_SHASH(id, alg, drv, prio, cpu_bits, iv, compress) \
	BC_MD32_SHASH_FULL(id, alg, drv, prio, cpu_bits, iv, 8, compress, 32, 0)

/* ---- 128-byte blocks, 64-bit words: SHA-384/512 ------------------------------------ */

/* 200 bytes, within BC_DESC_MAX; buf first for the same reason as above. */
struct bc_md64_state {
	uint8_t buf[128];
	uint64_t h[8];
	uint64_t count;          /* bytes hashed so far (the 128-bit length's upper bits follow from it) */
};

/* As BC_MD32_SHASH_FULL for compress over uint64_t h[8] and 128-byte
 * blocks; the digest is the first dsize / 8 big-endian words. */
#define BC_MD64_SHASH(id, alg, drv, prio, cpu_bits, iv, compress, dsize)                      \
	BC_MD_INIT_UPDATE(id, compress, struct bc_md64_state, 128, iv, 64)                         \
	static void id##_final(const void *ctx, void *desc, uint8_t *out)                     \
	{                                                                                     \
		struct bc_md64_state *s_ = desc;                                              \
		(void)ctx;                                                                    \
		bc_md_pad(s_->h, s_->buf, s_->count, 128, 16, 0, id##_blocks);                \
		for (int i_ = 0; i_ < (dsize) / 8; i_++)                                      \
			bc_store_be64(out + 8 * i_, s_->h[i_]);                               \
		bc_wipe(s_, sizeof(*s_));                                                     \
	}                                                                                     \
	BC_MD_SHASH_ALG(id, alg, drv, prio, cpu_bits, dsize, 128, struct bc_md64_state)

#endif
