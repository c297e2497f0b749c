/* blockcrypt arm64: ccm(aes) with AES-CE in one pass, each CBC-MAC step carrying one counter block (driver ccm-aes-ce). CPU: AES.
 * NIST SP 800-38C / RFC 3610 (CCM), FIPS-197 (AES); Linux crypto/ccm.c semantics (16-byte IV, iv[0] = L - 1). */
#include "aes_ce.h"
#include "../../mode/mode.h"

/* The CBC-MAC is one serial chain of AES rounds; the counter blocks are
 * independent of it, so each chain step takes one counter block through the
 * same rounds beside it, in the slots the chain leaves idle, and the text is
 * encrypted almost for free.
 *
 * The chain is kept as y = st ^ rk[Nr], the form of aes-ce's own CBC-MAC:
 * its next step is AESE with k0 = rk[0] ^ rk[Nr] on y ^ m. A counter block
 * rides along as c ^ rk[Nr] (AESE XORs its key in first, so both meet rk[0])
 * and comes out as its keystream ^ rk[Nr]. The keystream runs one block
 * ahead, so a decryption has each plaintext block before its chain step. */

static int ccm_aes_ce_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	if (!bc_aes_ce_keylen_ok(keylen))
		return -EINVAL;
	bc_aes_ce_expand(ctx, key, keylen);
	return 0;
}

/* Counter block c: the first 8 bytes of A0 (hi, as stored), then c
 * big-endian. bc_ccm_check bounds the text so that the counter, in the last
 * L <= 8 bytes, never carries out of them. */
BC_A64_INLINE uint8x16_t ccm_ctr(uint64_t hi, uint64_t c)
{
	return vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(hi), vcreate_u64(__builtin_bswap64(c))));
}

/* One message with r->rounds a constant; returns the untruncated tag. */
BC_A64_INLINE uint8x16_t ccm_ce(const struct bc_aes_ce_regs *r, const int enc, const uint8_t *iv, const uint8_t *ad,
				size_t adlen, const uint8_t *src, uint8_t *dst, size_t len, size_t taglen)
{
	uint8_t b0[16], a0[16], blk[16] = { 0 };
	size_t hlen = bc_ccm_format(iv, adlen, len, taglen, b0, a0, blk), nb = len / 16, rest = len % 16, n;
	const uint8x16_t kl = r->k[14], k0 = veorq_u8(r->first, kl);
	uint8x16_t x[3], y, s0, ks;
	uint64_t hi, c;

	memcpy(&hi, a0, 8);
	c = bc_load_be64(a0 + 8);
	/* B0's step, S0 = E(A0) and the first keystream block E(A1) together */
	x[0] = veorq_u8(vld1q_u8(b0), kl);
	x[1] = veorq_u8(ccm_ctr(hi, c), kl);
	x[2] = veorq_u8(ccm_ctr(hi, c + 1), kl);
	bc_aes_ce_open(r, k0, x, 3, 1);
	y = x[0];
	s0 = veorq_u8(x[1], kl);
	ks = veorq_u8(x[2], kl);

	/* the AD (SP 800-38C A.2.2): its encoded length then the data, zero-padded; blk holds the length */
	if (hlen) {
		n = adlen < 16 - hlen ? adlen : 16 - hlen;
		memcpy(blk + hlen, ad, n);
		y = veorq_u8(y, vld1q_u8(blk));
		bc_aes_ce_open(r, k0, &y, 1, 1);
		for (ad += n, adlen -= n; adlen >= 16; ad += 16, adlen -= 16) {
			y = veorq_u8(y, vld1q_u8(ad));
			bc_aes_ce_open(r, k0, &y, 1, 1);
		}
		if (adlen) {
			memset(blk, 0, 16);
			memcpy(blk, ad, adlen);
			y = veorq_u8(y, vld1q_u8(blk));
			bc_aes_ce_open(r, k0, &y, 1, 1);
		}
	}
	for (size_t i = 0; i < nb; i++) {
		uint8x16_t in = vld1q_u8(src + 16 * i), out = veorq_u8(in, ks);

		vst1q_u8(dst + 16 * i, out);
		x[0] = veorq_u8(y, enc ? in : out);
		x[1] = veorq_u8(ccm_ctr(hi, c + 2 + i), kl);
		bc_aes_ce_open(r, k0, x, 2, 1);
		y = x[0];
		ks = veorq_u8(x[1], kl);
	}
	if (rest) {
		/* the text's last bytes, zero-padded for the MAC: the plaintext
		 * when encrypting, what comes out when decrypting */
		memset(blk, 0, 16);
		memcpy(blk, src + 16 * nb, rest);
		x[0] = vld1q_u8(blk);
		vst1q_u8(blk, veorq_u8(x[0], ks));
		memcpy(dst + 16 * nb, blk, rest);
		if (!enc) {
			memset(blk + rest, 0, 16 - rest);
			x[0] = vld1q_u8(blk);
		}
		y = veorq_u8(y, x[0]);
		bc_aes_ce_open(r, k0, &y, 1, 1);
	}
	bc_wipe(blk, sizeof(blk));
	return veorq_u8(veorq_u8(y, kl), s0);
}

/* Out of line: it spills round keys, which the callers then burn (bc_burn_stack). */
static __attribute__((noinline)) void ccm_aes_ce_crypt(const struct bc_aes_ce_key *k, const int enc, const uint8_t *iv,
						      const uint8_t *ad, size_t adlen, const uint8_t *src, uint8_t *dst,
						      size_t len, size_t taglen, uint8_t full[16])
{
	struct bc_aes_ce_regs r;

	bc_aes_ce_load(&r, k->rk, k->rounds);
	BC_AES_CE_PER_KEYSIZE(&r, vst1q_u8(full, enc ? ccm_ce(&r, 1, iv, ad, adlen, src, dst, len, taglen)
						    : ccm_ce(&r, 0, iv, ad, adlen, src, dst, len, taglen)));
}

static void ccm_aes_ce_encrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			       const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag, size_t taglen)
{
	uint8_t full[16];

	(void)ivlen;
	ccm_aes_ce_crypt(ctx, 1, iv, ad, adlen, src, dst, len, taglen, full);
	bc_burn_stack();
	memcpy(tag, full, taglen);
	bc_wipe(full, sizeof(full));
}

/* The plaintext is written as it is decrypted (the MAC is over it); a tag
 * that does not verify zero-fills dst before the call returns. */
static int ccm_aes_ce_decrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			      const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag, size_t taglen)
{
	uint8_t full[16];
	int bad;

	(void)ivlen;
	ccm_aes_ce_crypt(ctx, 0, iv, ad, adlen, src, dst, len, taglen, full);
	bc_burn_stack();
	bad = bc_memneq(full, tag, taglen);
	bc_wipe(full, sizeof(full));
	if (bad) {
		memset(dst, 0, len);
		return -EBADMSG;
	}
	return 0;
}

const struct bc_aead_alg bc_ccm_aes_ce = {
	.name = "ccm(aes)",
	.driver = "ccm-aes-ce",
	.priority = 500,
	.cpu = BC_CPU_ARM_AES,
	.min_keysize = 16,
	.max_keysize = 32,
	.ivsize = 16,
	.maxauthsize = 16,
	.ctxsize = sizeof(struct bc_aes_ce_key),
	.setkey = ccm_aes_ce_setkey,
	.encrypt = ccm_aes_ce_encrypt,
	.decrypt = ccm_aes_ce_decrypt,
	.setauthsize = bc_ccm_setauthsize,
	.check = bc_ccm_check,
};
