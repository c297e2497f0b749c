/* blockcrypt: the cmac, xcbc and cbcmac templates over any block cipher driver (Linux crypto/cmac.c,
 * xcbc.c, ccm.c's cbcmac). NIST SP 800-38B / RFC 4493, RFC 3566, and the kernel's zero-padded CBC-MAC. */
#include "mode.h"

/* The three MACs are one CBC-MAC chain that differs only at the end:
 *   cmac:   last block ^ K1 if full, else (block || 0x80 0..) ^ K2; K1, K2 doubled from E_K(0)
 *   xcbc:   the same with K2 = E_K(2^16), K3 = E_K(3^16), chained under K1 = E_K(1^16)
 *   cbcmac: zero padding, nothing XORed, and the empty message is the zero block.
 * So the context keeps the two final masks and the padding rule. */
struct mac_ctx {
	const struct bc_cipher_alg *cipher;
	uint8_t k_full[BC_BLOCK], k_part[BC_BLOCK];   /* the first 8 bytes for an 8-byte block cipher */
	uint8_t pad;            /* first padding byte: 0x80, or 0 for cbcmac */
};
#define CIPHER_OFF BC_MAC_HDR
_Static_assert(sizeof(struct mac_ctx) <= BC_MAC_HDR && BC_MAC_HDR % BC_CTX_ALIGN == 0, "mac_ctx header");

struct mac_desc {
	uint8_t st[BC_BLOCK], buf[BC_BLOCK];
	size_t buflen;          /* 0..block size: the last block is held back until final */
	size_t total;           /* bytes seen, to tell the empty message apart */
};
_Static_assert(sizeof(struct mac_desc) == BC_MAC_DESCSIZE, "mac_desc size");

static const void *cipher_ctx(const struct mac_ctx *t)
{
	return bc_ctx_at(t, CIPHER_OFF);
}

void bc_mac_init_tfm(void *ctx, const struct bc_shash_alg *self)
{
	((struct mac_ctx *)ctx)->cipher = self->cipher;
}

/* SP 800-38B's doubling for a 64-bit block: a shift, and Rb = 0x1b XORed
 * under a mask made from the bit shifted out. */
static void dbl64(uint8_t out[8], const uint8_t in[8])
{
	uint64_t v = bc_load_be64(in);

	bc_store_be64(out, (v << 1) ^ (0x1b & ((uint64_t)0 - (v >> 63))));
}

int bc_cmac_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct mac_ctx *t = ctx;
	uint8_t l[BC_BLOCK] = { 0 };
	int err = t->cipher->setkey(bc_ctx_at(ctx, CIPHER_OFF), key, keylen);

	if (err)
		return err;
	t->cipher->encrypt(cipher_ctx(t), l, l, 1);
	/* L, K1 and K2 are secret: the doubling's conditional XOR of Rb is a mask (gf128mul.c) */
	if (bc_cipher_blocksize(t->cipher) == 8) {
		dbl64(t->k_full, l);
		dbl64(t->k_part, t->k_full);
	} else {
		bc_gf128mul_x_bbe(t->k_full, l);
		bc_gf128mul_x_bbe(t->k_part, t->k_full);
	}
	t->pad = 0x80;
	bc_wipe(l, sizeof(l));
	return 0;
}

/* RFC 3566 2.1: K1, K2, K3 from the user key; K1 (128 bits whatever the
 * key size) then keys the chain. */
int bc_xcbc_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct mac_ctx *t = ctx;
	uint8_t k[3 * BC_BLOCK];
	int err = t->cipher->setkey(bc_ctx_at(ctx, CIPHER_OFF), key, keylen);

	if (err)
		return err;
	for (int i = 0; i < 3; i++)
		memset(k + i * BC_BLOCK, i + 1, BC_BLOCK);
	t->cipher->encrypt(cipher_ctx(t), k, k, 3);
	err = t->cipher->setkey(bc_ctx_at(ctx, CIPHER_OFF), k, BC_BLOCK);
	memcpy(t->k_full, k + BC_BLOCK, BC_BLOCK);
	memcpy(t->k_part, k + 2 * BC_BLOCK, BC_BLOCK);
	t->pad = 0x80;
	bc_wipe(k, sizeof(k));
	return err;
}

