/* blockcrypt-luks: in-place reencryption of a LUKS2 image under a new volume key, forward, hot zone by hot zone, with
 * cryptsetup's metadata and resilience data (checksum, journal, none). LUKS2 On-Disk Format 1.1.4, 3.2.2, 3.3, 4.9. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "luks_internal.h"

#define MAX_HOTZONE (32u << 20)

static int sync_fd(int fd)
{
	return fdatasync(fd) ? luks_fail(-errno, "fsync: %s", strerror(errno)) : 0;
}

static int free_digest(const bc_luks *l, int after)
{
	for (int i = after + 1; i < LUKS_MAX_SLOTS; i++)
		if (!l->digest[i].used)
			return i;
	return luks_fail(-ENOSPC, "no free LUKS2 digest");
}

static int free_slot(const bc_luks *l)
{
	for (int i = 0; i < LUKS_MAX_SLOTS; i++)
		if (!l->slot[i].active && !l->slot[i].area_size)
			return i;
	return luks_fail(-ENOSPC, "no free keyslot");
}

/* The new side: cipher, key size and sector size, checked against the data before anything is written. */
static int new_side(bc_luks *l, const struct bc_luks_reencrypt_params *p, struct luks_reenc *re)
{
	struct luks_seg *s = &re->side[1];
	const char *cipher = p->cipher ? p->cipher : l->cipher;
	unsigned ss = p->sector_size ? p->sector_size : l->sector_size;
	unsigned kb = p->key_bytes ? p->key_bytes : !strcmp(cipher, l->cipher) ? l->key_bytes : strstr(cipher, "-xts-") ? 64 : 32;

	if (strlen(cipher) >= sizeof(s->cipher))
		return luks_fail(-EINVAL, "cipher %s: name too long", cipher);
	if (ss < 512 || ss > 4096 || (ss & (ss - 1)))
		return luks_fail(-EINVAL, "sector size %u is not a power of two in 512..4096", ss);
	if (kb > LUKS_MAX_KEY)
		return luks_fail(-EINVAL, "key size %u bits is above %u", kb * 8, LUKS_MAX_KEY * 8);
	if (l->data_offset % ss || l->data_size % ss)
		return luks_fail(-EINVAL, "the data (offset %llu, %llu bytes) is not whole %u-byte sectors",
		                 (unsigned long long)l->data_offset, (unsigned long long)l->data_size, ss);
	re->side[0].key = 0;
	re->side[0].offset = l->data_offset;
	re->side[0].iv_tweak = l->iv_tweak;
	re->side[0].sector_size = l->sector_size;
	snprintf(re->side[0].cipher, sizeof(re->side[0].cipher), "%s", l->cipher);
	*s = re->side[0];
	s->key = 1;
	s->sector_size = ss;
	snprintf(s->cipher, sizeof(s->cipher), "%s", cipher);
	re->key_bytes[0] = l->key_bytes;
	re->key_bytes[1] = kb;
	if (!(re->key[0] = luks_secure_alloc(LUKS_MAX_KEY)) || !(re->key[1] = luks_secure_alloc(LUKS_MAX_KEY)))
		return luks_fail(-ENOMEM, "out of memory");
	memcpy(re->key[0], l->volume_key, l->key_bytes);
	if (bc_luks_random(re->key[1], kb))
		return luks_fail(-EIO, "no random bytes for the new key");
	return bc_luks_crypt_alloc(&re->crypt[1], cipher, re->key[1], kb, ss, 0);
}

static int resilience(const struct bc_luks_reencrypt_params *p, struct luks_reenc *re)
{
	const char *r = p->resilience ? p->resilience : "checksum", *h = p->resilience_hash ? p->resilience_hash : "sha256";
	unsigned a = re->side[0].sector_size, b = re->side[1].sector_size;

	if (!strcmp(r, "checksum")) {
		re->resilience = LUKS_RES_CHECKSUM;
		if (strlen(h) >= sizeof(re->hash) || luks_hash_size(h) < 0)
			return luks_fail(-EINVAL, "--resilience-hash %s: not a supported hash", h);
		snprintf(re->hash, sizeof(re->hash), "%s", h);
		re->csum_block = a > b ? a : b;
	} else if (!strcmp(r, "journal") || !strcmp(r, "none")) {
		re->resilience = r[0] == 'j' ? LUKS_RES_JOURNAL : LUKS_RES_NONE;
	} else {
		return luks_fail(-EINVAL, "--resilience %s: checksum, journal or none", r);
	}
	return 0;
}

