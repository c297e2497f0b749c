/* blockcrypt-luks: dm-crypt cipher specs ("aes-xts-plain64", "capi:xts(aes)-plain64") mapped to blockcrypt
 * algorithms, and sector IVs computed as Linux dm-crypt does (plain, plain64, plain64be, benbi, essiv:HASH, eboiv, null). */
#include <stdlib.h>
#include <string.h>

#include "blockcrypt.h"
#include "luks_internal.h"

enum ivgen { IV_NONE, IV_PLAIN, IV_PLAIN64, IV_PLAIN64BE, IV_BENBI, IV_ESSIV, IV_EBOIV, IV_NULL };

struct bc_luks_crypt {
	bc_skcipher *tfm;
	bc_skcipher *essiv;            /* ecb(X) keyed with HASH(key), for essiv */
	enum ivgen iv;
	size_t ivsize;
	unsigned sector_size, shift;   /* shift: log2(sector_size / 512) */
	unsigned benbi_shift;          /* log2(512 / cipher block) */
	int large;
	char alg[128];
};

/* What a spec says: the blockcrypt algorithm, its IV generator, and for essiv
 * the hash and the block cipher the salt keys. */
struct spec {
	char alg[128], cipher[64], hash[32];
	enum ivgen iv;
};

/* IVGEN[:OPTIONS]; only essiv takes an option (the hash). dm-crypt's lmk, tcw,
 * random and elephant are refused by name. */
static int parse_ivgen(const char *spec, const char *s, struct spec *out)
{
	static const struct { const char *name; enum ivgen iv; } gens[] = {
		{ "plain", IV_PLAIN }, { "plain64", IV_PLAIN64 }, { "plain64be", IV_PLAIN64BE }, { "benbi", IV_BENBI },
		{ "eboiv", IV_EBOIV }, { "null", IV_NULL },
	};

	if (!strncmp(s, "essiv:", 6)) {
		if (!s[6] || strlen(s + 6) >= sizeof(out->hash))
			return luks_fail(-EINVAL, "cipher spec \"%s\": essiv needs a hash (essiv:sha256)", spec);
		strcpy(out->hash, s + 6);
		out->iv = IV_ESSIV;
		return 0;
	}
	for (size_t i = 0; i < sizeof(gens) / sizeof(gens[0]); i++)
		if (!strcmp(s, gens[i].name)) {
			out->iv = gens[i].iv;
			return 0;
		}
	if (!strncmp(s, "lmk", 3) || !strncmp(s, "tcw", 3) || !strncmp(s, "random", 6) || !strncmp(s, "elephant", 8))
		return luks_fail(-ENOTSUP, "cipher spec \"%s\": the %.*s IV generator is not supported", spec,
		                 (int)strcspn(s, ":"), s);
	return luks_fail(-ENOTSUP, "cipher spec \"%s\": unknown IV generator \"%s\" (plain, plain64, plain64be, benbi, "
	                 "essiv:HASH, eboiv, null)", spec, s);
}

/* The block cipher a kernel name is built on: its innermost argument
 * ("aes" in cbc(aes) or cts(cbc(aes))). */
static int innermost(const char *spec, const char *name, char *out, size_t size)
{
	const char *open = strrchr(name, '('), *end;

	if (!open || !(end = strchr(open, ')')) || end == open + 1 || strchr(open, ',') || (size_t)(end - open) > size)
		return luks_fail(-EINVAL, "cipher spec \"%s\": no block cipher in \"%s\" for essiv", spec, name);
	memcpy(out, open + 1, (size_t)(end - open - 1));
	out[end - open - 1] = 0;
	return 0;
}

/* CIPHER-MODE-IVGEN (aes-xts-plain64, aes-cbc-essiv:sha256, aes-ecb,
 * xchacha12,aes-adiantum-plain64) or capi:KERNELNAME-IVGEN, as dm-crypt reads
 * its table: MODE(CIPHER) is asked of the registry, so every cipher and mode
 * the library has is accepted (a CIPHER with a comma names a mode's two
 * ciphers, as adiantum takes them); a key count (aes:64-cbc-lmk) is refused. */
