/* blockcrypt-luks: opening, formatting and unlocking LUKS images, keyslot management, and the data segment
 * read and written sector by sector (LUKS1 section 4, LUKS2 sections 4.1-4.4; IVs as dm-crypt). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blockcrypt.h"
#include "luks_internal.h"

static int open_file(const char *path, int writable, uint64_t *size)
{
	int fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	off_t end;

	if (fd < 0)
		return luks_fail(-errno, "%s: %s", path, strerror(errno));
	end = lseek(fd, 0, SEEK_END);
	if (end < 0) {
		int e = errno;

		close(fd);
		return luks_fail(-e, "%s: %s", path, strerror(e));
	}
	*size = (uint64_t)end;
	return fd;
}

static int open_files(bc_luks **out, const char *data, const char *hdr, int writable)
{
	bc_luks *l = calloc(1, sizeof(*l));
	int fd;

	*out = NULL;
	if (!l)
		return luks_fail(-ENOMEM, "out of memory");
	l->hdr_fd = l->data_fd = -1;
	l->writable = writable;
	fd = open_file(data, writable, &l->data_file_size);
	if (fd < 0) {
		free(l);
		return fd;
	}
	l->data_fd = l->hdr_fd = fd;
	l->hdr_file_size = l->data_file_size;
	if (hdr) {
		l->detached = 1;
		fd = open_file(hdr, writable, &l->hdr_file_size);
		if (fd < 0) {
			bc_luks_close(l);
			return fd;
		}
		l->hdr_fd = fd;
	}
	*out = l;
	return 0;
}

void bc_luks_close(bc_luks *l)
{
	if (!l)
		return;
	luks_secure_free(l->volume_key, LUKS_MAX_KEY);
	bc_luks_crypt_free(l->crypt);
	luks_reenc_free(l);
	luks2_free(l);
	if (l->hdr_fd >= 0 && l->hdr_fd != l->data_fd)
		close(l->hdr_fd);
	if (l->data_fd >= 0)
		close(l->data_fd);
	explicit_bzero(l, sizeof(*l));
	free(l);
}

int luks_open(bc_luks **out, const char *data, const char *hdr, int writable, int strict)
{
	uint8_t h[592];
	bc_luks *l;
	int r = open_files(&l, data, hdr, writable);

	if (r)
		return r;
	l->strict = strict;
	if (l->hdr_file_size < sizeof(h)) {
		r = luks_fail(-EINVAL, "not a LUKS image: %llu bytes is too short for a header",
		              (unsigned long long)l->hdr_file_size);
	} else {
		r = luks_pread_all(l->hdr_fd, h, sizeof(h), 0);
		/* LUKS1 and LUKS2 share the magic and the version field; LUKS2 can also be found from its
		 * secondary header when the primary is damaged. */
		if (!r && !memcmp(h, "LUKS\xba\xbe", 6) && luks_be16(h + 6) == 1)
			r = luks1_load(l, h);
		else if (!r)
			r = luks2_load(l);
	}
	if (!r && l->reenc && writable == 1)
		r = luks_fail(-ENOTSUP, "LUKS2: a reencryption is in progress: the image can be read, not changed "
		              "(finish it with cryptsetup reencrypt --resume-only)");
	if (r) {
		bc_luks_close(l);
		return r;
	}
	*out = l;
	return 0;
}

int bc_luks_open(bc_luks **out, const char *data, const char *hdr, int writable)
{
	return luks_open(out, data, hdr, writable != 0, 0);   /* 2 is reencrypt's own */
}

int bc_luks_version(const bc_luks *l) { return l->version; }
const char *bc_luks_uuid(const bc_luks *l) { return l->uuid; }
const char *bc_luks_cipher(const bc_luks *l) { return l->cipher; }
unsigned bc_luks_sector_size(const bc_luks *l) { return l->sector_size; }
uint64_t bc_luks_data_offset(const bc_luks *l) { return l->data_offset; }
uint64_t bc_luks_data_size(const bc_luks *l) { return l->data_size; }
unsigned bc_luks_key_bytes(const bc_luks *l) { return l->key_bytes; }
int bc_luks_max_slots(const bc_luks *l) { return l->nslots; }