int bc_cbcmac_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct mac_ctx *t = ctx;
	int err = t->cipher->setkey(bc_ctx_at(ctx, CIPHER_OFF), key, keylen);

	if (err)
		return err;
	memset(t->k_full, 0, BC_BLOCK);
	memset(t->k_part, 0, BC_BLOCK);
	t->pad = 0;
	return 0;
}

void bc_mac_init(const void *ctx, void *desc)
{
	(void)ctx;
	memset(desc, 0, sizeof(struct mac_desc));
}

/* Whole blocks go to the cipher's CBC-MAC step in one call, except the last
 * block seen so far, which waits in buf: only final knows whether it is the
 * message's last (and so gets the K1/K2 treatment). bs (16, or 8 for des and
 * des3_ede) is a constant in each caller. */
static inline void mac_update(const void *ctx, void *desc, const uint8_t *data, size_t len, size_t bs)
{
	const struct mac_ctx *t = ctx;
	struct mac_desc *d = desc;
	size_t n;

	d->total += len;
	if (d->buflen + len <= bs) {
		memcpy(d->buf + d->buflen, data, len);
		d->buflen += len;
		return;
	}
	n = bs - d->buflen;
	memcpy(d->buf + d->buflen, data, n);
	t->cipher->mac(cipher_ctx(t), d->st, d->buf, 1);
	data += n;
	len -= n;
	n = (len - 1) / bs;                       /* keep at least one byte back */
	if (n)
		t->cipher->mac(cipher_ctx(t), d->st, data, n);
	data += n * bs;
	len -= n * bs;
	memcpy(d->buf, data, len);
	d->buflen = len;
}

void bc_mac_update(const void *ctx, void *desc, const uint8_t *data, size_t len)
{
	mac_update(ctx, desc, data, len, BC_BLOCK);
}

static void mac8_update(const void *ctx, void *desc, const uint8_t *data, size_t len)
{
	mac_update(ctx, desc, data, len, 8);
}

/* The block final feeds to the chain: the held-back block padded and masked.
 * buflen is a public length: it alone places the padding and picks K1 or K2,
 * so no message or key byte chooses a branch or an address. */
static inline void mac_last_block(const struct mac_ctx *t, const uint8_t *buf, size_t buflen, uint8_t out[16],
				  size_t bs)
{
	uint8_t blk[BC_BLOCK] = { 0 };

	memcpy(blk, buf, buflen);
	if (buflen < bs)
		blk[buflen] = t->pad;
	bc_xor(out, blk, buflen == bs ? t->k_full : t->k_part, bs);
}

static inline void mac_final(const void *ctx, void *desc, uint8_t *out, size_t bs)
{
	const struct mac_ctx *t = ctx;
	struct mac_desc *d = desc;
	uint8_t blk[BC_BLOCK];

	/* cbcmac of the empty message is the zero block, unencrypted (kernel). */
	if (d->total || t->pad) {
		mac_last_block(t, d->buf, d->buflen, blk, bs);
		t->cipher->mac(cipher_ctx(t), d->st, blk, 1);
	}
	memcpy(out, d->st, bs);
	bc_wipe(d, sizeof(*d));
}

void bc_mac_final(const void *ctx, void *desc, uint8_t *out)
{
	mac_final(ctx, desc, out, BC_BLOCK);
}

static void mac8_final(const void *ctx, void *desc, uint8_t *out)
{
	mac_final(ctx, desc, out, 8);
}

/* One step of several chains: lanes idx[0..cnt) advance by nblocks blocks
 * each, through the cipher's interleaved mac_many where it has one. */
static void chains_step(const struct mac_ctx *t, const unsigned *idx, unsigned cnt, uint8_t (*st)[BC_BLOCK],
			const uint8_t *const *src, size_t nblocks)
{
	uint8_t lanes[8][BC_BLOCK];

	for (unsigned k = 0; k < cnt; k++)
		memcpy(lanes[k], st[idx[k]], BC_BLOCK);
	if (t->cipher->mac_many)
		t->cipher->mac_many(cipher_ctx(t), cnt, lanes, src, nblocks);
	else
		for (unsigned k = 0; k < cnt; k++)
			t->cipher->mac(cipher_ctx(t), lanes[k], src[k], nblocks);
	for (unsigned k = 0; k < cnt; k++)
		memcpy(st[idx[k]], lanes[k], BC_BLOCK);
	bc_wipe(lanes, sizeof(lanes));
}

