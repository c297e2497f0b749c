/* blockcrypt-luks: the LUKS1 partition header (phdr) read with every field validated, written, and laid out.
 * LUKS1 On-Disk Format Specification 1.2.3, sections 3 (phdr, key slots) and 4.1 (initialisation layout). */
#include <string.h>
#include <unistd.h>

#include "luks_internal.h"

#define PHDR_SIZE 592
#define SLOT_ACTIVE 0x00AC71F3u
#define SLOT_DISABLED 0x0000DEADu
#define DIGEST_LEN 20
#define O_CIPHER 8
#define O_MODE 40
#define O_HASH 72
#define O_PAYLOAD 104
#define O_KEYBYTES 108
#define O_DIGEST 112
#define O_DSALT 132
#define O_DITER 164
#define O_UUID 168
#define O_SLOTS 208
#define SLOT_SIZE 48

static const uint8_t luks1_magic[6] = { 'L', 'U', 'K', 'S', 0xba, 0xbe };

int luks1_load(bc_luks *l, const uint8_t *h)
{
	const char *name = (const char *)h + O_CIPHER, *mode = (const char *)h + O_MODE;
	const char *hash = (const char *)h + O_HASH;
	uint64_t km_end[8];

	memcpy(l->phdr, h, PHDR_SIZE);
	if (!luks_cstring_ok(h + O_CIPHER, 32) || !luks_cstring_ok(h + O_MODE, 32) || !luks_cstring_ok(h + O_HASH, 32) ||
	    !luks_cstring_ok(h + O_UUID, 40))
		return luks_fail(-EINVAL, "LUKS1 header: a text field is not NUL-terminated");
	if (!*name || !*mode)
		return luks_fail(-EINVAL, "LUKS1 header: empty cipher name or mode");
	if (luks_hash_size(hash) < 0)
		return luks_fail(-ENOTSUP, "LUKS1 header: hash \"%s\" is not supported", hash);
	l->version = 1;
	l->key_bytes = luks_be32(h + O_KEYBYTES);
	if (l->key_bytes < 1 || l->key_bytes > LUKS_MAX_KEY)
		return luks_fail(-EINVAL, "LUKS1 header: key size %u bytes out of range", l->key_bytes);
	snprintf(l->cipher, sizeof(l->cipher), "%s-%s", name, mode);
	snprintf(l->uuid, sizeof(l->uuid), "%s", (const char *)h + O_UUID);
	l->sector_size = LUKS_SECTOR;
	l->data_offset = (uint64_t)luks_be32(h + O_PAYLOAD) * LUKS_SECTOR;
	l->dynamic = 1;
	l->nslots = 8;
	struct luks_digest *d = &l->digest[0];

	d->used = 1;
	snprintf(d->hash, sizeof(d->hash), "%s", hash);
	d->iterations = luks_be32(h + O_DITER);
	d->salt_len = LUKS_SALT;
	memcpy(d->salt, h + O_DSALT, LUKS_SALT);
	d->digest_len = DIGEST_LEN;
	memcpy(d->digest, h + O_DIGEST, DIGEST_LEN);
	if (d->iterations < 1)
		return luks_fail(-EINVAL, "LUKS1 header: volume key digest iterations are 0");
	for (int i = 0; i < 8; i++) {
		const uint8_t *k = h + O_SLOTS + i * SLOT_SIZE;
		struct luks_slot *s = &l->slot[i];
		uint32_t state = luks_be32(k), km = luks_be32(k + 40);

		if (state != SLOT_ACTIVE && state != SLOT_DISABLED)
			return luks_fail(-EINVAL, "LUKS1 header: keyslot %d has an invalid state 0x%08x", i, state);
		s->active = state == SLOT_ACTIVE;
		s->kdf = BC_LUKS_PBKDF2;
		snprintf(s->kdf_hash, sizeof(s->kdf_hash), "%s", hash);
		snprintf(s->af_hash, sizeof(s->af_hash), "%s", hash);
		snprintf(s->area_cipher, sizeof(s->area_cipher), "%s", l->cipher);
		s->iterations = luks_be32(k + 4);
		s->salt_len = LUKS_SALT;
		memcpy(s->salt, k + 8, LUKS_SALT);
		s->stripes = luks_be32(k + 44);
		s->key_bytes = s->area_key_bytes = l->key_bytes;
		s->priority = 1;
		s->digest = 0;
		if (s->stripes != LUKS_STRIPES)
			return luks_fail(-EINVAL, "LUKS1 header: keyslot %d has %u stripes (4000 expected)", i, s->stripes);
		if (s->active && s->iterations < 1)
			return luks_fail(-EINVAL, "LUKS1 header: keyslot %d has 0 iterations", i);
		s->area_offset = (uint64_t)km * LUKS_SECTOR;
		s->area_size = luks_af_area_bytes(l->key_bytes, s->stripes);
		km_end[i] = s->area_offset + s->area_size;
		if (s->area_offset < PHDR_SIZE)
			return luks_fail(-EINVAL, "LUKS1 header: keyslot %d's key material overlaps the header", i);
		if (km_end[i] > l->hdr_file_size)
			return luks_fail(-EINVAL, "LUKS1 header: keyslot %d's key material lies beyond the end of the header file", i);
		if (!l->detached && km_end[i] > l->data_offset)
			return luks_fail(-EINVAL, "LUKS1 header: keyslot %d's key material overlaps the data (payload offset %u)", i,
			                 luks_be32(h + O_PAYLOAD));
		for (int j = 0; j < i; j++)
			if (s->area_offset < km_end[j] && l->slot[j].area_offset < km_end[i])
				return luks_fail(-EINVAL, "LUKS1 header: keyslots %d and %d overlap", j, i);
	}
	if (l->data_offset > l->data_file_size)
		return luks_fail(-EINVAL, "LUKS1 header: payload offset %llu bytes is beyond the end of the file",
		                 (unsigned long long)l->data_offset);
	/* whole sectors, as cryptsetup sizes a device: a file that ends inside a sector has that sector's start as end */
	l->data_size = (l->data_file_size - l->data_offset) / LUKS_SECTOR * LUKS_SECTOR;
	return 0;
}

