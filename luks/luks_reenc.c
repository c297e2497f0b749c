/* blockcrypt-luks: reading a LUKS2 image in the middle of a reencryption: both keys, each data segment under its
 * own, and the hot zone told apart block by block from its resilience data. LUKS2 On-Disk Format 1.1.4, 3.2.2, 3.3, 4.9. */
#include <stdlib.h>
#include <string.h>

#include "luks_internal.h"

#define SPAN (1u << 20)

void luks_reenc_free(bc_luks *l)
{
	struct luks_reenc *re = l->reenc;

	if (!re)
		return;
	for (int k = 0; k < 2; k++) {
		luks_secure_free(re->key[k], LUKS_MAX_KEY);
		bc_luks_crypt_free(re->crypt[k]);
	}
	explicit_bzero(re, sizeof(*re));
	free(re);
	l->reenc = NULL;
}

/* The unit the hot zone is told apart in: a checksum block, or the larger sector size (journal). */
static unsigned hot_unit(const struct luks_reenc *re)
{
	unsigned a = re->side[0].sector_size, b = re->side[1].sector_size;

	return re->resilience == LUKS_RES_CHECKSUM ? re->csum_block : a > b ? a : b;
}

/* What reading the hot zone needs from the resilience area: checked before the first read. */
static int check_hot(const struct luks_reenc *re, const struct luks_seg *g)
{
	unsigned u = hot_unit(re);
	int hs = re->resilience == LUKS_RES_CHECKSUM ? luks_hash_size(re->hash) : 0;

	if (re->resilience != LUKS_RES_CHECKSUM && re->resilience != LUKS_RES_JOURNAL)
		return luks_fail(-ENOTSUP, "LUKS2 reencryption: the interrupted hot zone has no %sresilience data to "
		                 "tell its blocks apart (checksum and journal only)", re->resilience ? "usable " : "");
	if (u % re->side[0].sector_size || u % re->side[1].sector_size || g->size % u ||
	    (re->side[0].key >= 0 && (g->offset - re->side[0].offset) % re->side[0].sector_size))
		return luks_fail(-EINVAL, "LUKS2 reencryption: the hot zone is not whole %u-byte blocks", u);
	if (hs < 0 || (re->resilience == LUKS_RES_CHECKSUM ? g->size / u * (uint64_t)hs : g->size) > re->area_size)
		return luks_fail(-EINVAL, "LUKS2 reencryption: the hot zone is larger than its resilience area");
	return 0;
}

/* The keys of both sides, each from a keyslot bound to its digest. Returns a slot that opened. */
int luks_reenc_unlock(bc_luks *l, const char *pass, size_t passlen)
{
	struct luks_reenc *re = l->reenc;
	int opened = -1, r;

	for (int i = 0; i < re->nseg; i++)
		if (re->seg[i].hot && (r = check_hot(re, &re->seg[i])))
			return r;
	for (int k = 0; k < 2; k++) {
		r = -EPERM;
		if (re->digest[k] < 0)
			continue;
		if (!re->key[k] && !(re->key[k] = luks_secure_alloc(LUKS_MAX_KEY)))
			return luks_fail(-ENOMEM, "out of memory");
		for (int i = 0; i < l->nslots && r; i++) {
			if (!l->slot[i].active || l->slot[i].digest != re->digest[k] || l->slot[i].priority < 1)
				continue;
			r = luks_slot_decrypt(l, i, pass, passlen, re->key[k]);
			if (!r) {
				opened = i;
				bc_luks_crypt_free(re->crypt[k]);
				re->crypt[k] = NULL;
				r = bc_luks_crypt_alloc(&re->crypt[k], re->side[k].cipher, re->key[k], l->slot[i].key_bytes,
				                        re->side[k].sector_size, 0);
				if (r)
					return r;
				re->key_bytes[k] = l->slot[i].key_bytes;
				if (k == (re->side[1].key >= 0))
					l->key_bytes = l->slot[i].key_bytes;
			} else if (r != -EPERM) {
				return r;
			}
		}
		if (r)
			return luks_fail(-EPERM, "no %s key available with this passphrase (a reencryption is in progress: "
			                 "both keys are needed)", k ? "new" : "old");
	}
	r = luks2_reenc_verify(l);
	return r ? r : opened;
}