/* n (<= 8) messages at once: each is a chain of (len-1)/bs whole blocks and
 * one final block. The lanes step together for as many blocks as every lane
 * still in play has left, then all the final blocks go in one more step. */
static inline void mac_digest_many(const void *ctx, unsigned n, const uint8_t *const msgs[], const size_t lens[],
				   uint8_t *const outs[], size_t bs)
{
	const struct mac_ctx *t = ctx;
	uint8_t st[8][BC_BLOCK] = { { 0 } }, last[8][BC_BLOCK];
	const uint8_t *p[8], *src[8];
	size_t left[8];
	unsigned idx[8], cnt;

	for (unsigned i = 0; i < n; i++) {
		left[i] = lens[i] ? (lens[i] - 1) / bs : 0;
		p[i] = msgs[i];
		mac_last_block(t, msgs[i] + left[i] * bs, lens[i] - left[i] * bs, last[i], bs);
	}
	for (;;) {
		size_t step = SIZE_MAX;

		cnt = 0;
		for (unsigned i = 0; i < n; i++)
			if (left[i]) {
				idx[cnt] = i;
				src[cnt++] = p[i];
				step = left[i] < step ? left[i] : step;
			}
		if (!cnt)
			break;
		chains_step(t, idx, cnt, st, src, step);
		for (unsigned k = 0; k < cnt; k++) {
			p[idx[k]] += step * bs;
			left[idx[k]] -= step;
		}
	}
	cnt = 0;
	for (unsigned i = 0; i < n; i++)
		if (lens[i] || t->pad) {        /* cbcmac leaves the empty message alone */
			idx[cnt] = i;
			src[cnt++] = last[i];
		}
	if (cnt)
		chains_step(t, idx, cnt, st, src, 1);
	for (unsigned i = 0; i < n; i++)
		memcpy(outs[i], st[i], bs);
	bc_wipe(st, sizeof(st));
	bc_wipe(last, sizeof(last));
}

void bc_mac_digest_many(const void *ctx, unsigned n, const uint8_t *const msgs[], const size_t lens[],
			uint8_t *const outs[])
{
	mac_digest_many(ctx, n, msgs, lens, outs, BC_BLOCK);
}

static void mac8_digest_many(const void *ctx, unsigned n, const uint8_t *const msgs[], const size_t lens[],
			     uint8_t *const outs[])
{
	mac_digest_many(ctx, n, msgs, lens, outs, 8);
}

static void fill_common(struct bc_shash_alg *alg)
{
	int b8 = bc_cipher_blocksize(alg->cipher) == 8;

	alg->min_keysize = alg->cipher->min_keysize;
	alg->max_keysize = alg->cipher->max_keysize;
	alg->digestsize = bc_cipher_blocksize(alg->cipher);
	alg->blocksize = alg->digestsize;
	alg->ctxsize = CIPHER_OFF + alg->cipher->ctxsize;
	alg->descsize = sizeof(struct mac_desc);
	alg->init_tfm = bc_mac_init_tfm;
	alg->init = bc_mac_init;
	alg->update = b8 ? mac8_update : bc_mac_update;
	alg->final = b8 ? mac8_final : bc_mac_final;
	alg->digest_many = b8 ? mac8_digest_many : bc_mac_digest_many;
}

static void fill_cmac(struct bc_shash_alg *alg)
{
	fill_common(alg);
	alg->setkey = bc_cmac_setkey;
}

static void fill_xcbc(struct bc_shash_alg *alg)
{
	fill_common(alg);
	alg->setkey = bc_xcbc_setkey;
}

static void fill_cbcmac(struct bc_shash_alg *alg)
{
	fill_common(alg);
	alg->setkey = bc_cbcmac_setkey;
}

const struct bc_template bc_tmpl_cmac = {
	.name = "cmac", .driver_name = "cmac", .type = BC_TYPE_SHASH, .args = BC_ARGS_CIPHER,
	.fill_shash = fill_cmac, .any_block = 1,
};
const struct bc_template bc_tmpl_xcbc = {
	.name = "xcbc", .driver_name = "xcbc", .type = BC_TYPE_SHASH, .args = BC_ARGS_CIPHER,
	.fill_shash = fill_xcbc,
};
const struct bc_template bc_tmpl_cbcmac = {
	.name = "cbcmac", .driver_name = "cbcmac", .type = BC_TYPE_SHASH, .args = BC_ARGS_CIPHER,
	.fill_shash = fill_cbcmac,
};