/* The phdr from l (keyslots, digest, uuid), written to sector 0. */
int luks1_store(bc_luks *l)
{
	uint8_t *h = l->phdr;
	int r;

	memset(h + O_UUID, 0, 40);
	memcpy(h + O_UUID, l->uuid, strlen(l->uuid));
	memcpy(h + O_DIGEST, l->digest[0].digest, DIGEST_LEN);
	memcpy(h + O_DSALT, l->digest[0].salt, LUKS_SALT);
	luks_put_be32(h + O_DITER, l->digest[0].iterations);
	for (int i = 0; i < 8; i++) {
		uint8_t *k = h + O_SLOTS + i * SLOT_SIZE;
		const struct luks_slot *s = &l->slot[i];

		luks_put_be32(k, s->active ? SLOT_ACTIVE : SLOT_DISABLED);
		luks_put_be32(k + 4, s->active ? s->iterations : 0);
		if (s->active)
			memcpy(k + 8, s->salt, LUKS_SALT);
		else
			memset(k + 8, 0, LUKS_SALT);
		luks_put_be32(k + 40, (uint32_t)(s->area_offset / LUKS_SECTOR));
		luks_put_be32(k + 44, s->stripes);
	}
	r = luks_pwrite_all(l->hdr_fd, h, PHDR_SIZE, 0);
	return r ? r : fdatasync(l->hdr_fd) ? luks_fail(-errno, "fsync: %s", strerror(errno)) : 0;
}

/* A fresh phdr: key material sections 4 KiB-aligned after the phdr, data 1 MiB-aligned after them
 * (cryptsetup's default alignment; Table 2 of the LUKS2 specification lists the results). */
int luks1_init(bc_luks *l, const struct bc_luks_format_params *p)
{
	const char *hash = p->pbkdf.hash ? p->pbkdf.hash : "sha256";
	uint64_t off = 4096, stride = (luks_af_area_bytes(l->key_bytes, LUKS_STRIPES) + 4095) / 4096 * 4096;
	int r;

	if (p->pbkdf.type && p->pbkdf.type != BC_LUKS_PBKDF2)
		return luks_fail(-EINVAL, "LUKS1 keyslots use PBKDF2 only");
	if (p->sector_size && p->sector_size != LUKS_SECTOR)
		return luks_fail(-EINVAL, "LUKS1 has 512-byte sectors only");
	if (p->label || p->subsystem)
		return luks_fail(-EINVAL, "LUKS1 has no label or subsystem");
	l->version = 1;
	l->nslots = 8;
	l->sector_size = LUKS_SECTOR;
	l->dynamic = 1;
	for (int i = 0; i < 8; i++, off += stride) {
		struct luks_slot *s = &l->slot[i];

		s->stripes = LUKS_STRIPES;
		s->area_offset = off;
		s->area_size = luks_af_area_bytes(l->key_bytes, LUKS_STRIPES);
		s->key_bytes = s->area_key_bytes = l->key_bytes;
		s->kdf = BC_LUKS_PBKDF2;
		s->priority = 1;
		snprintf(s->kdf_hash, sizeof(s->kdf_hash), "%s", hash);
		snprintf(s->af_hash, sizeof(s->af_hash), "%s", hash);
		snprintf(s->area_cipher, sizeof(s->area_cipher), "%s", l->cipher);
	}
	if (l->detached)
		l->data_offset = p->data_offset;
	else if (p->data_offset) {
		if (p->data_offset < off)
			return luks_fail(-EINVAL, "LUKS1: --offset %llu bytes overlaps the keyslots (%llu bytes needed)",
			                 (unsigned long long)p->data_offset, (unsigned long long)off);
		l->data_offset = p->data_offset;
	} else
		l->data_offset = (off + 1048575) / 1048576 * 1048576;
	r = luks1_phdr_init(l, hash);
	l->digest[0].iterations = 0;
	return r;
}

int luks1_phdr_init(bc_luks *l, const char *hash)
{
	uint8_t *h = l->phdr;
	const char *dash = strchr(l->cipher, '-');

	if (!dash || (size_t)(dash - l->cipher) >= 32 || strlen(dash + 1) >= 32 || !strncmp(l->cipher, "capi:", 5))
		return luks_fail(-EINVAL, "LUKS1: cipher \"%s\" cannot be written as name and mode", l->cipher);
	if (strlen(hash) >= 32 || luks_hash_size(hash) < 0)
		return luks_fail(-ENOTSUP, "LUKS1: hash %s is not supported", hash);
	if (l->data_offset % LUKS_SECTOR || l->data_offset / LUKS_SECTOR > UINT32_MAX)
		return luks_fail(-EINVAL, "LUKS1: data offset must be a multiple of 512 bytes below 2 TiB");
	memset(h, 0, PHDR_SIZE);
	memcpy(h, luks1_magic, 6);
	luks_put_be16(h + 6, 1);
	memcpy(h + O_CIPHER, l->cipher, (size_t)(dash - l->cipher));
	memcpy(h + O_MODE, dash + 1, strlen(dash + 1));
	memcpy(h + O_HASH, hash, strlen(hash));
	luks_put_be32(h + O_KEYBYTES, l->key_bytes);
	luks_put_be32(h + O_PAYLOAD, (uint32_t)(l->data_offset / LUKS_SECTOR));
	return 0;
}