int bc_luks_slot_active(const bc_luks *l, int slot)
{
	if (slot < 0 || slot >= l->nslots)
		return luks_fail(-EINVAL, "keyslot %d out of range (0..%d)", slot, l->nslots - 1);
	return l->slot[slot].active;
}

/* The volume key is in place: key the data cipher. */
static int set_volume_key(bc_luks *l, const uint8_t *key, size_t keylen)
{
	int r;

	if (!l->volume_key && !(l->volume_key = luks_secure_alloc(LUKS_MAX_KEY)))
		return luks_fail(-ENOMEM, "out of memory");
	if (key != l->volume_key)
		memcpy(l->volume_key, key, keylen);
	l->key_bytes = (unsigned)keylen;
	bc_luks_crypt_free(l->crypt);
	l->crypt = NULL;
	r = bc_luks_crypt_alloc(&l->crypt, l->cipher, l->volume_key, keylen, l->sector_size, l->iv_large);
	return r;
}

int bc_luks_unlock(bc_luks *l, const char *pass, size_t passlen, int slot)
{
	int hard = 0;

	if (slot >= l->nslots)
		return luks_fail(-EINVAL, "keyslot %d out of range (0..%d)", slot, l->nslots - 1);
	if (slot >= 0 && !l->slot[slot].active)
		return luks_fail(-EINVAL, "keyslot %d is not active", slot);
	if (!l->volume_key && !(l->volume_key = luks_secure_alloc(LUKS_MAX_KEY)))
		return luks_fail(-ENOMEM, "out of memory");
	if (l->reenc) {
		int k = l->reenc->side[1].key >= 0, r = slot >= 0 ? luks_fail(-ENOTSUP, "a reencryption is in progress: "
		                                                              "every keyslot is tried") : 0;

		if (!r)
			r = luks_reenc_unlock(l, pass, passlen);
		if (r < 0)
			return r;
		memcpy(l->volume_key, l->reenc->key[k], l->key_bytes);
		k = set_volume_key(l, l->volume_key, l->key_bytes);
		return k ? k : r;
	}
	/* high priority first, then normal; priority 0 only when asked for by number */
	for (int prio = 2; prio >= 1; prio--)
		for (int i = 0; i < l->nslots; i++) {
			int r;

			if (slot >= 0 ? i != slot || prio != 2 : !l->slot[i].active || l->slot[i].priority != prio)
				continue;
			r = luks_slot_decrypt(l, i, pass, passlen, l->volume_key);
			if (!r) {
				r = set_volume_key(l, l->volume_key, l->slot[i].key_bytes);
				return r ? r : i;
			}
			if (r != -EPERM && !hard)
				hard = r;
		}
	explicit_bzero(l->volume_key, LUKS_MAX_KEY);
	if (hard)
		return hard;
	return luks_fail(-EPERM, "no key available with this passphrase");
}

int bc_luks_unlock_volume_key(bc_luks *l, const uint8_t *key, size_t keylen)
{
	int r;

	if (l->reenc)
		return luks_fail(-ENOTSUP, "a reencryption is in progress: it needs both keys (unlock with a passphrase)");
	if (keylen < 1 || keylen > LUKS_MAX_KEY || (l->key_bytes && keylen != l->key_bytes))
		return luks_fail(-EINVAL, "volume key must be %u bytes", l->key_bytes);
	r = luks_digest_check(&l->digest[l->version == 1 ? 0 : l->segment_digest], key, keylen);
	if (r == -EPERM)
		return luks_fail(r, "volume key does not match the header's digest");
	return r ? r : set_volume_key(l, key, keylen);
}

int bc_luks_volume_key(const bc_luks *l, uint8_t *out, size_t outlen)
{
	if (!l->crypt)
		return luks_fail(-ENOKEY, "the image is not unlocked");
	if (outlen < l->key_bytes)
		return luks_fail(-EINVAL, "buffer too small for the volume key");
	memcpy(out, l->volume_key, l->key_bytes);
	return (int)l->key_bytes;
}

