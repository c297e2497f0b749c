/* blockcrypt-luks: dm-crypt cipher specs ("aes-xts-plain64", "capi:xts(aes)-plain64") mapped to blockcrypt
 * algorithms, and sector IVs computed as Linux dm-crypt does (plain, plain64, plain64be, essiv:HASH, null). */
#include <stdlib.h>
#include <string.h>

#include "blockcrypt.h"
#include "luks_internal.h"

enum ivgen { IV_NONE, IV_PLAIN, IV_PLAIN64, IV_PLAIN64BE, IV_ESSIV, IV_NULL };

struct bc_luks_crypt {
	bc_skcipher *tfm;
	enum ivgen iv;
	size_t ivsize;
	unsigned sector_size, shift;   /* shift: log2(sector_size / 512) */
	int large;
	char alg[128];
};

static int parse_ivgen(const char *s, enum ivgen *iv, const char **essiv_hash)
{
	static const struct { const char *name; enum ivgen iv; } gens[] = {
		{ "plain", IV_PLAIN }, { "plain64", IV_PLAIN64 }, { "plain64be", IV_PLAIN64BE }, { "null", IV_NULL },
	};

	*essiv_hash = NULL;
	if (!strncmp(s, "essiv:", 6) && s[6]) {
		*iv = IV_ESSIV;
		*essiv_hash = s + 6;
		return 0;
	}
	for (size_t i = 0; i < sizeof(gens) / sizeof(gens[0]); i++)
		if (!strcmp(s, gens[i].name)) {
			*iv = gens[i].iv;
			return 0;
		}
	return luks_fail(-ENOTSUP, "IV generator \"%s\" is not supported (plain, plain64, plain64be, essiv:HASH, null)", s);
}

/* The blockcrypt algorithm name and IV generator of a dm-crypt spec:
 * CIPHER-MODE-IVGEN (aes-xts-plain64, aes-cbc-essiv:sha256, aes-ecb) or capi:KERNELNAME-IVGEN. */
static int parse_spec(const char *spec, char *alg, size_t algsize, enum ivgen *iv)
{
	char buf[128], *mode, *ivs;
	const char *essiv_hash = NULL;

	if (strlen(spec) >= sizeof(buf))
		return luks_fail(-EINVAL, "cipher spec too long");
	strcpy(buf, spec);
	if (!strncmp(buf, "capi:", 5)) {
		ivs = strrchr(buf, '-');
		if (!ivs || ivs < buf + 5)
			return luks_fail(-EINVAL, "cipher spec \"%s\": capi: needs -IVGEN", spec);
		*ivs++ = 0;
		if (parse_ivgen(ivs, iv, &essiv_hash))
			return -ENOTSUP;
		if (*iv == IV_ESSIV)
			return luks_fail(-ENOTSUP, "cipher spec \"%s\": write essiv as capi:essiv(cbc(aes),sha256)-plain64", spec);
		snprintf(alg, algsize, "%s", buf + 5);
		return 0;
	}
	mode = strchr(buf, '-');
	if (!mode)
		return luks_fail(-EINVAL, "cipher spec \"%s\" has no mode (CIPHER-MODE-IV)", spec);
	*mode++ = 0;
	ivs = strchr(mode, '-');
	if (ivs)
		*ivs++ = 0;
	if (strcmp(buf, "aes") && strcmp(buf, "sm4"))
		return luks_fail(-ENOTSUP, "cipher %s is not supported (aes, sm4)", buf);
	if (strcmp(mode, "xts") && strcmp(mode, "cbc") && strcmp(mode, "ecb") && strcmp(mode, "ctr"))
		return luks_fail(-ENOTSUP, "cipher mode %s is not supported (xts, cbc, ecb, ctr)", mode);
	if (!strcmp(mode, "ecb")) {
		if (ivs && strcmp(ivs, "null"))
			return luks_fail(-EINVAL, "cipher spec \"%s\": ecb takes no IV", spec);
		*iv = IV_NONE;
	} else if (!ivs) {
		return luks_fail(-EINVAL, "cipher spec \"%s\" has no IV generator", spec);
	} else if (parse_ivgen(ivs, iv, &essiv_hash)) {
		return -ENOTSUP;
	}
	if (essiv_hash) {
		if (strcmp(mode, "cbc"))
			return luks_fail(-ENOTSUP, "essiv is supported with cbc only");
		snprintf(alg, algsize, "essiv(cbc(%s),%s)", buf, essiv_hash);
	} else {
		snprintf(alg, algsize, "%s(%s)", mode, buf);
	}
	return 0;
}