static int parse_spec(const char *spec, struct spec *out)
{
	char buf[128], *mode, *ivs;

	memset(out, 0, sizeof(*out));
	if (strlen(spec) >= sizeof(buf))
		return luks_fail(-EINVAL, "cipher spec too long");
	strcpy(buf, spec);
	if (!strncmp(buf, "capi:", 5)) {
		ivs = strrchr(buf, '-');
		if (!ivs || ivs == buf + 5)
			return luks_fail(-EINVAL, "cipher spec \"%s\": capi: needs -IVGEN", spec);
		*ivs++ = 0;
		if (parse_ivgen(spec, ivs, out))
			return -ENOTSUP;
		snprintf(out->alg, sizeof(out->alg), "%s", buf + 5);
		return out->iv == IV_ESSIV ? innermost(spec, out->alg, out->cipher, sizeof(out->cipher)) : 0;
	}
	mode = strchr(buf, '-');
	if (!mode || mode == buf || !mode[1] || mode[1] == '-')
		return luks_fail(-EINVAL, "cipher spec \"%s\" has no mode (CIPHER-MODE-IV)", spec);
	*mode++ = 0;
	ivs = strchr(mode, '-');
	if (ivs)
		*ivs++ = 0;
	if (strchr(buf, ':'))
		return luks_fail(-ENOTSUP, "cipher spec \"%s\": a key count (%s) is not supported", spec, buf);
	if (strlen(buf) >= sizeof(out->cipher) || strpbrk(buf, "()") || buf[0] == ',' || buf[strlen(buf) - 1] == ',' ||
	    strpbrk(mode, "(),:"))
		return luks_fail(-EINVAL, "cipher spec \"%s\" is not CIPHER-MODE-IV", spec);
	strcpy(out->cipher, buf);
	snprintf(out->alg, sizeof(out->alg), "%s(%s)", mode, buf);
	if (!ivs) {
		if (strcmp(mode, "ecb"))
			return luks_fail(-EINVAL, "cipher spec \"%s\" has no IV generator", spec);
		out->iv = IV_NONE;
		return 0;
	}
	return parse_ivgen(spec, ivs, out) ? -ENOTSUP : 0;
}

/* essiv: the salt HASH(key) keys ecb(X), which must take the whole digest as
 * a key and have the data cipher's IV as its block (dm-crypt's rules). */
static int essiv_setup(bc_luks_crypt *c, const char *spec, const struct spec *s, const uint8_t *key, size_t keylen)
{
	uint8_t salt[LUKS_MAX_DIGEST];
	char name[80];
	int size = luks_hash_size(s->hash), r;

	if (size < 0)
		return luks_fail(-ENOTSUP, "cipher spec \"%s\": no hash %s for essiv", spec, s->hash);
	snprintf(name, sizeof(name), "ecb(%s)", s->cipher);
	if (bc_skcipher_alloc(&c->essiv, name))
		return luks_fail(-ENOTSUP, "cipher spec \"%s\": blockcrypt has no %s for essiv", spec, name);
	if (bc_skcipher_blocksize(c->essiv) != c->ivsize)
		return luks_fail(-EINVAL, "cipher spec \"%s\": the %s block is not the IV size", spec, s->cipher);
	r = luks_hash(s->hash, key, keylen, salt);
	if (!r && bc_skcipher_setkey(c->essiv, salt, (size_t)size))
		r = luks_fail(-EINVAL, "cipher spec \"%s\": %s takes no %d-bit key (the %s digest)", spec, s->cipher,
		              size * 8, s->hash);
	explicit_bzero(salt, sizeof(salt));
	return r;
}

/* The IV generator's rules against the data cipher (dm-crypt's constructors). */
static int ivgen_setup(bc_luks_crypt *c, const char *spec, const struct spec *s, const uint8_t *key, size_t keylen)
{
	size_t bs = bc_skcipher_blocksize(c->tfm);

	c->ivsize = bc_skcipher_ivsize(c->tfm);
	if (!c->ivsize) {   /* ecb: dm-crypt ignores an IV generator */
		c->iv = IV_NONE;
		return 0;
	}
	if (c->iv == IV_NONE)
		return luks_fail(-EINVAL, "cipher spec \"%s\": %s needs an IV generator", spec, c->alg);
	if (c->ivsize < 8 || c->ivsize > LUKS_MAX_IV)
		return luks_fail(-ENOTSUP, "cipher spec \"%s\": a %zu-byte IV does not hold a sector number", spec, c->ivsize);
	switch (c->iv) {
	case IV_BENBI:   /* counts cipher blocks, so the block must divide 512 */
		if (bs & (bs - 1) || bs > 512)
			return luks_fail(-EINVAL, "cipher spec \"%s\": benbi needs a power-of-two block up to 512", spec);
		while ((1u << c->benbi_shift) * bs < 512)
			c->benbi_shift++;
		return 0;
	case IV_EBOIV:
		if (bs != c->ivsize)
			return luks_fail(-EINVAL, "cipher spec \"%s\": eboiv needs the block size to be the IV size", spec);
		return 0;
	case IV_ESSIV:
		return essiv_setup(c, spec, s, key, keylen);
	default:
		return 0;
	}
}

