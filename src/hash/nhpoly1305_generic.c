/* blockcrypt: NH-Poly1305 in portable C, the kernel's "nhpoly1305-generic" shash (keyed hash of Adiantum).
 * Crowley and Biggers, "Adiantum: length-preserving encryption for entry-level processors" (ia.cr/2018/720), section 6.3-6.4. */
#include "drivers.h"
#include "nhpoly1305.h"

_Static_assert(sizeof(struct bc_nhp_desc) <= BC_DESC_MAX, "an operation keeps the state on its stack");

int bc_nhp_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct bc_nhp_key *k = ctx;

	if (keylen != BC_NHPOLY1305_KEY)
		return -EINVAL;
	bc_poly1305_init_r(&k->poly, key);
	for (int i = 0; i < BC_NH_KEY_WORDS; i++)
		k->nh[i] = bc_load_le32(key + BC_POLY1305_R + 4 * i);
	return 0;
}

void bc_nhp_init(const void *ctx, void *desc)
{
	const struct bc_nhp_key *k = ctx;
	struct bc_nhp_desc *d = desc;

	d->poly = k->poly;
	memset(d->sums, 0, sizeof(d->sums));
	d->pos = 0;
	d->buflen = 0;
}

/* The portable strides. */
static void nh_strides_generic(const uint32_t *kw, uint64_t sums[BC_NH_PASSES], const uint8_t *m, size_t n)
{
	uint64_t s0 = sums[0], s1 = sums[1], s2 = sums[2], s3 = sums[3];

	for (; n; n--, m += 16, kw += 4) {
		uint32_t m0 = bc_load_le32(m), m1 = bc_load_le32(m + 4), m2 = bc_load_le32(m + 8),
			 m3 = bc_load_le32(m + 12);

		s0 += (uint64_t)(m0 + kw[0]) * (m2 + kw[2]) + (uint64_t)(m1 + kw[1]) * (m3 + kw[3]);
		s1 += (uint64_t)(m0 + kw[4]) * (m2 + kw[6]) + (uint64_t)(m1 + kw[5]) * (m3 + kw[7]);
		s2 += (uint64_t)(m0 + kw[8]) * (m2 + kw[10]) + (uint64_t)(m1 + kw[9]) * (m3 + kw[11]);
		s3 += (uint64_t)(m0 + kw[12]) * (m2 + kw[14]) + (uint64_t)(m1 + kw[13]) * (m3 + kw[15]);
	}
	sums[0] = s0; sums[1] = s1; sums[2] = s2; sums[3] = s3;
}

/* A finished unit (whole or the message's last): its four 64-bit NH values,
 * 32 bytes, are two Poly1305 blocks. */
static void nh_flush(struct bc_nhp_desc *d)
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
static void nh_feed(const struct bc_nhp_key *k, struct bc_nhp_desc *d, const uint8_t *m, size_t n,
		    bc_nh_strides_fn *strides)
{
	while (n) {
		size_t take = (BC_NH_UNIT - d->pos) / 16;

		if (take > n)
			take = n;
		strides(k->nh + d->pos / 4, d->sums, m, take);
		d->pos += take * 16;
		m += take * 16;
		n -= take;
		if (d->pos == BC_NH_UNIT)
			nh_flush(d);
	}
}

void bc_nhp_update(const void *ctx, void *desc, const uint8_t *data, size_t len, bc_nh_strides_fn *strides)
{
	struct bc_nhp_desc *d = desc;

	if (bc_block16_fill(d->buf, &d->buflen, &data, &len))
		nh_feed(ctx, d, d->buf, 1, strides);
	if (d->buflen)
		return;
	nh_feed(ctx, d, data, len / 16, strides);
	data += len & ~(size_t)15;
	len &= 15;
	if (len)
		memcpy(d->buf, data, len);
	d->buflen = len;
}

/* A partial last stride is zero-padded, as the kernel's; the last unit,
 * however short, is hashed; an empty message hashes to zero. */
void bc_nhp_final(const void *ctx, void *desc, uint8_t *out, bc_nh_strides_fn *strides)
{
	struct bc_nhp_desc *d = desc;

	if (d->buflen) {
		memset(d->buf + d->buflen, 0, 16 - d->buflen);
		nh_feed(ctx, d, d->buf, 1, strides);
	}
	if (d->pos)
		nh_flush(d);
	bc_poly1305_final(&d->poly, out);
	bc_wipe(d, sizeof(*d));
}

BC_NHPOLY1305_SHASH(bc_nhpoly1305_generic, "nhpoly1305-generic", 100, 0, nh_strides_generic);
