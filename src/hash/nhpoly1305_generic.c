/* blockcrypt: NH-Poly1305 in portable C, the kernel's "nhpoly1305-generic" shash (keyed hash of Adiantum).
 * Crowley and Biggers, "Adiantum: length-preserving encryption for entry-level processors" (ia.cr/2018/720), section 6.3-6.4. */
#include "drivers.h"
#include "poly1305.h"

/* The key: Poly1305 keyed by r alone, and the NH key as 32-bit words. */
struct nhp_key {
	struct bc_poly1305 poly;
	uint32_t nh[BC_NH_KEY_WORDS];
};

/* One message: Poly1305 over the NH results of the 1024-byte units so far;
 * the NH sums of the current unit and how far into it the message is
 * (a multiple of 16), and a partial 16-byte stride. */
struct nhp_desc {
	struct bc_poly1305 poly;
	uint64_t sums[BC_NH_PASSES];
	size_t pos, buflen;
	uint8_t buf[16];
};
_Static_assert(sizeof(struct nhp_desc) <= BC_DESC_MAX, "an operation keeps the state on its stack");

static int nhp_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct nhp_key *k = ctx;

	if (keylen != BC_NHPOLY1305_KEY)
		return -EINVAL;
	bc_poly1305_init_r(&k->poly, key);
	for (int i = 0; i < BC_NH_KEY_WORDS; i++)
		k->nh[i] = bc_load_le32(key + BC_POLY1305_R + 4 * i);
	return 0;
}

static void nhp_init(const void *ctx, void *desc)
{
	const struct nhp_key *k = ctx;
	struct nhp_desc *d = desc;

	d->poly = k->poly;
	memset(d->sums, 0, sizeof(d->sums));
	d->pos = 0;
	d->buflen = 0;
}

/* NH over n 16-byte strides starting at the current position of the unit:
 * each pass i pairs the message words with the key words 4i further on,
 * (m0 + k0)(m2 + k2) + (m1 + k1)(m3 + k3), sums modulo 2^32 and 2^64. */
static void nh_strides(const struct nhp_key *k, struct nhp_desc *d, const uint8_t *m, size_t n)
{
	const uint32_t *kw = k->nh + d->pos / 4;
	uint64_t s0 = d->sums[0], s1 = d->sums[1], s2 = d->sums[2], s3 = d->sums[3];

	for (; n; n--, m += 16, kw += 4) {
		uint32_t m0 = bc_load_le32(m), m1 = bc_load_le32(m + 4), m2 = bc_load_le32(m + 8),
			 m3 = bc_load_le32(m + 12);

		s0 += (uint64_t)(m0 + kw[0]) * (m2 + kw[2]) + (uint64_t)(m1 + kw[1]) * (m3 + kw[3]);
		s1 += (uint64_t)(m0 + kw[4]) * (m2 + kw[6]) + (uint64_t)(m1 + kw[5]) * (m3 + kw[7]);
		s2 += (uint64_t)(m0 + kw[8]) * (m2 + kw[10]) + (uint64_t)(m1 + kw[9]) * (m3 + kw[11]);
		s3 += (uint64_t)(m0 + kw[12]) * (m2 + kw[14]) + (uint64_t)(m1 + kw[13]) * (m3 + kw[15]);
		d->pos += 16;
	}
	d->sums[0] = s0; d->sums[1] = s1; d->sums[2] = s2; d->sums[3] = s3;
}

/* A finished unit (whole or the message's last): its four 64-bit NH values,
 * 32 bytes, are two Poly1305 blocks. */
static void nh_flush(struct nhp_desc *d)
{
	uint8_t out[8 * BC_NH_PASSES];

	for (int i = 0; i < BC_NH_PASSES; i++)
		bc_store_le64(out + 8 * i, d->sums[i]);
	bc_poly1305_update(&d->poly, out, sizeof(out));
	memset(d->sums, 0, sizeof(d->sums));
	d->pos = 0;
	bc_wipe(out, sizeof(out));
}

/* Whole strides, a unit at a time. */
static void nh_feed(const struct nhp_key *k, struct nhp_desc *d, const uint8_t *m, size_t n)
{
	while (n) {
		size_t take = (BC_NH_UNIT - d->pos) / 16;

		if (take > n)
			take = n;
		nh_strides(k, d, m, take);
		m += take * 16;
		n -= take;
		if (d->pos == BC_NH_UNIT)
			nh_flush(d);
	}
}

static void nhp_update(const void *ctx, void *desc, const uint8_t *data, size_t len)
{
	struct nhp_desc *d = desc;

	if (bc_block16_fill(d->buf, &d->buflen, &data, &len))
		nh_feed(ctx, d, d->buf, 1);
	if (d->buflen)
		return;
	nh_feed(ctx, d, data, len / 16);
	data += len & ~(size_t)15;
	len &= 15;
	if (len)
		memcpy(d->buf, data, len);
	d->buflen = len;
}

/* A partial last stride is zero-padded, as the kernel's; the last unit,
 * however short, is hashed; an empty message hashes to zero. */
static void nhp_final(const void *ctx, void *desc, uint8_t *out)
{
	struct nhp_desc *d = desc;

	if (d->buflen) {
		memset(d->buf + d->buflen, 0, 16 - d->buflen);
		nh_feed(ctx, d, d->buf, 1);
	}
	if (d->pos)
		nh_flush(d);
	bc_poly1305_final(&d->poly, out);
	bc_wipe(d, sizeof(*d));
}

const struct bc_shash_alg bc_nhpoly1305_generic = {
	.name = "nhpoly1305", .driver = "nhpoly1305-generic", .priority = 100,
	.min_keysize = BC_NHPOLY1305_KEY, .max_keysize = BC_NHPOLY1305_KEY, .digestsize = BC_POLY1305_TAG,
	.blocksize = 16, .ctxsize = sizeof(struct nhp_key), .descsize = sizeof(struct nhp_desc),
	.setkey = nhp_setkey, .init = nhp_init, .update = nhp_update, .final = nhp_final,
};