int bc_luks_open_plain(bc_luks **out, const char *data, const char *spec, const uint8_t *key, size_t keylen,
                       unsigned sector_size, int iv_large_sectors, uint64_t offset, uint64_t size, uint64_t iv_offset,
                       int writable)
{
	bc_luks *l;
	int r;

	if (keylen < 1 || keylen > LUKS_MAX_KEY || strlen(spec) >= sizeof(l->cipher))
		return luks_fail(-EINVAL, "plain: key size or cipher spec out of range");
	r = open_files(&l, data, NULL, writable);
	if (r)
		return r;
	snprintf(l->cipher, sizeof(l->cipher), "%s", spec);
	l->sector_size = sector_size;
	l->data_offset = offset;
	l->iv_tweak = iv_offset;
	l->dynamic = !size;
	if (sector_size < 512 || sector_size > 4096 || offset % 512 || size % sector_size)
		r = luks_fail(-EINVAL, "plain: offset and size must be whole sectors");
	else if (offset > l->data_file_size || (size && !writable && size > l->data_file_size - offset))
		r = luks_fail(-EINVAL, "plain: the mapping extends beyond the end of the file");
	if (!r) {
		l->data_size = size ? size : (l->data_file_size - offset) / sector_size * sector_size;
		l->iv_large = iv_large_sectors;
		r = set_volume_key(l, key, keylen);
	}
	if (r) {
		bc_luks_close(l);
		return r;
	}
	*out = l;
	return 0;
}

/* Plaintext range [off, off+len) through whole sectors; write: read-modify-write of partial sectors. */
static int range_io(bc_luks *l, uint64_t off, uint8_t *buf, size_t len, int write)
{
	const size_t ss = l->sector_size;
	/* a small range stays small: the bounce buffer covers it (up to 1 MiB at a time) */
	const size_t span_max = len < (1u << 20) ? (len + ss - 1) / ss * ss + ss : 1u << 20;
	uint8_t *tmp = NULL;
	int r = 0;

	if (!l->crypt)
		return luks_fail(-ENOKEY, "the image is not unlocked");
	if (write && !l->writable)
		return luks_fail(-EBADF, "the image is open read-only");
	if (off > l->data_size || len > l->data_size - off)
		return luks_fail(-EINVAL, "range beyond the end of the data (%llu bytes)", (unsigned long long)l->data_size);
	if (l->reenc)
		return luks_reenc_read(l, off, buf, len);   /* read-only (luks_open refuses writable) */
	while (len && !r) {
		uint64_t first = off / ss, head = off % ss;
		size_t n = len < span_max - head ? len : span_max - head;
		size_t span = (head + n + ss - 1) / ss * ss;
		uint64_t at = l->data_offset + first * ss;
		int whole = !head && n == span;
		/* whole sectors read are decrypted in the caller's buffer, and whole sectors written need not be read
		 * first; anything else goes through the bounce buffer (allocated only then: no allocation per small read) */
		uint8_t *in = !write && whole ? buf : tmp;

		if (!in) {
			in = tmp = malloc(span_max + ss);
			if (!tmp)
				return luks_fail(-ENOMEM, "out of memory");
		}
		if (!write || !whole) {
			r = luks_pread_all(l->data_fd, in, span, at);
			if (!r)
				r = bc_luks_crypt_sectors(l->crypt, 0, l->iv_tweak, first, in, span);
		}
		if (!r && write) {
			memcpy(tmp + head, buf, n);
			r = bc_luks_crypt_sectors(l->crypt, 1, l->iv_tweak, first, tmp, span);
			if (!r)
				r = luks_pwrite_all(l->data_fd, tmp, span, at);
		} else if (!r && in == tmp) {
			memcpy(buf, tmp + head, n);
		}
		off += n;
		buf += n;
		len -= n;
	}
	if (tmp) {
		explicit_bzero(tmp, span_max + ss);
		free(tmp);
	}
	return r;
}

int bc_luks_read(bc_luks *l, uint64_t off, uint8_t *buf, size_t len)
{
	return range_io(l, off, buf, len, 0);
}

int bc_luks_write_nosync(bc_luks *l, uint64_t off, const uint8_t *buf, size_t len)
{
	return range_io(l, off, (uint8_t *)buf, len, 1);
}

