/* blockcrypt: HKDF, the HMAC-based extract-and-expand key derivation, over any hmac(...) shash.
 * RFC 5869 (the Linux kernel's crypto/hkdf.c interface: a caller-owned hmac tfm, extract then expand). */
#include "internal.h"

static int is_hmac(const bc_shash *hmac)
{
	const char *drv = bc_shash_driver(hmac);

	return drv && strncmp(drv, "hmac(", 5) == 0;
}

/* PRK = HMAC(salt, IKM); the tfm is left keyed with the PRK, ready for
 * bc_hkdf_expand. An empty salt is the RFC's HashLen zero bytes: HMAC pads
 * a short key with zeros, so both give the same PRK. */
int bc_hkdf_extract(bc_shash *hmac, const uint8_t *ikm, size_t ikmlen, const uint8_t *salt, size_t saltlen,
                    uint8_t *prk)
{
	int err;

	if (!hmac || !prk || (ikmlen && !ikm) || (saltlen && !salt) || !is_hmac(hmac))
		return -EINVAL;
	err = bc_shash_setkey(hmac, salt, saltlen);
	if (!err)
		err = bc_shash_digest(hmac, ikm, ikmlen, prk);
	if (!err)
		err = bc_shash_setkey(hmac, prk, bc_shash_digestsize(hmac));
	return err;
}

/* T(0) = empty, T(i) = HMAC(PRK, T(i-1) || info || i), OKM = the first okmlen
 * bytes of T(1) || T(2) || ... The blocks live in a stack buffer that is
 * wiped; a refused length writes nothing. */
int bc_hkdf_expand(bc_shash *hmac, const uint8_t *info, size_t infolen, uint8_t *okm, size_t okmlen)
{
	uint8_t t[BC_MAX_AUTHSIZE];
	size_t hlen, done = 0;
	uint8_t ctr = 1;
	int err;

	if (!hmac || (okmlen && !okm) || (infolen && !info) || !is_hmac(hmac))
		return -EINVAL;
	hlen = bc_shash_digestsize(hmac);
	if (okmlen > 255 * hlen)
		return -EINVAL;
	err = bc_shash_init(hmac);
	for (; !err && done < okmlen; ctr++) {
		if (done)
			err = bc_shash_update(hmac, t, hlen);
		if (!err)
			err = bc_shash_update(hmac, info, infolen);
		if (!err)
			err = bc_shash_update(hmac, &ctr, 1);
		if (!err)
			err = bc_shash_final(hmac, t);
		if (!err) {
			size_t n = okmlen - done < hlen ? okmlen - done : hlen;

			memcpy(okm + done, t, n);
			done += n;
		}
	}
	bc_wipe(t, sizeof(t));
	if (err && done)
		bc_wipe(okm, done);
	return err;
}