int bc_luks_crypt_alloc(bc_luks_crypt **out, const char *spec, const uint8_t *key, size_t keylen,
                        unsigned sector_size, int iv_large_sectors)
{
	bc_luks_crypt *c;
	struct spec s;
	int r;

	*out = NULL;
	if (sector_size < 512 || sector_size > 4096 || (sector_size & (sector_size - 1)))
		return luks_fail(-EINVAL, "sector size %u is not a power of two in 512..4096", sector_size);
	c = calloc(1, sizeof(*c));
	if (!c)
		return luks_fail(-ENOMEM, "out of memory");
	r = parse_spec(spec, &s);
	if (!r) {
		snprintf(c->alg, sizeof(c->alg), "%s", s.alg);
		c->iv = s.iv;
		if (bc_skcipher_alloc(&c->tfm, c->alg))
			r = luks_fail(-ENOTSUP, "cipher spec \"%s\": blockcrypt has no %s", spec, c->alg);
	}
	if (!r && bc_skcipher_setkey(c->tfm, key, keylen))
		r = luks_fail(-EINVAL, "cipher spec \"%s\": a %zu-bit key does not fit %s", spec, keylen * 8, c->alg);
	if (!r && (bc_skcipher_blocksize(c->tfm) > 16 || sector_size % bc_skcipher_blocksize(c->tfm)))
		r = luks_fail(-ENOTSUP, "cipher spec \"%s\": block size does not divide the sector", spec);
	if (!r)
		r = ivgen_setup(c, spec, &s, key, keylen);
	if (r) {
		bc_luks_crypt_free(c);
		return r;
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
	bc_skcipher_free(c->essiv);
	free(c);
}

const char *bc_luks_crypt_driver(const bc_luks_crypt *c)
{
	return bc_skcipher_driver(c->tfm);
}

static void put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The IV of dm-crypt's sector n (512-byte units, or sector_size units with
 * iv_large_sectors), as drivers/md/dm-crypt.c's generators make it. */
static int make_iv(const bc_luks_crypt *c, uint64_t n, uint8_t *iv)
{
	uint8_t in[LUKS_MAX_IV] = { 0 };

	memset(iv, 0, c->ivsize);
	switch (c->iv) {
	case IV_PLAIN:      /* the low 32 bits, little-endian */
		put_le64(iv, n & 0xffffffffu);
		return 0;
	case IV_PLAIN64:
		put_le64(iv, n);
		return 0;
	case IV_PLAIN64BE:
		luks_put_be64(iv + c->ivsize - 8, n);
		return 0;
	case IV_BENBI:      /* big-endian count of cipher blocks, the first block 1 */
		luks_put_be64(iv + c->ivsize - 8, (n << c->benbi_shift) + 1);
		return 0;
	case IV_ESSIV:      /* plain64 encrypted under the salt */
		put_le64(in, n);
		return bc_skcipher_encrypt(c->essiv, NULL, in, iv, c->ivsize);
	case IV_EBOIV: {    /* a zero block encrypted by the data cipher with the byte offset as IV */
		uint8_t off[LUKS_MAX_IV] = { 0 };

		put_le64(off, n * c->sector_size);
		return bc_skcipher_encrypt(c->tfm, off, in, iv, c->ivsize);   /* off: the cbc chain value, public */
	}
	case IV_NONE:
	case IV_NULL:
		return 0;
	}
	return 0;
}

int bc_luks_crypt_sectors(const bc_luks_crypt *c, int encrypt, uint64_t iv_offset, uint64_t sector, uint8_t *buf,
                          size_t len)
{
	uint8_t iv[LUKS_MAX_IV];
	int r = 0;

	if (len % c->sector_size)
		return luks_fail(-EINVAL, "length %zu is not a multiple of the %u-byte sector", len, c->sector_size);
	for (size_t off = 0; off < len && !r; off += c->sector_size, sector++) {
		/* dm-crypt counts IVs in 512-byte sectors; iv_large_sectors divides back to sector_size units. */
		uint64_t n = iv_offset + (sector << c->shift);

		if (c->large)
			n >>= c->shift;
		r = make_iv(c, n, iv);
		if (!r)
			r = encrypt ? bc_skcipher_encrypt(c->tfm, c->iv == IV_NONE ? NULL : iv, buf + off, buf + off, c->sector_size)
			            : bc_skcipher_decrypt(c->tfm, c->iv == IV_NONE ? NULL : iv, buf + off, buf + off, c->sector_size);
	}
	explicit_bzero(iv, sizeof(iv));   /* essiv and eboiv IVs are secret */
	return r ? luks_fail(r, "%s: sector %llu failed (%d)", c->alg, (unsigned long long)(sector - 1), r) : 0;
}