/* The hot zone's size: asked for, or what the resilience area holds (32 MiB at most), in whole sectors of both sides. */
static int hotzone(const bc_luks *l, uint64_t want, size_t *out)
{
	const struct luks_reenc *re = l->reenc;
	unsigned a = re->side[0].sector_size, b = re->side[1].sector_size, u = a > b ? a : b;
	uint64_t lim = MAX_HOTZONE;

	if (re->resilience == LUKS_RES_CHECKSUM) {
		u = re->csum_block > u ? re->csum_block : u;
		lim = re->area_size / (uint64_t)luks_hash_size(re->hash) * re->csum_block;
	} else if (re->resilience == LUKS_RES_JOURNAL) {
		lim = re->area_size;
	}
	lim = (lim < MAX_HOTZONE ? lim : MAX_HOTZONE) / u * u;
	if (want && (want % u || want > lim))
		return luks_fail(-EINVAL, "--hotzone-size %llu: a multiple of %u, %llu at most with this resilience area",
		                 (unsigned long long)want, u, (unsigned long long)lim);
	if (!lim || l->data_size % u)
		return luks_fail(-EINVAL, "the data is not whole %u-byte blocks, or the resilience area is too small", u);
	*out = (size_t)(want ? want : lim);
	return 0;
}

/* A new reencryption's metadata (cryptsetup reencrypt --init-only): the new key in a keyslot of its own under the same
 * passphrase, the reencrypt keyslot over the rest of the keyslots area, both keys' segments. Nothing is written
 * before every check has passed. */
static int reenc_init(bc_luks *l, const char *pass, size_t passlen, const struct bc_luks_reencrypt_params *p)
{
	struct luks_reenc *re;
	struct luks_slot *s;
	uint64_t end = 0, ks_end = 2 * l->hdr_size + l->keyslots_size;
	size_t hz;
	int opened, n, nslots = 0, r;

	if (l->version != 2)
		return luks_fail(-ENOTSUP, "reencryption needs a LUKS2 image (luks convert --type luks2)");
	if (l->detached)
		return luks_fail(-ENOTSUP, "reencryption of an image with a detached header is not supported");
	opened = bc_luks_unlock(l, pass, passlen, -1);
	if (opened < 0)
		return opened;
	for (int i = 0; i < l->nslots; i++)
		nslots += l->slot[i].active && l->slot[i].digest == l->segment_digest;
	if (nslots != 1)
		return luks_fail(-ENOTSUP, "the image has %d keyslots: reencryption gives the new key to one passphrase "
		                 "(remove the others first)", nslots);
	if (!(re = l->reenc = calloc(1, sizeof(*re))))
		return luks_fail(-ENOMEM, "out of memory");
	if ((r = new_side(l, p, re)) || (r = resilience(p, re)))
		return r;
	re->digest[0] = l->segment_digest;
	if ((re->digest[1] = free_digest(l, -1)) < 0 || (re->vdigest = free_digest(l, re->digest[1])) < 0 ||
	    (n = free_slot(l)) < 0)
		return re->digest[1] < 0 ? re->digest[1] : re->vdigest < 0 ? re->vdigest : n;
	s = &l->slot[n];
	*s = l->slot[opened];
	s->key_bytes = re->key_bytes[1];
	s->digest = re->digest[1];
	if (p->pbkdf.hash)
		snprintf(s->af_hash, sizeof(s->af_hash), "%s", p->pbkdf.hash);
	s->area_size = 0;
	if ((r = luks2_slot_area(l, s->key_bytes, &s->area_offset, &s->area_size)) ||
	    (r = luks_kdf_choose(s, &p->pbkdf, s->key_bytes)))
		goto undo;
	for (int i = 0; i < LUKS_MAX_SLOTS; i++)
		if (l->slot[i].area_size && l->slot[i].area_offset + l->slot[i].area_size > end)
			end = l->slot[i].area_offset + l->slot[i].area_size;
	re->area_offset = (end + 4095) / 4096 * 4096;
	re->area_size = ks_end > re->area_offset ? ks_end - re->area_offset : 0;
	re->slot = free_slot(l);
	if (re->area_size < 4096 || re->slot < 0) {
		r = luks_fail(-ENOSPC, "no room left in the LUKS2 keyslots area for the reencryption's resilience data");
		goto undo;
	}
	if ((r = hotzone(l, p->hotzone_size, &hz)))
		goto undo;
	r = luks_digest_make(&l->digest[re->digest[1]], l->digest[re->digest[0]].hash, l->digest[re->digest[0]].digest_len,
	                     re->key[1], re->key_bytes[1]);
	if (!r)
		r = luks_slot_encrypt(l, n, pass, passlen, re->key[1]);
	if (r)
		goto undo;
	s->active = 1;
	r = luks2_reenc_init_json(l, n);
	return r ? r : luks_store(l);
undo:
	memset(s, 0, sizeof(*s));
	return r;
}

