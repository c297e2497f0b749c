/* blockcrypt-luks: header backup and restore, erasing every keyslot, and conversion between LUKS1 and LUKS2, with
 * cryptsetup's file layout and rules. LUKS1 On-Disk Format 1.2.3 section 3; LUKS2 On-Disk Format 1.1.4 sections 2-4. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blockcrypt.h"
#include "luks_internal.h"

#define LUKS2_HDR 16384u
#define LUKS1_KEYSLOTS 4096u   /* where cryptsetup's LUKS1 key material starts */
/* convert moves the keyslot areas by this much: from after LUKS1's 4 KiB to after LUKS2's two 16 KiB headers */
#define CONVERT_SHIFT (2 * LUKS2_HDR - LUKS1_KEYSLOTS)
#define CHUNK (1u << 20)

/* Bytes of the header area, what a backup holds and a restore writes: LUKS1 the phdr and key material up to the
 * last keyslot's end, LUKS2 both headers and the keyslots area. */
static uint64_t header_area(const bc_luks *l)
{
	uint64_t end = 0;

	if (l->version == 2)
		return 2 * l->hdr_size + l->keyslots_size;
	for (int i = 0; i < l->nslots; i++)
		if (l->slot[i].area_offset + l->slot[i].area_size > end)
			end = l->slot[i].area_offset + l->slot[i].area_size;
	return end;
}

static uint64_t round4k(uint64_t n)
{
	return (n + 4095) / 4096 * 4096;
}

/* len bytes from (ifd, from) to (ofd, to); within one file a move up goes from the end, so overlapping ranges work. */
static int copy_range(int ifd, uint64_t from, int ofd, uint64_t to, uint64_t len)
{
	uint8_t *buf = malloc(CHUNK);
	int backwards = ifd == ofd && to > from, r = 0;

	if (!buf)
		return luks_fail(-ENOMEM, "out of memory");
	for (uint64_t done = 0; done < len && !r;) {
		size_t n = len - done < CHUNK ? (size_t)(len - done) : CHUNK;
		uint64_t at = backwards ? len - done - n : done;

		r = luks_pread_all(ifd, buf, n, from + at);
		if (!r)
			r = luks_pwrite_all(ofd, buf, n, to + at);
		done += n;
	}
	/* keyslot areas: encrypted, but key material all the same */
	explicit_bzero(buf, CHUNK);
	free(buf);
	return r;
}

static int sync_fd(int fd)
{
	return fdatasync(fd) ? luks_fail(-errno, "fsync: %s", strerror(errno)) : 0;
}

int bc_luks_header_backup(const bc_luks *l, const char *file)
{
	uint64_t len = header_area(l);
	int fd, r;

	if (len > l->hdr_file_size)
		return luks_fail(-EINVAL, "the header area (%llu bytes) extends beyond the end of the file",
		                 (unsigned long long)len);
	fd = open(file, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0400);
	if (fd < 0)
		return luks_fail(-errno, errno == EEXIST ? "requested header backup file %s already exists"
		                                         : "cannot create header backup file %s", file);
	r = copy_range(l->hdr_fd, 0, fd, 0, len);
	/* as cryptsetup: no old signature survives in the phdr's sector padding */
	if (!r && l->version == 1 && l->slot[0].area_offset == LUKS1_KEYSLOTS)
		r = luks_wipe_area(fd, sizeof(l->phdr), LUKS1_KEYSLOTS - sizeof(l->phdr));
	if (!r && ftruncate(fd, (off_t)round4k(len)))
		r = luks_fail(-errno, "%s: %s", file, strerror(errno));
	if (!r)
		r = sync_fd(fd);
	close(fd);
	if (r)
		unlink(file);
	return r;
}

