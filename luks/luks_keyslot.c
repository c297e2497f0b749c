/* blockcrypt-luks: keyslot content retrieval and storage (KDF, AF split/merge, area encryption) and the
 * volume key digest. LUKS1 sections 4.2-4.3 (512-byte area sectors, IVs from 0); LUKS2 sections 3.4, 4.2-4.3. */
#include <stdlib.h>
#include <string.h>

#include "blockcrypt.h"
#include "luks_internal.h"

uint64_t luks_af_area_bytes(unsigned key_bytes, uint32_t stripes)
{
	uint64_t n = (uint64_t)key_bytes * stripes;

	return (n + LUKS_SECTOR - 1) / LUKS_SECTOR * LUKS_SECTOR;
}

int luks_digest_make(struct luks_digest *d, const char *hash, size_t len, const uint8_t *key, size_t keylen)
{
	snprintf(d->hash, sizeof(d->hash), "%s", hash);
	d->salt_len = LUKS_SALT;
	d->digest_len = len;
	if (!d->iterations)
		/* 125 ms, as cryptsetup, with its minimum of 1000 */
		d->iterations = luks_pbkdf2_benchmark(hash, 125, len);
	if (!d->iterations || bc_luks_random(d->salt, LUKS_SALT))
		return -EINVAL;
	d->used = 1;
	return luks_pbkdf2(hash, key, keylen, d->salt, d->salt_len, d->iterations, d->digest, len);
}

int luks_digest_check(const struct luks_digest *d, const uint8_t *key, size_t keylen)
{
	uint8_t out[LUKS_MAX_DIGEST];
	int r;

	if (!d->used)
		return luks_fail(-EINVAL, "no digest for this key");
	r = luks_kdf_check_bounds(BC_LUKS_PBKDF2, d->iterations, 0, 0);
	if (!r)
		r = luks_pbkdf2(d->hash, key, keylen, d->salt, d->salt_len, d->iterations, out, d->digest_len);
	if (!r && bc_memneq(out, d->digest, d->digest_len))
		r = -EPERM;
	explicit_bzero(out, sizeof(out));
	return r;
}

/* The area holding slot n's split key, en- or decrypted in place under the KDF output. */
static int slot_area_crypt(const struct luks_slot *s, int encrypt, const uint8_t *kdf_key, uint8_t *area, size_t len)
{
	bc_luks_crypt *c;
	int r = bc_luks_crypt_alloc(&c, s->area_cipher, kdf_key, s->area_key_bytes, LUKS_SECTOR, 0);

	if (r)
		return r;
	r = bc_luks_crypt_sectors(c, encrypt, 0, 0, area, len);
	bc_luks_crypt_free(c);
	return r;
}

int luks_slot_decrypt(bc_luks *l, int n, const char *pass, size_t passlen, uint8_t *key)
{
	const struct luks_slot *s = &l->slot[n];
	size_t len = luks_af_area_bytes(s->key_bytes, s->stripes);
	uint8_t *kdf_key = luks_secure_alloc(LUKS_MAX_KEY), *area = luks_secure_alloc(len);
	int r = -ENOMEM;

	if (kdf_key && area) {
		r = luks_pread_all(l->hdr_fd, area, len, s->area_offset);
		if (!r)
			r = luks_slot_kdf(s, pass, passlen, kdf_key);
		if (!r)
			r = slot_area_crypt(s, 0, kdf_key, area, len);
		if (!r)
			r = luks_af_merge(s->af_hash, area, s->key_bytes, s->stripes, key);
		if (!r)
			r = luks_digest_check(&l->digest[s->digest], key, s->key_bytes);
	}
	luks_secure_free(kdf_key, LUKS_MAX_KEY);
	luks_secure_free(area, len);
	return r;
}

int luks_slot_encrypt(bc_luks *l, int n, const char *pass, size_t passlen, const uint8_t *key)
{
	const struct luks_slot *s = &l->slot[n];
	size_t len = luks_af_area_bytes(s->key_bytes, s->stripes);
	uint8_t *kdf_key = luks_secure_alloc(LUKS_MAX_KEY), *area = luks_secure_alloc(len);
	int r = -ENOMEM;

	if (kdf_key && area) {
		r = luks_af_split(s->af_hash, key, s->key_bytes, s->stripes, area);
		if (!r)
			r = luks_slot_kdf(s, pass, passlen, kdf_key);
		if (!r)
			r = slot_area_crypt(s, 1, kdf_key, area, len);
		if (!r)
			r = luks_pwrite_all(l->hdr_fd, area, len, s->area_offset);
	}
	luks_secure_free(kdf_key, LUKS_MAX_KEY);
	luks_secure_free(area, len);
	return r;
}