/* Plaintext [done, done+n) written under the new key and synced, then the metadata with it under the new key. */
static int write_zone(bc_luks *l, uint64_t done, uint8_t *buf, size_t n)
{
	uint64_t at = l->reenc->side[1].offset + done;
	int r = luks_reenc_side_crypt(l->reenc, 1, 1, at, buf, n);

	if (!r)
		r = luks_pwrite_all(l->data_fd, buf, n, at);
	if (!r)
		r = sync_fd(l->data_fd);
	/* after the last zone the final header comes next: no state with every segment new and the requirement kept,
	 * which cryptsetup does not resume */
	if (!r && done + n < l->data_size) {
		luks2_reenc_segments(l, done + n, 0);
		r = luks_store(l);
	}
	return r;
}

/* Old ciphertext [done, done+n) of the data rewritten under the new key: resilience data first (synced), the metadata
 * naming the hot zone, the data (synced), then the metadata with the zone under the new key. */
static int step(bc_luks *l, uint64_t done, size_t n, uint8_t *buf, uint8_t *sums)
{
	struct luks_reenc *re = l->reenc;
	uint64_t at = re->side[0].offset + done;
	int r = luks_pread_all(l->data_fd, buf, n, at);

	if (!r && re->resilience == LUKS_RES_CHECKSUM) {
		size_t k = n / re->csum_block * (size_t)luks_hash_size(re->hash);

		r = luks_hash_blocks(re->hash, buf, n, re->csum_block, sums);
		if (!r)
			r = luks_pwrite_all(l->hdr_fd, sums, k, re->area_offset);
	} else if (!r && re->resilience == LUKS_RES_JOURNAL) {
		r = luks_pwrite_all(l->hdr_fd, buf, n, re->area_offset);
	}
	if (!r && re->resilience != LUKS_RES_NONE && !(r = sync_fd(l->hdr_fd))) {
		luks2_reenc_segments(l, done, n);
		r = luks_store(l);
	}
	if (!r)
		r = luks_reenc_side_crypt(re, 0, 0, at, buf, n);
	return r ? r : write_zone(l, done, buf, n);
}

/* The first byte of plaintext still under the old key, with the hot zone of an interrupted run (its blocks told apart
 * by the resilience data) finished first. */