int bc_luks_header_restore(const char *data, const char *hdr, const char *backup, bc_luks_confirm_fn confirm, void *arg)
{
	const char *target = hdr ? hdr : data;
	bc_luks *b, *cur = NULL;
	char why[256], msg[512];
	uint64_t len;
	int r, fd, diff_uuid = 0, have;

	/* the backup as the detached header of this image: its segment must fit the data */
	r = luks_open(&b, data, backup, 0, 1);
	if (r) {
		snprintf(why, sizeof(why), "%s", bc_luks_error());
		return luks_fail(r, "backup file %s refused: %s", backup, why);
	}
	len = header_area(b);
	if (b->hdr_file_size < len)
		r = luks_fail(-EINVAL, "backup file %s is truncated: %llu bytes of a %llu-byte header area", backup,
		              (unsigned long long)b->hdr_file_size, (unsigned long long)len);
	else if (!hdr && len > b->data_offset)
		r = luks_fail(-EINVAL, "the backup's header area (%llu bytes) overlaps its data at byte %llu (a detached header?)",
		              (unsigned long long)len, (unsigned long long)b->data_offset);
	have = !r && !bc_luks_open(&cur, data, hdr, 0);
	if (have) {
		/* cryptsetup's rule: a header already there must describe the same data and key */
		if (cur->data_offset != b->data_offset)
			r = luks_fail(-EINVAL, "data offset differs on the image (%llu) and in the backup (%llu): restore refused",
			              (unsigned long long)cur->data_offset, (unsigned long long)b->data_offset);
		else if (cur->version == b->version && b->version == 1 && cur->key_bytes != b->key_bytes)
			r = luks_fail(-EINVAL, "key size differs on the image and in the backup: restore refused");
		else if (cur->version == b->version && b->version == 2 && header_area(cur) != len)
			r = luks_fail(-EINVAL, "header and keyslots area size differs on the image and in the backup: restore refused");
		diff_uuid = strcmp(cur->uuid, b->uuid) != 0;
		have = cur->version == b->version;   /* cryptsetup's words are about a header of the backup's version */
		bc_luks_close(cur);
	}
	if (!r) {
		const char *v = b->version == 2 ? "LUKS2" : "LUKS";

		snprintf(msg, sizeof(msg), have ? "Device %s already contains %s header. Replacing header will destroy existing "
		                                  "keyslots.%s"
		                                : "Device %s does not contain %s header. Replacing header can destroy data on "
		                                  "that device.%s",
		         target, v, diff_uuid ? "\nWARNING: real device header has different UUID than backup!" : "");
		if (confirm && !confirm(msg, arg))
			r = luks_fail(-ECANCELED, "operation aborted: the header was not restored");
	}
	if (!r) {
		fd = open(target, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			r = luks_fail(-errno, "%s: %s", target, strerror(errno));
		else {
			r = copy_range(b->hdr_fd, 0, fd, 0, len);
			if (!r)
				r = sync_fd(fd);
			close(fd);
		}
	}
	bc_luks_close(b);
	return r;
}

int bc_luks_erase(bc_luks *l)
{
	if (!l->writable)
		return luks_fail(-EBADF, "the image is open read-only");
	/* cryptsetup's erase destroys the active keyslots; LUKS2's unbound ones open no data and stay */
	for (int i = 0; i < l->nslots; i++)
		if (l->slot[i].active) {
			int r = bc_luks_kill_slot(l, i);

			if (r)
				return r;
		}
	return 0;
}

/* LUKS1 to LUKS2 (cryptsetup's LUKS2_luks1_to_luks2): 16 KiB headers, the key material 28 KiB up, the keyslots
 * area up to the data (a detached header file grows to hold it). */
static int to_luks2(bc_luks *l, bc_luks *t)
{
	uint64_t l1 = round4k(header_area(l)), max = l->data_offset ? l->data_offset : l->hdr_file_size, first = UINT64_MAX;
	uint8_t probe[LUKS_MAX_KEY], meta[8] = { 0 };
	bc_luks_crypt *c;
	int r;

	for (int i = 0; i < 8; i++) {
		if (l->slot[i].area_offset < first)
			first = l->slot[i].area_offset;
		if (l->slot[i].area_offset % 4096)
			return luks_fail(-ENOTSUP, "LUKS1 keyslot %d is not 4096-byte aligned: LUKS2 areas are", i);
	}
	if (first != LUKS1_KEYSLOTS)
		return luks_fail(-ENOTSUP, "the LUKS1 key material starts at byte %llu, not 4096 (cryptsetup's layout)",
		                 (unsigned long long)first);
	r = bc_luks_random(probe, l->key_bytes);
	if (!r)
		r = bc_luks_crypt_alloc(&c, l->cipher, probe, l->key_bytes, LUKS_SECTOR, 0);
	explicit_bzero(probe, sizeof(probe));
	if (r)
		return luks_fail(r, "cipher %s cannot be used for LUKS2", l->cipher);
	bc_luks_crypt_free(c);
	if (l1 + sizeof(meta) <= l->hdr_file_size && !luks_pread_all(l->hdr_fd, meta, sizeof(meta), l1) &&
	    !memcmp(meta, "LUKSMETA", 8))
		return luks_fail(-ENOTSUP, "the header is followed by LUKSMETA metadata, which LUKS2 has no room for");
	if (max < l1 + CONVERT_SHIFT) {
		if (!l->detached)
			return luks_fail(-ENOSPC, "no room to move the keyslots: LUKS2 needs %llu bytes before the data at %llu",
			                 (unsigned long long)(l1 + CONVERT_SHIFT), (unsigned long long)max);
		max = l1 + CONVERT_SHIFT;
	}
	t->version = 2;
	t->nslots = LUKS_MAX_SLOTS;
	t->hdr_size = LUKS2_HDR;
	t->keyslots_size = (max - 2 * LUKS2_HDR) / 4096 * 4096;
	t->seqid = 1;   /* written as 2, as cryptsetup writes a converted header */
	snprintf(t->csum_alg, sizeof(t->csum_alg), "sha256");
	t->label[0] = t->subsystem[0] = 0;
	t->segment_digest = 0;
	for (int i = 0; i < 8; i++) {
		struct luks_slot *s = &t->slot[i];

		if (!s->active) {
			memset(s, 0, sizeof(*s));
			continue;
		}
		s->area_offset += CONVERT_SHIFT;
		s->area_size = round4k(s->area_size);
		if (s->area_offset + s->area_size > 2 * LUKS2_HDR + t->keyslots_size)
			return luks_fail(-ENOSPC, "LUKS1 keyslot %d does not fit the LUKS2 keyslots area", i);
		for (int j = 0; j < i; j++)
			if (t->slot[j].area_size && s->area_offset < t->slot[j].area_offset + t->slot[j].area_size &&
			    t->slot[j].area_offset < s->area_offset + s->area_size)
				return luks_fail(-ENOTSUP, "LUKS1 keyslots %d and %d are too close for LUKS2's 4 KiB areas", j, i);
	}
	luks2_new_json(t, 0);
	r = luks2_add_digest(t);
	for (int i = 0; i < 8 && !r; i++)
		if (t->slot[i].active)
			r = luks2_set_slot(t, i);
	if (r)
		return r;
	/* nothing written until here: then the areas move, then both LUKS2 headers replace the phdr */
	if (l->detached && l->hdr_file_size < max) {
		if (ftruncate(l->hdr_fd, (off_t)max))
			return luks_fail(-errno, "cannot extend the header file: %s", strerror(errno));
		t->hdr_file_size = max;
	}
	r = copy_range(l->hdr_fd, LUKS1_KEYSLOTS, l->hdr_fd, LUKS1_KEYSLOTS + CONVERT_SHIFT, l1 - LUKS1_KEYSLOTS);
	if (!r)
		r = sync_fd(l->hdr_fd);
	return r ? r : luks2_store(t);
}

/* LUKS2 to LUKS1 (cryptsetup's LUKS2_luks2_to_luks1): only what LUKS1 can express; the free LUKS1 slots get the
 * first free areas, in slot order, as cryptsetup places them. */
static int to_luks1(bc_luks *l, bc_luks *t)
{
	const struct luks_digest *d = &l->digest[0];
	const uint64_t area = round4k(luks_af_area_bytes(l->key_bytes, LUKS_STRIPES));
	int r;

	if (l->hdr_size != LUKS2_HDR)
		return luks_fail(-ENOTSUP, "LUKS2 header size %llu: LUKS1 layout needs 16 KiB headers",
		                 (unsigned long long)l->hdr_size);
	if (l->sector_size != LUKS_SECTOR)
		return luks_fail(-ENOTSUP, "cannot convert to LUKS1: the sector size is %u bytes, not 512", l->sector_size);
	if (luks2_count(l, "digests") != 1 || l->segment_digest != 0)
		return luks_fail(-ENOTSUP, "cannot convert to LUKS1: the keyslot digests are not LUKS1 compatible");
	if (luks2_count(l, "tokens"))
		return luks_fail(-ENOTSUP, "cannot convert to LUKS1: the LUKS2 header holds %d token(s)", luks2_count(l, "tokens"));
	if (!l->key_bytes)
		return luks_fail(-ENOTSUP, "cannot convert to LUKS1: no keyslot holds the volume key");
	if (!l->dynamic || l->iv_tweak)
		return luks_fail(-ENOTSUP, "cannot convert to LUKS1: the data segment has a fixed size or an IV offset");
	if (d->salt_len != LUKS_SALT || d->digest_len < 20)
		return luks_fail(-ENOTSUP, "cannot convert to LUKS1: the volume key digest does not fit LUKS1");
	for (int i = 0; i < LUKS_MAX_SLOTS; i++) {
		const struct luks_slot *s = &l->slot[i];

		if (!s->area_size)
			continue;
		if (i >= 8)
			return luks_fail(-ENOTSUP, "cannot convert to LUKS1: keyslot %d (over LUKS1's 8) is in use", i);
		if (s->kdf != BC_LUKS_PBKDF2 || strcmp(s->kdf_hash, d->hash) || strcmp(s->af_hash, d->hash) ||
		    strcmp(s->area_cipher, l->cipher) || s->area_key_bytes != l->key_bytes || s->key_bytes != l->key_bytes ||
		    s->area_size != area || s->salt_len != LUKS_SALT)
			return luks_fail(-ENOTSUP, "cannot convert to LUKS1: keyslot %d is not LUKS1 compatible%s", i,
			                 s->kdf != BC_LUKS_PBKDF2 ? " (its PBKDF is not pbkdf2)" : "");
	}
	/* placeholders for the free slots, each in the lowest free area */
	for (int i = 0; i < 8; i++) {
		struct luks_slot *s = &t->slot[i];

		if (s->area_size)
			continue;
		r = luks2_slot_area(t, l->key_bytes, &s->area_offset, &s->area_size);
		if (r)
			return luks_fail(r, "cannot convert to LUKS1: the keyslots area has no room for 8 keyslots");
		s->stripes = LUKS_STRIPES;
	}
	t->version = 1;
	t->nslots = 8;
	t->digest[0].digest_len = 20;   /* LUKS1 keeps the first 20 bytes of the PBKDF2 output */
	for (int i = 0; i < 8; i++) {
		t->slot[i].area_offset -= CONVERT_SHIFT;
		t->slot[i].area_size = luks_af_area_bytes(l->key_bytes, LUKS_STRIPES);
	}
	memset(&t->slot[8], 0, sizeof(t->slot) - 8 * sizeof(t->slot[0]));
	t->json = NULL;
	r = luks1_phdr_init(t, d->hash);
	if (r)
		return r;
	/* the keyslots area moves down over the LUKS2 headers; key material in what it leaves behind at its end is
	 * cleared (that copy would outlive a later kill-slot), then the phdr's sectors, then the phdr is written */
	r = copy_range(l->hdr_fd, 2 * LUKS2_HDR, l->hdr_fd, LUKS1_KEYSLOTS, l->keyslots_size);
	for (int i = 0; i < LUKS_MAX_SLOTS && !r; i++) {
		uint64_t lo = LUKS1_KEYSLOTS + l->keyslots_size, hi = lo + CONVERT_SHIFT, end;

		end = l->slot[i].area_offset + l->slot[i].area_size;
		lo = l->slot[i].area_offset > lo ? l->slot[i].area_offset : lo;
		hi = end < hi ? end : hi;
		if (l->slot[i].area_size && lo < hi)
			r = luks_wipe_area(l->hdr_fd, lo, hi - lo);
	}
	if (!r)
		r = luks_wipe_area(l->hdr_fd, 0, LUKS1_KEYSLOTS);
	return r ? r : luks1_store(t);
}

int bc_luks_resize(bc_luks *l, uint64_t size)
{
	uint64_t dynamic_size;
	int r;

	if (l->version != 2)
		return luks_fail(-ENOTSUP, "LUKS1 data runs to the end of the file: it has no size to set");
	if (!l->writable)
		return luks_fail(-EBADF, "the image is open read-only");
	if (size % l->sector_size)
		return luks_fail(-EINVAL, "size %llu is not a multiple of the %u-byte sectors", (unsigned long long)size,
		                 l->sector_size);
	if (size > UINT64_MAX / 2 - l->data_offset || size / 512 > UINT64_MAX / 2 - l->iv_tweak)
		return luks_fail(-EINVAL, "size %llu out of range", (unsigned long long)size);
	/* the file grows to hold the segment (its new sectors read as whatever they decrypt to, as a grown disk's) */
	if (size > l->data_file_size - l->data_offset) {
		if (ftruncate(l->data_fd, (off_t)(l->data_offset + size)))
			return luks_fail(-errno, "cannot extend the data file: %s", strerror(errno));
		l->data_file_size = l->data_offset + size;
	}
	dynamic_size = (l->data_file_size - l->data_offset) / l->sector_size * l->sector_size;
	luks2_set_segment_size(l, size);
	r = luks2_store(l);
	if (r) {
		luks2_set_segment_size(l, l->dynamic ? 0 : l->data_size);
		return r;
	}
	l->dynamic = !size;
	l->data_size = size ? size : dynamic_size;
	return 0;
}

int bc_luks_convert(bc_luks *l, int version)
{
	bc_luks *t;
	int r;

	if (version != 1 && version != 2)
		return luks_fail(-EINVAL, "LUKS version %d: 1 or 2", version);
	if (version == l->version)
		return luks_fail(-EINVAL, "the image is already LUKS%d", version);
	if (!l->writable)
		return luks_fail(-EBADF, "the image is open read-only");
	t = malloc(sizeof(*t));
	if (!t)
		return luks_fail(-ENOMEM, "out of memory");
	/* the new header is built in a copy: a refusal leaves l (and the image) as they were */
	memcpy(t, l, sizeof(*t));
	r = version == 2 ? to_luks2(l, t) : to_luks1(l, t);
	if (version == 2 && r)
		luks2_free(t);
	if (!r) {
		if (version == 1)
			luks2_free(l);
		memcpy(l, t, sizeof(*l));
	}
	explicit_bzero(t, sizeof(*t));
	free(t);
	return r;
}