int bc_luks_sync(bc_luks *l)
{
	return fdatasync(l->data_fd) ? luks_fail(-errno, "fsync: %s", strerror(errno)) : 0;
}

int bc_luks_write(bc_luks *l, uint64_t off, const uint8_t *buf, size_t len)
{
	int r = bc_luks_write_nosync(l, off, buf, len);

	return r ? r : bc_luks_sync(l);
}

int luks_wipe_area(int fd, uint64_t off, uint64_t len)
{
	static const uint8_t zero[65536];
	int r = 0;

	while (len && !r) {
		size_t n = len < sizeof(zero) ? (size_t)len : sizeof(zero);

		r = luks_pwrite_all(fd, zero, n, off);
		off += n;
		len -= n;
	}
	return r;
}

int luks_store(bc_luks *l)
{
	return l->version == 1 ? luks1_store(l) : luks2_store(l);
}

/* Slot n's parameters for a new key: the KDF from p, the area and ciphers from the header. */
static int slot_setup(bc_luks *l, int n, const struct bc_luks_pbkdf_params *p)
{
	struct luks_slot *s = &l->slot[n];
	struct bc_luks_pbkdf_params q = *p;
	const char *digest_hash = l->digest[l->version == 1 ? 0 : l->segment_digest].hash;
	int r;

	if (l->version == 1) {
		if (q.type && q.type != BC_LUKS_PBKDF2)
			return luks_fail(-EINVAL, "LUKS1 keyslots use PBKDF2 only");
		q.type = BC_LUKS_PBKDF2;
		q.hash = digest_hash;   /* LUKS1 has one hash-spec for everything */
	} else {
		uint64_t off, size;

		r = luks2_slot_area(l, l->key_bytes, &off, &size);
		if (r)
			return r;
		memset(s, 0, sizeof(*s));
		s->area_offset = off;
		s->area_size = size;
		s->stripes = LUKS_STRIPES;
		s->key_bytes = s->area_key_bytes = l->key_bytes;
		s->priority = 1;
		s->digest = l->segment_digest;
		snprintf(s->area_cipher, sizeof(s->area_cipher), "%s", l->cipher);
		snprintf(s->af_hash, sizeof(s->af_hash), "%s", q.hash ? q.hash : digest_hash);
	}
	return luks_kdf_choose(s, &q, l->key_bytes);
}

int bc_luks_add_key(bc_luks *l, int slot, const struct bc_luks_pbkdf_params *p, const char *pass, size_t passlen)
{
	int r;

	if (!l->crypt)
		return luks_fail(-ENOKEY, "the image is not unlocked");
	if (!l->writable)
		return luks_fail(-EBADF, "the image is open read-only");
	if (slot >= l->nslots)
		return luks_fail(-EINVAL, "keyslot %d out of range (0..%d)", slot, l->nslots - 1);
	if (slot >= 0 && l->slot[slot].active)
		return luks_fail(-EEXIST, "keyslot %d is in use", slot);
	for (int i = 0; slot < 0 && i < l->nslots; i++)
		if (!l->slot[i].active && (l->version == 1 || !l->slot[i].area_size))
			slot = i;
	if (slot < 0 || (l->version == 2 && l->slot[slot].area_size && !l->slot[slot].active))
		return luks_fail(-ENOSPC, "no free keyslot");
	r = slot_setup(l, slot, p);
	if (!r)
		r = luks_slot_encrypt(l, slot, pass, passlen, l->volume_key);
	if (!r) {
		l->slot[slot].active = 1;
		if (l->version == 2)
			luks2_set_slot(l, slot);
		r = luks_store(l);
	}
	if (r) {
		if (l->version == 2)
			memset(&l->slot[slot], 0, sizeof(l->slot[slot]));
		l->slot[slot].active = 0;
		return r;
	}
	return slot;
}

