/* Test support for the templates over whole algorithms: their names, the authenc key blob, and a reference HMAC.
 * RFC 2104 (HMAC), Linux crypto/authenc.c (crypto_authenc_extractkeys). */
#include "common.h"
#include "common_tmpl.h"

#include <string.h>

int composed_name(const char *alg)
{
	static const char *const prefixes[] = { "hmac(", "rfc3686(", "rfc4106(", "rfc4543(", "rfc4309(", "authenc(",
		"authencesn(" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (starts(alg, prefixes[i]))
			return 1;
	return 0;
}

size_t authenc_blob(uint8_t *out, const uint8_t *authkey, size_t alen, const uint8_t *enckey, size_t elen)
{
	uint16_t rta_len = 8, rta_type = 1;

	memcpy(out, &rta_len, 2);
	memcpy(out + 2, &rta_type, 2);
	out[4] = (uint8_t)(elen >> 24);
	out[5] = (uint8_t)(elen >> 16);
	out[6] = (uint8_t)(elen >> 8);
	out[7] = (uint8_t)elen;
	memcpy(out + 8, authkey, alen);
	memcpy(out + 8 + alen, enckey, elen);
	return 8 + alen + elen;
}

/* Block sizes by hash name: the hash API does not report it to callers. */
static size_t hash_block(const char *hash)
{
	return starts(hash, "sha384") || starts(hash, "sha512") ? 128 : 64;
}

int ref_hmac(const char *hash, const uint8_t *key, size_t keylen, const uint8_t *const parts[],
	     const size_t lens[], size_t nparts, uint8_t *out, size_t *outlen)
{
	uint8_t k[128] = { 0 }, pad[128], inner[64];
	size_t bs = hash_block(hash), dl;
	bc_shash *h;
	int rc = bc_shash_alloc(&h, hash);

	if (rc)
		return rc;
	dl = bc_shash_digestsize(h);
	if (keylen > bs)
		rc |= bc_shash_digest(h, key, keylen, k);
	else if (keylen)
		memcpy(k, key, keylen);
	for (size_t i = 0; i < bs; i++)
		pad[i] = k[i] ^ 0x36;
	rc |= bc_shash_init(h);
	rc |= bc_shash_update(h, pad, bs);
	for (size_t i = 0; i < nparts; i++)
		rc |= bc_shash_update(h, parts[i], lens[i]);
	rc |= bc_shash_final(h, inner);
	for (size_t i = 0; i < bs; i++)
		pad[i] = k[i] ^ 0x5c;
	rc |= bc_shash_init(h);
	rc |= bc_shash_update(h, pad, bs);
	rc |= bc_shash_update(h, inner, dl);
	rc |= bc_shash_final(h, out);
	*outlen = dl;
	bc_shash_free(h);
	return rc;
}

size_t composed_test_key(const struct bc_driver_info *info, uint8_t *key, size_t *ivlen, size_t *len)
{
	const char *n = info->name;
	uint8_t ak[20], ek[24];

	rng_fill(key, 40);
	*ivlen = info->ivsize;
	if (starts(n, "hmac("))
		return 40;
	if (starts(n, "authenc")) {
		const char *e = strchr(n, ',') + 1;
		size_t el = strstr(e, "des3_ede") ? 24 : 16;

		if (!starts(e, "ctr("))
			*len = *len / 16 * 16;
		rng_fill(ak, sizeof(ak));
		rng_fill(ek, el);
		return authenc_blob(key, ak, sizeof(ak), ek, el);
	}
	return starts(n, "rfc4309(") ? 19 : 20;
}