static int recover(bc_luks *l, uint64_t *done, uint8_t *buf, size_t max)
{
	const struct luks_reenc *re = l->reenc;
	int i = 0, r = 0;

	*done = 0;
	for (; i < re->nseg && re->seg[i].key == 1 && !re->seg[i].hot; i++)
		*done += re->seg[i].size;
	for (int j = 0; j < re->nseg; j++) {
		const struct luks_seg *g = &re->seg[j];

		if ((j < i ? g->key != 1 : j == i && g->hot ? 0 : g->key != 0 || g->hot) ||
		    g->offset != re->side[g->hot ? 1 : g->key].offset + g->plain)
			return luks_fail(-ENOTSUP, "LUKS2 reencryption: segment %d is not where a forward reencryption in place "
			                 "puts it", j);
	}
	if (i < re->nseg && re->seg[i].hot) {
		size_t n = (size_t)re->seg[i].size;

		if (n > max)
			return luks_fail(-ENOTSUP, "LUKS2 reencryption: the interrupted hot zone is larger than %zu bytes", max);
		r = luks_reenc_read(l, *done, buf, n);
		if (!r)
			r = write_zone(l, *done, buf, n);
		*done += n;
	}
	return r;
}

static int reenc_run(bc_luks *l, uint64_t want, bc_luks_progress_fn progress, void *arg)
{
	struct luks_reenc *re = l->reenc;
	size_t hz = 0, max;
	uint8_t *buf = NULL, *sums = NULL;
	uint64_t done = 0;
	int r;

	if (re->mode || re->backward || re->resilience > LUKS_RES_JOURNAL || re->side[0].key < 0 || re->side[1].key < 0)
		return luks_fail(-ENOTSUP, "LUKS2 reencryption: only a forward reencryption in place is supported (not "
		                 "encrypt, decrypt, backward or a data shift)");
	if ((r = hotzone(l, want, &hz)))
		return r;
	max = hz;
	for (int i = 0; i < re->nseg; i++)
		if (re->seg[i].hot && re->seg[i].size > max && re->seg[i].size <= re->area_size + (uint64_t)MAX_HOTZONE)
			max = (size_t)re->seg[i].size;
	buf = malloc(max);
	sums = malloc(hz / LUKS_SECTOR * LUKS_MAX_DIGEST);
	r = buf && sums ? recover(l, &done, buf, max) : luks_fail(-ENOMEM, "out of memory");
	while (!r && done < l->data_size) {
		size_t n = l->data_size - done < hz ? (size_t)(l->data_size - done) : hz;

		r = step(l, done, n, buf, sums);
		done += n;
		if (!r && progress)
			progress(done, l->data_size, arg);
	}
	/* an ordinary header under the new key, then the old keyslots and the resilience data wiped */
	if (!r) {
		uint64_t off[LUKS_MAX_SLOTS], len[LUKS_MAX_SLOTS];
		int n = 0;

		for (int i = 0; i < LUKS_MAX_SLOTS; i++)
			if (l->slot[i].area_size && (i == re->slot || l->slot[i].digest == re->digest[0])) {
				off[n] = l->slot[i].area_offset;
				len[n++] = l->slot[i].area_size;
			}
		luks2_reenc_finish_json(l);
		r = luks_store(l);
		for (int i = 0; !r && i < n; i++)
			r = luks_wipe_area(l->hdr_fd, off[i], len[i]);
		if (!r)
			r = sync_fd(l->hdr_fd);
	}
	if (buf)
		explicit_bzero(buf, max);
	free(buf);
	free(sums);
	return r;
}

int bc_luks_reencrypt(const char *image, const char *pass, size_t passlen, const struct bc_luks_reencrypt_params *p,
                      bc_luks_progress_fn progress, void *arg)
{
	bc_luks *l;
	int r = luks_open(&l, image, NULL, 2, 0);

	if (r)
		return r;
	if (!l->reenc) {
		r = p->resume_only ? luks_fail(-EINVAL, "no reencryption in progress to resume") : reenc_init(l, pass, passlen, p);
		bc_luks_close(l);
		if (r || p->init_only)
			return r;
		if ((r = luks_open(&l, image, NULL, 2, 0)))
			return r;
	} else if (p->init_only) {
		r = luks_fail(-EBUSY, "a reencryption is already in progress (finish it with --resume-only)");
	}
	if (!r)
		r = bc_luks_unlock(l, pass, passlen, -1);
	if (r >= 0)
		r = reenc_run(l, p->hotzone_size, progress, arg);
	bc_luks_close(l);
	return r;
}