int bc_luks_change_key(bc_luks *l, int slot, int new_slot, const struct bc_luks_pbkdf_params *p, const char *pass,
                       size_t passlen)
{
	struct luks_slot old;
	int r = bc_luks_slot_active(l, slot);

	if (r <= 0)
		return r < 0 ? r : luks_fail(-EINVAL, "keyslot %d is not active", slot);
	if (!l->crypt)
		return luks_fail(-ENOKEY, "the image is not unlocked");
	if (!l->writable)
		return luks_fail(-EBADF, "the image is open read-only");
	if (new_slot >= l->nslots)
		return luks_fail(-EINVAL, "keyslot %d out of range (0..%d)", new_slot, l->nslots - 1);
	/* as cryptsetup's luksChangeKey: LUKS1 moves the key to the first free slot (its areas are fixed, so the
	 * old material stays until the new slot is in place), or changes it in place when all are in use */
	for (int i = 0; new_slot < 0 && l->version == 1 && i < l->nslots; i++)
		if (!l->slot[i].active)
			new_slot = i;
	if (new_slot < 0)
		new_slot = slot;
	if (new_slot != slot) {
		int n = bc_luks_add_key(l, new_slot, p, pass, passlen);

		if (n < 0)
			return n;
		r = bc_luks_kill_slot(l, slot);
		return r ? r : n;
	}
	/* In place. LUKS2: new material in a free area, then one header update switches the slot over to it, then
	 * the old area is wiped. LUKS1: the slot's own area is overwritten, then the header (as cryptsetup does). */
	old = l->slot[slot];
	r = slot_setup(l, slot, p);
	if (!r)
		r = luks_slot_encrypt(l, slot, pass, passlen, l->volume_key);
	if (!r) {
		l->slot[slot].active = 1;
		l->slot[slot].priority = old.priority;
		if (l->version == 2)
			luks2_set_slot(l, slot);
		r = luks_store(l);
	}
	if (r) {
		l->slot[slot] = old;
		if (l->version == 2)
			luks2_set_slot(l, slot);
		return r;
	}
	if (l->version == 2) {
		r = luks_wipe_area(l->hdr_fd, old.area_offset, old.area_size);
		if (!r && fdatasync(l->hdr_fd))
			r = luks_fail(-errno, "fsync: %s", strerror(errno));
	}
	return r ? r : slot;
}

int bc_luks_kill_slot(bc_luks *l, int slot)
{
	struct luks_slot *s;
	int r = bc_luks_slot_active(l, slot);

	if (r <= 0)
		return r < 0 ? r : luks_fail(-EINVAL, "keyslot %d is not active", slot);
	if (!l->writable)
		return luks_fail(-EBADF, "the image is open read-only");
	s = &l->slot[slot];
	/* the header first (section 4.4 removes the object), then the key material is overwritten */
	s->active = 0;
	if (l->version == 2)
		luks2_set_slot(l, slot);
	r = luks_store(l);
	if (!r)
		r = luks_wipe_area(l->hdr_fd, s->area_offset, s->area_size);
	if (!r && fdatasync(l->hdr_fd))
		r = luks_fail(-errno, "fsync: %s", strerror(errno));
	if (l->version == 2) {
		s->area_size = 0;
		s->area_offset = 0;
	}
	return r;
}

int bc_luks_set_uuid(bc_luks *l, const char *uuid)
{
	char fresh[37];

	if (!uuid) {
		luks_uuid_random(fresh);
		uuid = fresh;
	}
	if (!luks_uuid_ok(uuid))
		return luks_fail(-EINVAL, "\"%s\" is not a UUID", uuid);
	if (!l->writable)
		return luks_fail(-EBADF, "the image is open read-only");
	snprintf(l->uuid, sizeof(l->uuid), "%s", uuid);
	return luks_store(l);
}

static int grow(int fd, uint64_t size, uint64_t *cur)
{
	if (*cur >= size)
		return 0;
	if (ftruncate(fd, (off_t)size))
		return luks_fail(-errno, "cannot extend the file to %llu bytes: %s", (unsigned long long)size, strerror(errno));
	*cur = size;
	return 0;
}