int bc_luks_crypt_alloc(bc_luks_crypt **out, const char *spec, const uint8_t *key, size_t keylen,
                        unsigned sector_size, int iv_large_sectors)
{
	bc_luks_crypt *c;
	int r;

	*out = NULL;
	if (sector_size < 512 || sector_size > 4096 || (sector_size & (sector_size - 1)))
		return luks_fail(-EINVAL, "sector size %u is not a power of two in 512..4096", sector_size);
	c = calloc(1, sizeof(*c));
	if (!c)
		return luks_fail(-ENOMEM, "out of memory");
	r = parse_spec(spec, c->alg, sizeof(c->alg), &c->iv);
	if (!r) {
		r = bc_skcipher_alloc(&c->tfm, c->alg);
		if (r)
			r = luks_fail(-ENOTSUP, "cipher spec \"%s\": blockcrypt has no %s", spec, c->alg);
	}
	if (!r && bc_skcipher_setkey(c->tfm, key, keylen))
		r = luks_fail(-EINVAL, "cipher spec \"%s\": a %zu-bit key does not fit %s", spec, keylen * 8, c->alg);
	if (!r && (bc_skcipher_blocksize(c->tfm) > 16 || sector_size % bc_skcipher_blocksize(c->tfm)))
		r = luks_fail(-ENOTSUP, "cipher spec \"%s\": block size does not divide the sector", spec);
	if (r) {
		bc_luks_crypt_free(c);
		return r;
	}
	c->ivsize = bc_skcipher_ivsize(c->tfm);
	if (c->iv != IV_NONE && c->ivsize < 8) {
		bc_luks_crypt_free(c);
		return luks_fail(-ENOTSUP, "cipher spec \"%s\": IV too short for a sector number", spec);
	}
	c->sector_size = sector_size;
	while ((512u << c->shift) < sector_size)
		c->shift++;
	c->large = iv_large_sectors;
	*out = c;
	return 0;
}

void bc_luks_crypt_free(bc_luks_crypt *c)
{
	if (!c)
		return;
	bc_skcipher_free(c->tfm);
	free(c);
}

const char *bc_luks_crypt_driver(const bc_luks_crypt *c)
{
	return bc_skcipher_driver(c->tfm);
}

static void make_iv(const bc_luks_crypt *c, uint64_t n, uint8_t *iv)
{
	memset(iv, 0, c->ivsize);
	switch (c->iv) {
	case IV_PLAIN:   /* the low 32 bits, little-endian */
		n &= 0xffffffffu;
		__attribute__((fallthrough));
	case IV_PLAIN64:
	case IV_ESSIV:   /* the template encrypts the little-endian sector under the hashed key */
		for (int i = 0; i < 8; i++)
			iv[i] = (uint8_t)(n >> (8 * i));
		break;
	case IV_PLAIN64BE:
		luks_put_be64(iv + c->ivsize - 8, n);
		break;
	case IV_NONE:
	case IV_NULL:
		break;
	}
}

int bc_luks_crypt_sectors(const bc_luks_crypt *c, int encrypt, uint64_t iv_offset, uint64_t sector, uint8_t *buf,
                          size_t len)
{
	uint8_t iv[32];

	if (len % c->sector_size)
		return luks_fail(-EINVAL, "length %zu is not a multiple of the %u-byte sector", len, c->sector_size);
	for (size_t off = 0; off < len; off += c->sector_size, sector++) {
		/* dm-crypt counts IVs in 512-byte sectors; iv_large_sectors divides back to sector_size units. */
		uint64_t n = iv_offset + (sector << c->shift);
		int r;

		if (c->large)
			n >>= c->shift;
		make_iv(c, n, iv);
		r = encrypt ? bc_skcipher_encrypt(c->tfm, c->iv == IV_NONE ? NULL : iv, buf + off, buf + off, c->sector_size)
		            : bc_skcipher_decrypt(c->tfm, c->iv == IV_NONE ? NULL : iv, buf + off, buf + off, c->sector_size);
		if (r)
			return luks_fail(r, "%s: sector %llu failed (%d)", c->alg, (unsigned long long)sector, r);
	}
	return 0;
}