int luks_reenc_side_crypt(const struct luks_reenc *re, int k, int encrypt, uint64_t at, uint8_t *buf, size_t len)
{
	const struct luks_seg *s = &re->side[k];

	if (s->key < 0)
		return 0;
	return bc_luks_crypt_sectors(re->crypt[k], encrypt, s->iv_tweak, (at - s->offset) / s->sector_size, buf, len);
}

/* The hot zone's block at byte rel of segment g: the journal holds its old ciphertext; with checksums, a
 * block whose hash is the one stored is still the old ciphertext, any other the new. */
static int hot_block(bc_luks *l, const struct luks_seg *g, uint64_t rel, uint8_t *blk, unsigned u)
{
	const struct luks_reenc *re = l->reenc;
	uint8_t want[LUKS_MAX_DIGEST], got[LUKS_MAX_DIGEST];
	int hs, r;

	if (re->resilience == LUKS_RES_JOURNAL) {
		r = luks_pread_all(l->hdr_fd, blk, u, re->area_offset + rel);
		return r ? r : luks_reenc_side_crypt(re, 0, 0, g->offset + rel, blk, u);
	}
	hs = luks_hash_size(re->hash);
	r = luks_pread_all(l->hdr_fd, want, (size_t)hs, re->area_offset + rel / u * (uint64_t)hs);
	if (!r)
		r = luks_hash(re->hash, blk, u, got);
	if (r)
		return r;
	if (!memcmp(want, got, (size_t)hs))
		return luks_reenc_side_crypt(re, 0, 0, g->offset + rel, blk, u);
	return re->side[1].key < 0 ? 0 : bc_luks_crypt_sectors(re->crypt[1], 0, g->iv_tweak, rel / re->side[1].sector_size, blk, u);
}

/* Bytes [rel, rel+n) of segment g, whole units at a time through buf (SPAN bytes and a unit). */
static int seg_read(bc_luks *l, const struct luks_seg *g, uint64_t rel, uint8_t *out, size_t n, uint8_t *buf)
{
	const struct luks_reenc *re = l->reenc;
	unsigned u = g->hot ? hot_unit(re) : g->sector_size;
	int r = 0;

	while (n && !r) {
		uint64_t first = rel / u * u, head = rel - first;
		size_t take = n < SPAN - head ? n : SPAN - (size_t)head;
		size_t span = (size_t)((head + take + u - 1) / u * u);

		r = luks_pread_all(l->data_fd, buf, span, g->offset + first);
		if (!g->hot && !r && g->key >= 0)
			r = bc_luks_crypt_sectors(re->crypt[g->key], 0, g->iv_tweak, first / g->sector_size, buf, span);
		for (size_t b = 0; g->hot && !r && b < span; b += u)
			r = hot_block(l, g, first + b, buf + b, u);
		if (!r)
			memcpy(out, buf + head, take);
		rel += take;
		out += take;
		n -= take;
	}
	return r;
}

/* Plaintext [off, off+len), inside the data (checked by the caller), segment by segment. */
int luks_reenc_read(bc_luks *l, uint64_t off, uint8_t *out, size_t len)
{
	const struct luks_reenc *re = l->reenc;
	uint8_t *buf;
	int r = 0;

	if (!re->crypt[0] && !re->crypt[1])
		return luks_fail(-ENOKEY, "the image is not unlocked");
	buf = malloc(SPAN + 65536);
	if (!buf)
		return luks_fail(-ENOMEM, "out of memory");
	for (int i = 0; i < re->nseg && len && !r; i++) {
		const struct luks_seg *g = &re->seg[i];
		size_t n;

		if (off >= g->plain + g->size)
			continue;
		n = g->plain + g->size - off < len ? (size_t)(g->plain + g->size - off) : len;
		r = seg_read(l, g, off - g->plain, out, n, buf);
		off += n;
		out += n;
		len -= n;
	}
	explicit_bzero(buf, SPAN + 65536);
	free(buf);
	return r;
}