static int format_init(bc_luks *l, const struct bc_luks_format_params *p, const char *pass, size_t passlen)
{
	const char *hash = p->pbkdf.hash ? p->pbkdf.hash : "sha256";
	uint8_t *key = luks_secure_alloc(LUKS_MAX_KEY);
	uint64_t meta_end;
	int hs = luks_hash_size(hash), r;

	if (!key)
		return luks_fail(-ENOMEM, "out of memory");
	snprintf(l->cipher, sizeof(l->cipher), "%s", p->cipher ? p->cipher : "aes-xts-plain64");
	/* cryptsetup's defaults: 512-bit xts, 256-bit otherwise; SM4 takes 128-bit keys only */
	l->key_bytes = p->key_bytes ? p->key_bytes : (strstr(l->cipher, "xts") ? 2u : 1u) * (strstr(l->cipher, "sm4") ? 16 : 32);
	r = hs < 0 ? hs : 0;
	if (!r && (l->key_bytes > LUKS_MAX_KEY || (p->uuid && !luks_uuid_ok(p->uuid))))
		r = luks_fail(-EINVAL, p->uuid && !luks_uuid_ok(p->uuid) ? "\"%s\" is not a UUID" : "key size out of range",
		              p->uuid ? p->uuid : "");
	if (!r && p->version != 0 && p->version != 1 && p->version != 2)
		r = luks_fail(-EINVAL, "LUKS version %d: 1 or 2", p->version);
	if (!r) {
		if (p->volume_key)
			memcpy(key, p->volume_key, l->key_bytes);
		else
			r = bc_luks_random(key, l->key_bytes);
	}
	if (!r && p->pbkdf.iterations)   /* refused before anything is written */
		r = luks_kdf_check_bounds(p->pbkdf.type ? p->pbkdf.type : p->version == 1 ? BC_LUKS_PBKDF2 : BC_LUKS_ARGON2ID,
		                          p->pbkdf.iterations, p->pbkdf.memory_kib ? p->pbkdf.memory_kib : 1048576,
		                          p->pbkdf.parallel ? p->pbkdf.parallel : 1);
	if (!r)
		r = p->version == 1 ? luks1_init(l, p) : luks2_init(l, p);
	if (!r)
		r = set_volume_key(l, key, l->key_bytes);   /* refuses a cipher spec or key size it cannot run */
	if (!r) {
		if (p->uuid)
			snprintf(l->uuid, sizeof(l->uuid), "%s", p->uuid);
		else
			luks_uuid_random(l->uuid);
		if (l->version == 2 && p->data_size % l->sector_size)
			r = luks_fail(-EINVAL, "data size is not a multiple of the sector size");
	}
	/* forced PBKDF costs skip every benchmark, the digest's too: cryptsetup then gives it its minimum, 1000 */
	if (!r && p->pbkdf.iterations)
		l->digest[0].iterations = 1000;
	if (!r)
		r = luks_digest_make(&l->digest[0], hash, l->version == 1 ? 20 : (size_t)hs, key, l->key_bytes);
	if (!r && l->version == 2)
		r = luks2_add_digest(l);
	/* the metadata area is cleared of whatever the file held before */
	meta_end = l->version == 2 ? 2 * l->hdr_size + l->keyslots_size
	                           : l->slot[7].area_offset + (l->slot[7].area_size + 4095) / 4096 * 4096;
	if (!r)
		r = grow(l->hdr_fd, meta_end, &l->hdr_file_size);
	if (!r)
		r = grow(l->data_fd, l->data_offset + p->data_size, &l->data_file_size);
	if (!r)
		r = luks_wipe_area(l->hdr_fd, 0, meta_end);
	if (!r) {
		l->data_size = p->data_size ? p->data_size : (l->data_file_size - l->data_offset) / l->sector_size * l->sector_size;
		r = bc_luks_add_key(l, p->keyslot, &p->pbkdf, pass, passlen);
		r = r < 0 ? r : 0;
	}
	luks_secure_free(key, LUKS_MAX_KEY);
	return r;
}

int bc_luks_format(bc_luks **out, const char *data, const char *hdr, const struct bc_luks_format_params *p,
                   const char *pass, size_t passlen)
{
	bc_luks *l;
	int r = open_files(&l, data, hdr, 1);

	if (r)
		return r;
	r = format_init(l, p, pass, passlen);
	if (r) {
		bc_luks_close(l);
		return r;
	}
	*out = l;
	return 0;
}
