/* blockcrypt-luks: the LUKS2 header: both binary headers with checksums and seqid, and the JSON metadata,
 * validated object by object before use, updated and written back. LUKS2 On-Disk Format 1.1.4, sections 2-4. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "luks_internal.h"

#define BIN_SIZE 4096
#define O_VERSION 6
#define O_HDR_SIZE 8
#define O_SEQID 16
#define O_LABEL 24
#define O_CSUM_ALG 72
#define O_SALT 104
#define O_UUID 168
#define O_SUBSYSTEM 208
#define O_HDR_OFFSET 256
#define O_CSUM 448
#define DEFAULT_HDR 16384u
#define DEFAULT_DATA 16777216u

static const uint8_t magic1[6] = { 'L', 'U', 'K', 'S', 0xba, 0xbe };
static const uint8_t magic2[6] = { 'S', 'K', 'U', 'L', 0xba, 0xbe };
/* Table 1: the secondary header's possible offsets are the possible header sizes. */
static const uint64_t hdr_sizes[] = { 16384, 32768, 65536, 131072, 262144, 524288, 1048576, 2097152, 4194304 };

struct bin_hdr {
	uint8_t *buf;               /* hdr_size bytes: binary header then JSON area */
	uint64_t hdr_size, seqid;
};

static int valid_hdr_size(uint64_t n)
{
	for (size_t i = 0; i < sizeof(hdr_sizes) / sizeof(hdr_sizes[0]); i++)
		if (hdr_sizes[i] == n)
			return 1;
	return 0;
}

static int csum_of(const char *alg, uint8_t *buf, uint64_t len, uint8_t *out)
{
	uint8_t saved[64];
	int r;

	memcpy(saved, buf + O_CSUM, 64);
	memset(buf + O_CSUM, 0, 64);
	r = luks_hash(alg, buf, len, out);
	memcpy(buf + O_CSUM, saved, 64);
	return r;
}

/* One binary header and its JSON area at `off`, checked (magic, version, size, offset, strings, checksum). */
static int bin_read(bc_luks *l, uint64_t off, const uint8_t *magic, struct bin_hdr *h)
{
	uint8_t b[BIN_SIZE], sum[64];
	const char *which = magic == magic1 ? "primary" : "secondary";
	int hs, r;

	h->buf = NULL;
	if (off + BIN_SIZE > l->hdr_file_size)
		return luks_fail(-EINVAL, "LUKS2 %s header: the file ends before it", which);
	r = luks_pread_all(l->hdr_fd, b, BIN_SIZE, off);
	if (r)
		return r;
	if (memcmp(b, magic, 6))
		return luks_fail(-EINVAL, "LUKS2 %s header: no magic at byte %llu", which, (unsigned long long)off);
	if (luks_be16(b + O_VERSION) != 2)
		return luks_fail(-EINVAL, "LUKS2 %s header: version %u", which, luks_be16(b + O_VERSION));
	h->hdr_size = luks_be64(b + O_HDR_SIZE);
	h->seqid = luks_be64(b + O_SEQID);
	if (!valid_hdr_size(h->hdr_size))
		return luks_fail(-EINVAL, "LUKS2 %s header: invalid header size %llu", which, (unsigned long long)h->hdr_size);
	if (magic == magic2 && h->hdr_size != off)
		return luks_fail(-EINVAL, "LUKS2 secondary header: size %llu does not match its offset %llu",
		                 (unsigned long long)h->hdr_size, (unsigned long long)off);
	if (luks_be64(b + O_HDR_OFFSET) != off)
		return luks_fail(-EINVAL, "LUKS2 %s header: misplaced (hdr_offset %llu, found at %llu)", which,
		                 (unsigned long long)luks_be64(b + O_HDR_OFFSET), (unsigned long long)off);
	if (!luks_cstring_ok(b + O_LABEL, 48) || !luks_cstring_ok(b + O_CSUM_ALG, 32) || !luks_cstring_ok(b + O_UUID, 40) ||
	    !luks_cstring_ok(b + O_SUBSYSTEM, 48))
		return luks_fail(-EINVAL, "LUKS2 %s header: a text field is not NUL-terminated", which);
	hs = luks_hash_size((const char *)b + O_CSUM_ALG);
	if (hs < 0 || hs > 64)
		return luks_fail(-EINVAL, "LUKS2 %s header: checksum algorithm \"%s\" not supported", which,
		                 (const char *)b + O_CSUM_ALG);
	if (off + h->hdr_size > l->hdr_file_size)
		return luks_fail(-EINVAL, "LUKS2 %s header: the file ends inside its JSON area", which);
	h->buf = malloc(h->hdr_size);
	if (!h->buf)
		return luks_fail(-ENOMEM, "out of memory");
	memcpy(h->buf, b, BIN_SIZE);
	r = luks_pread_all(l->hdr_fd, h->buf + BIN_SIZE, h->hdr_size - BIN_SIZE, off + BIN_SIZE);
	if (!r && csum_of((const char *)b + O_CSUM_ALG, h->buf, h->hdr_size, sum))
		r = -EINVAL;
	if (!r && memcmp(sum, b + O_CSUM, (size_t)hs))
		r = luks_fail(-EINVAL, "LUKS2 %s header: checksum mismatch", which);
	for (int i = hs; !r && i < 64; i++)
		if (b[O_CSUM + i])
			r = luks_fail(-EINVAL, "LUKS2 %s header: checksum field not zero-padded", which);
	if (!r && !memchr(h->buf + BIN_SIZE, 0, h->hdr_size - BIN_SIZE))
		r = luks_fail(-EINVAL, "LUKS2 %s header: JSON area not NUL-terminated", which);
	if (r) {
		free(h->buf);
		h->buf = NULL;
	}
	return r;
}

/* ---- JSON accessors: a wrong type or a missing mandatory field is an error --------------- */

static json_object *jget(json_object *o, const char *key, json_type t)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, t))
		return NULL;
	return v;
}

static const char *jstr(json_object *o, const char *key, size_t max)
{
	json_object *v = jget(o, key, json_type_string);
	const char *s = v ? json_object_get_string(v) : NULL;

	return s && strlen(s) < max && (size_t)json_object_get_string_len(v) == strlen(s) ? s : NULL;
}

/* string-uint64 (section 3): decimal digits, no sign, no overflow. */
static int ju64(json_object *o, const char *key, uint64_t *out)
{
	const char *s = jstr(o, key, 21);
	uint64_t v = 0;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

static int jint(json_object *o, const char *key, int64_t min, int64_t max, int64_t *out)
{
	json_object *v = jget(o, key, json_type_int);

	if (!v)
		return -1;
	errno = 0;
	*out = json_object_get_int64(v);
	return errno || *out < min || *out > max ? -1 : 0;
}

static int jb64(json_object *o, const char *key, uint8_t *out, size_t max, size_t *len)
{
	const char *s = jstr(o, key, 4 * max);

	return s && !luks_base64_decode(s, out, max, len) && *len > 0 ? 0 : -1;
}

/* Object names are decimal numbers (section 3); returns it, or -1. */
static int obj_id(const char *name, int max)
{
	int v = 0;

	if (!*name || (name[0] == '0' && name[1]) || strlen(name) > 3)
		return -1;
	for (const char *p = name; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
	}
	return v < max ? v : -1;
}

/* An array of numeric-name strings, each below max; marks[] set for each. */
static int id_array(json_object *arr, int max, int *marks)
{
	if (!arr)
		return -1;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *e = json_object_array_get_idx(arr, i);
		int id = json_object_is_type(e, json_type_string) ? obj_id(json_object_get_string(e), max) : -1;

		if (id < 0 || marks[id])
			return -1;   /* a bad or repeated reference */
		marks[id] = 1;
	}
	return 0;
}

static int kdf_type(const char *s)
{
	return !s ? 0 : !strcmp(s, "pbkdf2") ? BC_LUKS_PBKDF2 : !strcmp(s, "argon2i") ? BC_LUKS_ARGON2I
	                                     : !strcmp(s, "argon2id") ? BC_LUKS_ARGON2ID : 0;
}

#define BAD(...) luks_fail(-EINVAL, "LUKS2 metadata: " __VA_ARGS__)

/* The reencrypt keyslot (section 3.2.2): its area holds the resilience data, not a key. */
static int load_reenc_slot(bc_luks *l, int id, json_object *k, json_object *area)
{
	static const char *const types[] = { "none", "checksum", "journal", "datashift", "datashift-checksum",
	                                     "datashift-journal" };
	struct luks_reenc *re = l->reenc;
	const char *t = jstr(area, "type", 32), *mode = jstr(k, "mode", 16), *dir = jstr(k, "direction", 16);
	int64_t v;
	int res = -1;

	if (re->area_size)
		return BAD("two reencrypt keyslots");
	for (int i = 0; i < (int)(sizeof(types) / sizeof(types[0])); i++)
		if (!strcmp(t, types[i]))
			res = i;
	if (res < 0 || jint(k, "key_size", 1, 1, &v) || !mode || !dir)
		return BAD("reencrypt keyslot %d: bad area type, key_size, mode or direction", id);
	re->mode = !strcmp(mode, "reencrypt") ? 0 : !strcmp(mode, "encrypt") ? 1 : !strcmp(mode, "decrypt") ? 2 : -1;
	re->backward = !strcmp(dir, "backward") ? 1 : !strcmp(dir, "forward") ? 0 : -1;
	if (re->mode < 0 || re->backward < 0)
		return BAD("reencrypt keyslot %d: mode \"%s\" or direction \"%s\" unknown", id, mode, dir);
	re->resilience = (enum luks_resilience)res;
	if (res == LUKS_RES_CHECKSUM || res == LUKS_RES_DATASHIFT_CHECKSUM) {
		if (!(t = jstr(area, "hash", sizeof(re->hash))) || jint(area, "sector_size", 512, 65536, &v) ||
		    (v & (v - 1)))
			return BAD("reencrypt keyslot %d: bad checksum hash or sector_size", id);
		if (luks_hash_size(t) < 0)
			return luks_fail(-ENOTSUP, "LUKS2 metadata: reencrypt checksum hash %s not supported", t);
		snprintf(re->hash, sizeof(re->hash), "%s", t);
		re->csum_block = (unsigned)v;
	}
	if (res >= LUKS_RES_DATASHIFT && (ju64(area, "shift_size", &re->shift) || re->shift % LUKS_SECTOR))
		return BAD("reencrypt keyslot %d: bad shift_size", id);
	re->area_offset = l->slot[id].area_offset;
	re->area_size = l->slot[id].area_size;
	re->slot = id;
	l->slot[id].digest = -1;
	return 0;
}

static int load_keyslot(bc_luks *l, int id, json_object *k, uint64_t area_lo, uint64_t area_hi)
{
	struct luks_slot *s = &l->slot[id];
	json_object *af = jget(k, "af", json_type_object), *area = jget(k, "area", json_type_object);
	json_object *kdf = jget(k, "kdf", json_type_object);
	const char *type = jstr(k, "type", 32), *t;
	int64_t v;

	if (!type)
		return BAD("keyslot %d has no type", id);
	if (!area || !(t = jstr(area, "type", 32)) || ju64(area, "offset", &s->area_offset) ||
	    ju64(area, "size", &s->area_size))
		return BAD("keyslot %d: bad area object", id);
	if (s->area_offset < area_lo || s->area_size > area_hi - area_lo || s->area_offset > area_hi - s->area_size ||
	    s->area_offset % LUKS_SECTOR)
		return BAD("keyslot %d: area outside the keyslots area", id);
	if (s->area_offset + s->area_size > l->hdr_file_size)
		return BAD("keyslot %d: area beyond the end of the header file", id);
	for (int j = 0; j < LUKS_MAX_SLOTS; j++)
		if (j != id && l->slot[j].area_size && s->area_offset < l->slot[j].area_offset + l->slot[j].area_size &&
		    l->slot[j].area_offset < s->area_offset + s->area_size)
			return BAD("keyslots %d and %d overlap", j, id);
	if (!strcmp(type, "reencrypt") && l->reenc)
		return load_reenc_slot(l, id, k, area);
	if (strcmp(type, "luks2"))
		return luks_fail(-ENOTSUP, "LUKS2 metadata: keyslot %d has type \"%s\" (luks2 only)", id, type);
	if (jint(k, "key_size", 1, LUKS_MAX_KEY, &v))
		return BAD("keyslot %d: bad key_size", id);
	s->key_bytes = (unsigned)v;
	s->priority = 1;
	if (json_object_object_get_ex(k, "priority", NULL)) {
		if (jint(k, "priority", 0, 2, &v))
			return BAD("keyslot %d: bad priority", id);
		s->priority = (int)v;
	}
	if (strcmp(t, "raw") || !(t = jstr(area, "encryption", sizeof(s->area_cipher))) ||
	    jint(area, "key_size", 1, LUKS_MAX_KEY, &v))
		return BAD("keyslot %d: bad raw area", id);
	snprintf(s->area_cipher, sizeof(s->area_cipher), "%s", t);
	s->area_key_bytes = (unsigned)v;
	if (!af || !(t = jstr(af, "type", 32)) || strcmp(t, "luks1") || jint(af, "stripes", LUKS_STRIPES, LUKS_STRIPES, &v) ||
	    !(t = jstr(af, "hash", sizeof(s->af_hash))))
		return BAD("keyslot %d: bad af object (luks1, 4000 stripes, a hash)", id);
	if (luks_hash_size(t) < 0)
		return luks_fail(-ENOTSUP, "LUKS2 metadata: keyslot %d: AF hash %s not supported", id, t);
	snprintf(s->af_hash, sizeof(s->af_hash), "%s", t);
	s->stripes = LUKS_STRIPES;
	if (s->area_size < luks_af_area_bytes(s->key_bytes, s->stripes))
		return BAD("keyslot %d: area too small for its key", id);
	if (!kdf || !(s->kdf = kdf_type(jstr(kdf, "type", 32))) || jb64(kdf, "salt", s->salt, LUKS_MAX_SALT, &s->salt_len))
		return BAD("keyslot %d: bad kdf object", id);
	if (s->kdf == BC_LUKS_PBKDF2) {
		if (!(t = jstr(kdf, "hash", sizeof(s->kdf_hash))) || jint(kdf, "iterations", 1, UINT32_MAX, &v))
			return BAD("keyslot %d: bad pbkdf2 parameters", id);
		if (luks_hash_size(t) < 0)
			return luks_fail(-ENOTSUP, "LUKS2 metadata: keyslot %d: PBKDF2 hash %s not supported", id, t);
		snprintf(s->kdf_hash, sizeof(s->kdf_hash), "%s", t);
		s->iterations = (uint32_t)v;
	} else {
		int64_t m, c;

		if (jint(kdf, "time", 1, UINT32_MAX, &v) || jint(kdf, "memory", 1, UINT32_MAX, &m) ||
		    jint(kdf, "cpus", 1, UINT32_MAX, &c))
			return BAD("keyslot %d: bad argon2 parameters", id);
		s->iterations = (uint32_t)v;
		s->memory_kib = (uint32_t)m;
		s->cpus = (uint32_t)c;
	}
	s->active = 1;
	s->digest = -1;
	return 0;
}

/* One segment object into g (sections 3.3.1, 3.3.2): crypt, or linear when a reencryption is in progress. */
static int parse_segment(const bc_luks *l, json_object *o, uint64_t meta_end, struct luks_seg *g, int *dynamic)
{
	const char *t = jstr(o, "type", 32), *size;
	int linear = t && l->reenc && !strcmp(t, "linear");
	int64_t v = 512;

	if (!t || (strcmp(t, "crypt") && !linear))
		return luks_fail(t ? -ENOTSUP : -EINVAL, "LUKS2 metadata: segment type %s%s%s not supported (crypt only)",
		                 t ? "\"" : "", t ? t : "missing", t ? "\"" : "");
	memset(g, 0, sizeof(*g));
	g->key = linear ? -1 : 0;
	if (ju64(o, "offset", &g->offset) || !(size = jstr(o, "size", 21)) ||
	    (!linear && (ju64(o, "iv_tweak", &g->iv_tweak) || jint(o, "sector_size", 512, 4096, &v))))
		return BAD("bad %s segment (offset, iv_tweak, sector_size, size)", t);
	g->sector_size = (unsigned)v;
	if (g->sector_size & (g->sector_size - 1))
		return BAD("sector_size %u is not a power of two", g->sector_size);
	if (!linear) {
		if (!(t = jstr(o, "encryption", sizeof(g->cipher))))
			return BAD("segment has no encryption");
		snprintf(g->cipher, sizeof(g->cipher), "%s", t);
	}
	if (json_object_object_get_ex(o, "integrity", NULL))
		return luks_fail(-ENOTSUP, "LUKS2: segments with integrity protection are not supported");
	if (json_object_object_get_ex(o, "flags", NULL) && !jget(o, "flags", json_type_array))
		return BAD("segment flags is not an array");
	if (g->offset % LUKS_SECTOR)
		return BAD("segment offset not a multiple of 512");
	if (!l->detached && g->offset < meta_end)
		return BAD("segment offset %llu overlaps the header (which ends at %llu)", (unsigned long long)g->offset,
		           (unsigned long long)meta_end);
	if (g->offset > l->data_file_size)
		return BAD("segment offset beyond the end of the data file");
	*dynamic = !strcmp(size, "dynamic");
	if (*dynamic) {
		g->size = (l->data_file_size - g->offset) / g->sector_size * g->sector_size;
	} else {
		if (ju64(o, "size", &g->size) || g->size % g->sector_size)
			return BAD("segment size is neither \"dynamic\" nor a multiple of the sector size");
		if (g->size > l->data_file_size - g->offset)
			return BAD("segment ends beyond the end of the data file");
	}
	if (g->iv_tweak > UINT64_MAX / 2 || (g->size / 512) > UINT64_MAX / 2 - g->iv_tweak)
		return BAD("iv_tweak out of range");
	return 0;
}

static int load_segment(bc_luks *l, json_object *o, uint64_t meta_end)
{
	struct luks_seg g;
	int r = parse_segment(l, o, meta_end, &g, &l->dynamic);

	if (r)
		return r;
	l->data_offset = g.offset;
	l->data_size = g.size;
	l->iv_tweak = g.iv_tweak;
	l->sector_size = g.sector_size;
	memcpy(l->cipher, g.cipher, sizeof(l->cipher));
	return 0;
}

static int load_digest(bc_luks *l, int id, json_object *d, int *slot_digest, int *segs)
{
	struct luks_digest *g = &l->digest[id];
	const char *t = jstr(d, "type", 32);
	int ks[LUKS_MAX_SLOTS] = { 0 }, hs;
	int64_t v;

	if (!t)
		return BAD("digest %d has no type", id);
	if (strcmp(t, "pbkdf2"))
		return luks_fail(-ENOTSUP, "LUKS2 metadata: digest %d has type \"%s\" (pbkdf2 only)", id, t);
	if (id_array(jget(d, "keyslots", json_type_array), LUKS_MAX_SLOTS, ks) ||
	    id_array(jget(d, "segments", json_type_array), LUKS_MAX_SLOTS, segs))
		return BAD("digest %d: bad keyslots or segments array", id);
	if (!(t = jstr(d, "hash", sizeof(g->hash))) || jint(d, "iterations", 1, UINT32_MAX, &v) ||
	    jb64(d, "salt", g->salt, LUKS_MAX_SALT, &g->salt_len) || jb64(d, "digest", g->digest, LUKS_MAX_DIGEST, &g->digest_len))
		return BAD("digest %d: bad hash, iterations, salt or digest", id);
	hs = luks_hash_size(t);
	if (hs < 0)
		return luks_fail(-ENOTSUP, "LUKS2 metadata: digest %d: hash %s not supported", id, t);
	if ((int)g->digest_len > hs || g->digest_len < 16)
		return BAD("digest %d: digest length %zu does not fit %s", id, g->digest_len, t);
	snprintf(g->hash, sizeof(g->hash), "%s", t);
	g->iterations = (uint32_t)v;
	g->used = 1;
	for (int i = 0; i < LUKS_MAX_SLOTS; i++) {
		if (!ks[i])
			continue;
		if (!l->slot[i].active && !l->slot[i].area_size)
			return BAD("digest %d refers to keyslot %d, which does not exist", id, i);
		if (slot_digest[i] >= 0)
			return BAD("keyslot %d has two digests", i);
		slot_digest[i] = id;
	}
	return 0;
}

/* 1: the online-reencrypt-v2 requirement alone, 0: none, else an error. */
static int check_requirements(json_object *config)
{
	json_object *req, *arr;

	if (!json_object_object_get_ex(config, "requirements", &req))
		return 0;
	/* cryptsetup writes {"mandatory": [...]}; the specification shows a plain array */
	arr = json_object_is_type(req, json_type_array) ? req : jget(req, "mandatory", json_type_array);
	if (!arr && !json_object_is_type(req, json_type_object))
		return BAD("config requirements has the wrong type");
	if (arr && json_object_array_length(arr)) {
		json_object *e = json_object_array_get_idx(arr, 0);

		if (json_object_array_length(arr) == 1 && json_object_is_type(e, json_type_string) &&
		    !strcmp(json_object_get_string(e), "online-reencrypt-v2"))
			return 1;   /* a reencryption in progress: read as section 4.9 describes it */
		return luks_fail(-ENOTSUP, "LUKS2 requirement \"%s\" is not supported (is a reencryption unfinished?)",
		                 json_object_is_type(e, json_type_string) ? json_object_get_string(e) : "?");
	}
	return 0;
}

/* Duplicate object keys: json-c keeps the last one silently. Every ':' outside a string separates one
 * key from its value, so more of them than keys in the parsed tree means a repeated key. */
static size_t count_keys(json_object *o)
{
	size_t n = 0;

	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, k, v) {
			(void)k;
			n += 1 + count_keys(v);
		}
	} else if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++)
			n += count_keys(json_object_array_get_idx(o, i));
	}
	return n;
}

static size_t count_colons(const char *s)
{
	size_t n = 0;
	int in_str = 0;

	for (; *s; s++) {
		if (in_str) {
			if (*s == '\\' && s[1])
				s++;
			else if (*s == '"')
				in_str = 0;
		} else if (*s == '"') {
			in_str = 1;
		} else if (*s == ':') {
			n++;
		}
	}
	return n;
}

static int has_flag(json_object *seg, const char *flag)
{
	json_object *f = jget(seg, "flags", json_type_array);

	for (size_t i = 0; f && i < json_object_array_length(f); i++) {
		json_object *e = json_object_array_get_idx(f, i);

		if (json_object_is_type(e, json_type_string) && !strcmp(json_object_get_string(e), flag))
			return 1;
	}
	return 0;
}

static int same_params(const struct luks_seg *a, const struct luks_seg *b)
{
	return a->key == b->key && (a->key < 0 || (a->sector_size == b->sector_size && !strcmp(a->cipher, b->cipher)));
}

/* The segments of a reencryption in progress (sections 3.3, 4.9): data segments 0..n-1 in plaintext order with
 * no gap, then backup-previous, backup-final (and backup-moved-segment); each data segment under the digest of
 * the old or the new key (both for the hot zone being rewritten, flagged in-reencryption), a linear one under none. */
static int load_reenc_segments(bc_luks *l, json_object *segs, uint64_t meta_end, const uint32_t *dmask)
{
	struct luks_reenc *re = l->reenc;
	int n = json_object_object_length(segs), got[2] = { 0 }, dyn;
	json_object *o[LUKS_MAX_SLOTS] = { 0 };
	uint64_t plain = 0;

	if (!re->area_size)
		return BAD("a reencryption is in progress but there is no reencrypt keyslot");
	if (re->resilience >= LUKS_RES_DATASHIFT)
		return luks_fail(-ENOTSUP, "LUKS2 requirement \"online-reencrypt-v2\" with a data shift (--reduce-device-size) "
		                 "is not supported");
	json_object_object_foreach(segs, sname, sval)
		o[obj_id(sname, LUKS_MAX_SLOTS)] = sval;
	for (int i = 0; i < n; i++) {
		struct luks_seg g;
		int side, r;

		if (!o[i])
			return BAD("segment %d is missing (the segments are numbered from 0)", i);
		side = has_flag(o[i], "backup-previous") ? 0 : has_flag(o[i], "backup-final") ? 1 : -1;
		r = parse_segment(l, o[i], meta_end, &g, &dyn);
		if (r)
			return r;
		if (has_flag(o[i], "backup-moved-segment"))
			continue;
		if (side >= 0) {
			if (got[side]++ || __builtin_popcount(dmask[i]) != (g.key < 0 ? 0 : 1))
				return BAD("segment %d: a repeated backup segment, or its digest is not one", i);
			re->digest[side] = g.key < 0 ? -1 : __builtin_ctz(dmask[i]);
			g.key = g.key < 0 ? -1 : side;
			re->side[side] = g;
			continue;
		}
		if (got[0] || got[1] || re->nseg != i)
			return BAD("data segment %d follows a backup segment", i);
		g.hot = has_flag(o[i], "in-reencryption");
		g.plain = plain;
		if (dyn && i + 1 < n && !has_flag(o[i + 1], "backup-previous") && !has_flag(o[i + 1], "backup-final") &&
		    !has_flag(o[i + 1], "backup-moved-segment"))
			return BAD("segment %d is dynamic but not the last data segment", i);
		l->dynamic |= dyn;
		plain += g.size;
		re->seg[re->nseg++] = g;
	}
	if (got[0] != 1 || got[1] != 1 || !re->nseg || (re->side[0].key < 0 && re->side[1].key < 0))
		return BAD("a reencryption needs data segments, one backup-previous and one backup-final segment, and a key");
	/* each data segment's digests say which key it is under; its parameters are that side's */
	for (int i = 0, hot = 0; i < re->nseg; i++) {
		struct luks_seg *g = &re->seg[i];
		uint32_t want = 0;

		for (int k = 0; k < 2; k++)
			if (re->digest[k] >= 0 && (dmask[i] >> re->digest[k] & 1))
				want |= 1u << k;
		if (g->hot) {
			if (hot++ || dmask[i] != ((re->digest[0] >= 0 ? 1u << re->digest[0] : 0) |
			                          (re->digest[1] >= 0 ? 1u << re->digest[1] : 0)))
				return BAD("segment %d: a second hot zone, or not under both keys", i);
			if (re->side[0].key >= 0 && g->offset < re->side[0].offset)
				return BAD("hot zone %d starts before the old data", i);
			g->key = re->side[1].key;
		} else if (g->key < 0) {
			if (dmask[i])
				return BAD("linear segment %d has a digest", i);
		} else if (__builtin_popcount(dmask[i]) != 1 || !want) {
			return BAD("segment %d is under neither the old nor the new key", i);
		} else {
			g->key = want == 1 ? 0 : 1;
		}
		if (!same_params(g, &re->side[g->hot ? 1 : g->key >= 0 ? g->key : re->side[0].key < 0 ? 0 : 1]))
			return BAD("segment %d: cipher or sector size differ from its backup segment", i);
	}
	l->data_offset = re->seg[0].offset;
	l->data_size = plain;
	/* the handle's cipher is the new key's (the old one's when decrypting) */
	{
		int k = re->side[1].key >= 0 ? 1 : 0;

		l->segment_digest = re->digest[k];
		l->sector_size = re->side[k].sector_size;
		memcpy(l->cipher, re->side[k].cipher, sizeof(l->cipher));
	}
	return 0;
}

static int load_json(bc_luks *l, const char *text)
{
	json_tokener *tok = json_tokener_new_ex(64);
	json_object *top, *ks, *tokens, *segs, *digs, *config;
	uint64_t json_size, meta_end;
	int slot_digest[LUKS_MAX_SLOTS], seg_marks[LUKS_MAX_SLOTS] = { 0 }, nseg = 0, r;
	uint32_t seg_dmask[LUKS_MAX_SLOTS] = { 0 };   /* the digests of each segment */

	if (!tok)
		return luks_fail(-ENOMEM, "out of memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	top = json_tokener_parse_ex(tok, text, (int)strlen(text) + 1);
	r = json_tokener_get_error(tok);
	json_tokener_free(tok);
	if (!top || r != json_tokener_success)
		return BAD("not valid JSON (%s)", json_tokener_error_desc(r));
	l->json = top;
	if (!json_object_is_type(top, json_type_object))
		return BAD("the top level is not an object");
	if (count_colons(text) != count_keys(top))
		return BAD("an object has a repeated key");
	ks = jget(top, "keyslots", json_type_object);
	tokens = jget(top, "tokens", json_type_object);
	segs = jget(top, "segments", json_type_object);
	digs = jget(top, "digests", json_type_object);
	config = jget(top, "config", json_type_object);
	if (!ks || !tokens || !segs || !digs || !config)
		return BAD("keyslots, tokens, segments, digests and config must all be objects");
	if (ju64(config, "json_size", &json_size) || json_size != l->hdr_size - BIN_SIZE)
		return BAD("config json_size does not match the binary header");
	if (ju64(config, "keyslots_size", &l->keyslots_size) || l->keyslots_size % 4096 ||
	    l->keyslots_size > UINT64_MAX / 4)
		return BAD("config keyslots_size missing or not a multiple of 4096");
	if (json_object_object_get_ex(config, "flags", NULL) && !jget(config, "flags", json_type_array))
		return BAD("config flags is not an array");
	r = check_requirements(config);
	if (r < 0)
		return r;
	if (r && !(l->reenc = calloc(1, sizeof(*l->reenc))))
		return luks_fail(-ENOMEM, "out of memory");
	meta_end = 2 * l->hdr_size + l->keyslots_size;
	l->nslots = LUKS_MAX_SLOTS;
	json_object_object_foreach(ks, kname, kval) {
		int id = obj_id(kname, LUKS_MAX_SLOTS);

		if (id < 0 || !json_object_is_type(kval, json_type_object))
			return BAD("keyslot name \"%s\" is not a number below 32, or not an object", kname);
		r = load_keyslot(l, id, kval, 2 * l->hdr_size, meta_end);
		if (r)
			return r;
	}
	json_object_object_foreach(segs, sname, sval) {
		if (obj_id(sname, LUKS_MAX_SLOTS) < 0 || !json_object_is_type(sval, json_type_object))
			return BAD("segment name \"%s\" is not a number, or not an object", sname);
		if (++nseg > 1 && !l->reenc)
			return luks_fail(-ENOTSUP, "LUKS2: more than one segment (an unfinished reencryption?)");
		r = l->reenc ? 0 : load_segment(l, sval, meta_end);
		if (r)
			return r;
	}
	if (!nseg)
		return luks_fail(-ENOTSUP, "LUKS2: no data segment");
	for (int i = 0; i < LUKS_MAX_SLOTS; i++)
		slot_digest[i] = -1;
	l->segment_digest = -1;
	json_object_object_foreach(digs, dname, dval) {
		int id = obj_id(dname, LUKS_MAX_SLOTS), segm[LUKS_MAX_SLOTS] = { 0 };

		if (id < 0 || !json_object_is_type(dval, json_type_object))
			return BAD("digest name \"%s\" is not a number below 32, or not an object", dname);
		r = load_digest(l, id, dval, slot_digest, segm);
		if (r)
			return r;
		for (int i = 0; i < LUKS_MAX_SLOTS; i++)
			if (segm[i]) {
				seg_dmask[i] |= 1u << id;
				if (l->reenc)
					continue;
				if (seg_marks[i])
					return BAD("segment %d has two digests", i);
				seg_marks[i] = 1;
				l->segment_digest = id;
			}
	}
	if (l->reenc && (r = load_reenc_segments(l, segs, meta_end, seg_dmask)))
		return r;
	if (l->reenc)
		l->reenc->vdigest = slot_digest[l->reenc->slot];
	if (l->segment_digest < 0)
		return BAD("no digest is assigned to the data segment");
	for (int i = 0; i < LUKS_MAX_SLOTS; i++) {
		if (!l->slot[i].active)
			continue;
		if (slot_digest[i] < 0)
			return BAD("keyslot %d has no digest", i);
		l->slot[i].digest = slot_digest[i];
		if (slot_digest[i] == l->segment_digest) {
			if (l->key_bytes && l->key_bytes != l->slot[i].key_bytes)
				return BAD("keyslots of the volume key differ in key size");
			l->key_bytes = l->slot[i].key_bytes;
		} else if (l->reenc && slot_digest[i] == l->reenc->digest[0]) {
			/* the old key of a reencryption: its size is the first such slot's, checked at unlock */
		} else {
			l->slot[i].active = 0;   /* an unbound key: kept, but it cannot open the data */
		}
	}
	if (l->key_bytes && (size_t)luks_hash_size(l->digest[l->segment_digest].hash) < l->digest[l->segment_digest].digest_len)
		return BAD("segment digest too long");
	json_object_object_foreach(tokens, tname, tval) {
		int marks[LUKS_MAX_SLOTS] = { 0 };

		if (obj_id(tname, LUKS_MAX_SLOTS) < 0 || !json_object_is_type(tval, json_type_object) || !jstr(tval, "type", 256) ||
		    id_array(jget(tval, "keyslots", json_type_array), LUKS_MAX_SLOTS, marks))
			return BAD("token \"%s\" is malformed", tname);
		for (int i = 0; i < LUKS_MAX_SLOTS; i++)
			if (marks[i] && !l->slot[i].area_size)
				return BAD("token %s refers to keyslot %d, which does not exist", tname, i);
	}
	return 0;
}

int luks2_load(bc_luks *l)
{
	struct bin_hdr p, s = { 0 }, *use;
	int rp, rs = -EINVAL;
	char first_err[256];

	rp = bin_read(l, 0, magic1, &p);
	snprintf(first_err, sizeof(first_err), "%s", bc_luks_error());
	if (!rp)
		rs = bin_read(l, p.hdr_size, magic2, &s);
	else
		for (size_t i = 0; i < sizeof(hdr_sizes) / sizeof(hdr_sizes[0]) && rs; i++)
			rs = bin_read(l, hdr_sizes[i], magic2, &s);
	if (rp && rs) {
		luks_fail(rp, "%s (and no valid secondary header)", first_err);
		return rp;
	}
	/* a backup is restored as it is: a damaged or stale copy in it would be written too */
	if (l->strict && (rp || rs || p.seqid != s.seqid)) {
		if (!rs && !rp)
			luks_fail(-EINVAL, "LUKS2 header copies differ (seqid %llu and %llu)", (unsigned long long)p.seqid,
			          (unsigned long long)s.seqid);
		else if (rp)
			luks_fail(rp, "%s", first_err);
		free(p.buf);
		free(s.buf);
		return rp ? rp : rs ? rs : -EINVAL;
	}
	/* The more recent valid copy wins (section 4.5); an update writes both. */
	use = rp ? &s : rs ? &p : s.seqid > p.seqid ? &s : &p;
	l->hdr_size = use->hdr_size;
	l->seqid = use->seqid;
	snprintf(l->uuid, sizeof(l->uuid), "%s", (const char *)use->buf + O_UUID);
	snprintf(l->label, sizeof(l->label), "%s", (const char *)use->buf + O_LABEL);
	snprintf(l->subsystem, sizeof(l->subsystem), "%s", (const char *)use->buf + O_SUBSYSTEM);
	snprintf(l->csum_alg, sizeof(l->csum_alg), "%s", (const char *)use->buf + O_CSUM_ALG);
	l->version = 2;
	int r = load_json(l, (const char *)use->buf + BIN_SIZE);

	free(p.buf);
	free(s.buf);
	return r;
}

void luks2_free(bc_luks *l)
{
	if (l->json)
		json_object_put(l->json);
	l->json = NULL;
}

/* Both copies, primary first, each with a fresh salt, the next seqid and its checksum (sections 2.1, 4). */
int luks2_store(bc_luks *l)
{
	const char *text = json_object_to_json_string_ext(l->json, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t tlen = strlen(text);
	uint8_t *buf;
	int r = 0;

	if (tlen + 1 > l->hdr_size - BIN_SIZE)
		return luks_fail(-ENOSPC, "LUKS2 metadata (%zu bytes) does not fit the %llu-byte JSON area", tlen,
		                 (unsigned long long)(l->hdr_size - BIN_SIZE));
	buf = calloc(1, l->hdr_size);
	if (!buf)
		return luks_fail(-ENOMEM, "out of memory");
	l->seqid++;
	for (int copy = 0; copy < 2 && !r; copy++) {
		uint8_t sum[64];

		memset(buf, 0, l->hdr_size);
		memcpy(buf, copy ? magic2 : magic1, 6);
		luks_put_be16(buf + O_VERSION, 2);
		luks_put_be64(buf + O_HDR_SIZE, l->hdr_size);
		luks_put_be64(buf + O_SEQID, l->seqid);
		memcpy(buf + O_LABEL, l->label, strlen(l->label));
		memcpy(buf + O_CSUM_ALG, l->csum_alg, strlen(l->csum_alg));
		memcpy(buf + O_UUID, l->uuid, strlen(l->uuid));
		memcpy(buf + O_SUBSYSTEM, l->subsystem, strlen(l->subsystem));
		luks_put_be64(buf + O_HDR_OFFSET, copy ? l->hdr_size : 0);
		memcpy(buf + BIN_SIZE, text, tlen);
		r = bc_luks_random(buf + O_SALT, 64);
		if (!r)
			r = csum_of(l->csum_alg, buf, l->hdr_size, sum);
		if (!r) {
			memcpy(buf + O_CSUM, sum, (size_t)luks_hash_size(l->csum_alg));
			r = luks_pwrite_all(l->hdr_fd, buf, l->hdr_size, copy ? l->hdr_size : 0);
		}
		/* the primary is on disk before the secondary changes: one copy is always whole */
		if (!r && fdatasync(l->hdr_fd))
			r = luks_fail(-errno, "fsync: %s", strerror(errno));
	}
	free(buf);
	return r;
}

static json_object *jstr_new(const char *s)
{
	return json_object_new_string(s);
}

static json_object *ju64_new(uint64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "%llu", (unsigned long long)v);
	return json_object_new_string(b);
}

static json_object *jb64_new(const uint8_t *p, size_t n)
{
	char *s = luks_base64_encode(p, n);
	json_object *o = s ? json_object_new_string(s) : NULL;

	free(s);
	return o;
}

static json_object *id_str(int n)
{
	char b[8];

	snprintf(b, sizeof(b), "%d", n);
	return json_object_new_string(b);
}

/* Removes the string `id` from an array of keyslot names. */
static void array_drop(json_object *arr, const char *id)
{
	for (size_t i = 0; arr && i < json_object_array_length(arr); i++)
		if (!strcmp(json_object_get_string(json_object_array_get_idx(arr, i)), id)) {
			json_object_array_del_idx(arr, i, 1);
			return;
		}
}

static json_object *digest_json(const struct luks_digest *d)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "type", jstr_new("pbkdf2"));
	json_object_object_add(o, "keyslots", json_object_new_array());
	json_object_object_add(o, "segments", json_object_new_array());
	json_object_array_add(json_object_object_get(o, "segments"), id_str(0));
	json_object_object_add(o, "hash", jstr_new(d->hash));
	json_object_object_add(o, "iterations", json_object_new_int64(d->iterations));
	json_object_object_add(o, "salt", jb64_new(d->salt, d->salt_len));
	json_object_object_add(o, "digest", jb64_new(d->digest, d->digest_len));
	return o;
}

int luks2_set_slot(bc_luks *l, int n)
{
	json_object *ks = json_object_object_get(l->json, "keyslots"), *digs = json_object_object_get(l->json, "digests");
	json_object *tokens = json_object_object_get(l->json, "tokens");
	const struct luks_slot *s = &l->slot[n];
	char name[8];

	snprintf(name, sizeof(name), "%d", n);
	/* the old object and its references go; an active slot is then written afresh */
	json_object_object_del(ks, name);
	json_object_object_foreach(digs, dn, dv) {
		(void)dn;
		array_drop(json_object_object_get(dv, "keyslots"), name);
	}
	if (!s->active) {
		json_object_object_foreach(tokens, tn, tv) {
			(void)tn;
			array_drop(json_object_object_get(tv, "keyslots"), name);
		}
		return 0;
	}
	json_object *k = json_object_new_object(), *af = json_object_new_object(), *area = json_object_new_object();
	json_object *kdf = json_object_new_object();

	json_object_object_add(k, "type", jstr_new("luks2"));
	json_object_object_add(k, "key_size", json_object_new_int(s->key_bytes));
	json_object_object_add(af, "type", jstr_new("luks1"));
	json_object_object_add(af, "stripes", json_object_new_int((int)s->stripes));
	json_object_object_add(af, "hash", jstr_new(s->af_hash));
	json_object_object_add(k, "af", af);
	json_object_object_add(area, "type", jstr_new("raw"));
	json_object_object_add(area, "offset", ju64_new(s->area_offset));
	json_object_object_add(area, "size", ju64_new(s->area_size));
	json_object_object_add(area, "encryption", jstr_new(s->area_cipher));
	json_object_object_add(area, "key_size", json_object_new_int(s->area_key_bytes));
	json_object_object_add(k, "area", area);
	json_object_object_add(kdf, "type", jstr_new(s->kdf == BC_LUKS_PBKDF2 ? "pbkdf2" : s->kdf == BC_LUKS_ARGON2I ? "argon2i" : "argon2id"));
	if (s->kdf == BC_LUKS_PBKDF2) {
		json_object_object_add(kdf, "hash", jstr_new(s->kdf_hash));
		json_object_object_add(kdf, "iterations", json_object_new_int64(s->iterations));
	} else {
		json_object_object_add(kdf, "time", json_object_new_int64(s->iterations));
		json_object_object_add(kdf, "memory", json_object_new_int64(s->memory_kib));
		json_object_object_add(kdf, "cpus", json_object_new_int64(s->cpus));
	}
	json_object_object_add(kdf, "salt", jb64_new(s->salt, s->salt_len));
	json_object_object_add(k, "kdf", kdf);
	json_object_object_add(ks, name, k);
	snprintf(name, sizeof(name), "%d", s->digest);
	json_object *karr = json_object_object_get(json_object_object_get(digs, name), "keyslots");

	json_object_array_add(karr, id_str(n));
	return 0;
}

/* The lowest free 4 KiB-aligned stretch of the keyslots area for a key of key_bytes. */
int luks2_slot_area(const bc_luks *l, unsigned key_bytes, uint64_t *off, uint64_t *size)
{
	uint64_t need = (luks_af_area_bytes(key_bytes, LUKS_STRIPES) + 4095) / 4096 * 4096;
	uint64_t at = 2 * l->hdr_size, end = 2 * l->hdr_size + l->keyslots_size;

	for (int moved = 1; moved;) {
		moved = 0;
		for (int i = 0; i < LUKS_MAX_SLOTS; i++) {
			const struct luks_slot *s = &l->slot[i];

			if (s->area_size && at < s->area_offset + s->area_size && s->area_offset < at + need) {
				at = (s->area_offset + s->area_size + 4095) / 4096 * 4096;
				moved = 1;
			}
		}
	}
	if (at + need > end)
		return luks_fail(-ENOSPC, "no room left in the LUKS2 keyslots area");
	*off = at;
	*size = need;
	return 0;
}

/* A fresh header (section 4.1): 16 KiB headers, the keyslots area up to the data (16 MiB by default). */
int luks2_init(bc_luks *l, const struct bc_luks_format_params *p)
{
	uint64_t meta_max = DEFAULT_DATA;

	l->version = 2;
	l->hdr_size = DEFAULT_HDR;
	l->seqid = 0;
	snprintf(l->csum_alg, sizeof(l->csum_alg), "sha256");
	l->sector_size = p->sector_size ? p->sector_size : 512;
	if (l->sector_size < 512 || l->sector_size > 4096 || (l->sector_size & (l->sector_size - 1)))
		return luks_fail(-EINVAL, "sector size %u is not a power of two in 512..4096", l->sector_size);
	if ((p->label && strlen(p->label) >= 48) || (p->subsystem && strlen(p->subsystem) >= 48))
		return luks_fail(-EINVAL, "label and subsystem take at most 47 bytes");
	snprintf(l->label, sizeof(l->label), "%s", p->label ? p->label : "");
	snprintf(l->subsystem, sizeof(l->subsystem), "%s", p->subsystem ? p->subsystem : "");
	if (l->detached) {
		l->data_offset = p->data_offset;
	} else {
		l->data_offset = p->data_offset ? p->data_offset : DEFAULT_DATA;
		meta_max = l->data_offset < DEFAULT_DATA ? l->data_offset : DEFAULT_DATA;
	}
	if (l->data_offset % l->sector_size)
		return luks_fail(-EINVAL, "data offset must be a multiple of the sector size");
	l->keyslots_size = meta_max > 2 * l->hdr_size ? (meta_max - 2 * l->hdr_size) / 4096 * 4096 : 0;
	if (l->keyslots_size < (luks_af_area_bytes(l->key_bytes, LUKS_STRIPES) + 4095) / 4096 * 4096)
		return luks_fail(-EINVAL, "--offset %llu leaves no room for a keyslot", (unsigned long long)l->data_offset);
	l->nslots = LUKS_MAX_SLOTS;
	l->dynamic = !p->data_size;
	luks2_new_json(l, p->data_size);
	l->segment_digest = 0;
	return 0;
}

void luks2_new_json(bc_luks *l, uint64_t data_size)
{
	json_object *top = json_object_new_object(), *segs = json_object_new_object(), *seg = json_object_new_object();
	json_object *config = json_object_new_object();

	json_object_object_add(seg, "type", jstr_new("crypt"));
	json_object_object_add(seg, "offset", ju64_new(l->data_offset));
	json_object_object_add(seg, "size", data_size ? ju64_new(data_size) : jstr_new("dynamic"));
	json_object_object_add(seg, "iv_tweak", ju64_new(l->iv_tweak));
	json_object_object_add(seg, "encryption", jstr_new(l->cipher));
	json_object_object_add(seg, "sector_size", json_object_new_int((int)l->sector_size));
	json_object_object_add(segs, "0", seg);
	json_object_object_add(config, "json_size", ju64_new(l->hdr_size - BIN_SIZE));
	json_object_object_add(config, "keyslots_size", ju64_new(l->keyslots_size));
	json_object_object_add(top, "keyslots", json_object_new_object());
	json_object_object_add(top, "tokens", json_object_new_object());
	json_object_object_add(top, "segments", segs);
	json_object_object_add(top, "digests", json_object_new_object());
	json_object_object_add(top, "config", config);
	l->json = top;
}

void luks2_set_segment_size(bc_luks *l, uint64_t size)
{
	/* the header has one segment (luks2_load refuses more) */
	json_object_object_foreach(json_object_object_get(l->json, "segments"), name, seg) {
		(void)name;
		json_object_object_add(seg, "size", size ? ju64_new(size) : jstr_new("dynamic"));
	}
}

int luks2_count(const bc_luks *l, const char *section)
{
	return json_object_object_length(json_object_object_get(l->json, section));
}

/* After luks2_init and the digest: the digest object (section 3.4). */
int luks2_add_digest(bc_luks *l)
{
	json_object_object_add(json_object_object_get(l->json, "digests"), "0", digest_json(&l->digest[0]));
	return 0;
}

int luks2_dump_json(const bc_luks *l, FILE *out)
{
	fprintf(out, "%s\n", json_object_to_json_string_ext(l->json, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	return 0;
}

/* ---- the reencryption's verification digest ------------------------------------------------------------------
 * cryptsetup binds the reencryption's parameters to its keys: a pbkdf2 digest, assigned to the reencrypt keyslot,
 * over "v" and the requirement's version digit, the old key, the new key, then the reencrypt keyslot's mode,
 * direction and area (type, offset, size, and the checksum hash and block, or the shift), then each backup
 * segment (type, offset, size, and for crypt iv_tweak, encryption, sector_size): strings as their bytes, numbers
 * big-endian, 64 bits (a "dynamic" size as that word) or 32 for the JSON integers. */
#define VERIFY_MAX 2048u

struct ser {
	uint8_t *p;
	size_t len;
	int bad;
};

static void ser_put(struct ser *s, const void *p, size_t n)
{
	if (s->bad || n > VERIFY_MAX - s->len) {
		s->bad = 1;
		return;
	}
	memcpy(s->p + s->len, p, n);
	s->len += n;
}

/* 's' a string (64 bytes at most), 'u' a string-uint64, 'x' the same or "dynamic", 'i' a JSON integer (32 bits). */
static void ser_field(struct ser *s, json_object *o, const char *key, char kind)
{
	uint8_t b[8];
	uint64_t v;
	int64_t i;
	const char *t = jstr(o, key, 65);

	if (kind == 's' || (kind == 'x' && t && !strcmp(t, "dynamic"))) {
		if (!t || !*t)
			s->bad = 1;
		else
			ser_put(s, t, strlen(t));
	} else if (kind == 'i') {
		if (jint(o, key, 0, UINT32_MAX, &i))
			s->bad = 1;
		luks_put_be32(b, (uint32_t)i);
		ser_put(s, b, 4);
	} else {
		if (ju64(o, key, &v))
			s->bad = 1;
		luks_put_be64(b, v);
		ser_put(s, b, 8);
	}
}

static void ser_fields(struct ser *s, json_object *o, const char *spec)
{
	/* spec: kind letter and name, comma separated */
	char name[32];

	while (*spec && !s->bad) {
		size_t n = strcspn(spec + 1, ",");

		snprintf(name, sizeof(name), "%.*s", (int)n, spec + 1);
		ser_field(s, o, name, *spec);
		spec += 1 + n + (spec[1 + n] == ',');
	}
}

static json_object *segment_flagged(const bc_luks *l, const char *flag)
{
	json_object_object_foreach(json_object_object_get(l->json, "segments"), name, seg) {
		(void)name;
		if (has_flag(seg, flag))
			return seg;
	}
	return NULL;
}

static void ser_segment(struct ser *s, json_object *seg)
{
	const char *t = seg ? jstr(seg, "type", 32) : NULL;

	if (!t || (strcmp(t, "crypt") && strcmp(t, "linear")))
		s->bad = 1;
	else
		ser_fields(s, seg, !strcmp(t, "crypt") ? "stype,uoffset,xsize,uiv_tweak,sencryption,isector_size"
		                                       : "stype,uoffset,xsize");
}

/* The verification data of l's reencryption into s (VERIFY_MAX bytes of locked memory). */
static int reenc_blob(const bc_luks *l, struct ser *s)
{
	const struct luks_reenc *re = l->reenc;
	static const char *const area_spec[] = { "", ",shash,isector_size", "", ",ushift_size",
	                                         ",shash,isector_size,ushift_size", ",ushift_size" };
	char name[8], spec[96];
	json_object *k, *area;

	snprintf(name, sizeof(name), "%d", re->slot);
	k = json_object_object_get(json_object_object_get(l->json, "keyslots"), name);
	area = jget(k, "area", json_type_object);
	ser_put(s, "v2", 2);
	for (int i = 0; i < 2; i++)
		if (re->digest[i] >= 0 && (i == 0 || re->digest[1] != re->digest[0]))
			ser_put(s, re->key[i], re->key_bytes[i]);
	ser_fields(s, k, "smode,sdirection");
	snprintf(spec, sizeof(spec), "stype,uoffset,usize%s", area_spec[re->resilience]);
	ser_fields(s, area, spec);
	ser_segment(s, segment_flagged(l, "backup-previous"));
	ser_segment(s, segment_flagged(l, "backup-final"));
	if (segment_flagged(l, "backup-moved-segment"))
		ser_segment(s, segment_flagged(l, "backup-moved-segment"));
	return s->bad ? -EINVAL : 0;
}

int luks2_reenc_verify(const bc_luks *l)
{
	const struct luks_reenc *re = l->reenc;
	struct ser s = { luks_secure_alloc(VERIFY_MAX), 0, 0 };
	int r;

	if (!s.p)
		return luks_fail(-ENOMEM, "out of memory");
	r = reenc_blob(l, &s);
	if (!r)
		r = re->vdigest < 0 ? -EINVAL : luks_digest_check(&l->digest[re->vdigest], s.p, s.len);
	luks_secure_free(s.p, VERIFY_MAX);
	if (r == -EPERM || r == -EINVAL)
		return luks_fail(-EINVAL, "LUKS2 reencryption metadata is invalid (its digest does not match the keys and "
		                 "parameters)");
	return r;
}

/* ---- writing a reencryption (forward, in place) ---------------------------------------------------------------- */

static json_object *digest_by_id(const bc_luks *l, int id)
{
	char name[8];

	snprintf(name, sizeof(name), "%d", id);
	return json_object_object_get(json_object_object_get(l->json, "digests"), name);
}

/* A crypt segment of side g from plaintext byte `plain`, size bytes (0: dynamic), with one flag or none. */
static json_object *seg_json(const struct luks_seg *g, uint64_t plain, uint64_t size, const char *flag)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "type", jstr_new("crypt"));
	json_object_object_add(o, "offset", ju64_new(g->offset + plain));
	json_object_object_add(o, "size", size ? ju64_new(size) : jstr_new("dynamic"));
	json_object_object_add(o, "iv_tweak", ju64_new(g->iv_tweak + plain / LUKS_SECTOR));
	json_object_object_add(o, "encryption", jstr_new(g->cipher));
	json_object_object_add(o, "sector_size", json_object_new_int((int)g->sector_size));
	if (flag) {
		json_object *f = json_object_new_array();

		json_object_array_add(f, jstr_new(flag));
		json_object_object_add(o, "flags", f);
	}
	return o;
}

static void seg_add(json_object *segs, json_object *seg, json_object *arr0, json_object *arr1)
{
	int n = json_object_object_length(segs);
	char name[8];

	snprintf(name, sizeof(name), "%d", n);
	json_object_object_add(segs, name, seg);
	if (arr0)
		json_object_array_add(arr0, id_str(n));
	if (arr1)
		json_object_array_add(arr1, id_str(n));
}

void luks2_reenc_segments(bc_luks *l, uint64_t done, uint64_t hot)
{
	const struct luks_reenc *re = l->reenc;
	json_object *segs = json_object_new_object(), *a0 = json_object_new_array(), *a1 = json_object_new_array();
	uint64_t end = done + hot, whole = l->dynamic ? 0 : l->data_size;

	if (done)
		seg_add(segs, seg_json(&re->side[1], 0, done, NULL), a1, NULL);
	if (hot)
		seg_add(segs, seg_json(&re->side[1], done, hot, "in-reencryption"), a0, a1);
	if (end < l->data_size)
		seg_add(segs, seg_json(&re->side[0], end, l->dynamic ? 0 : l->data_size - end, NULL), a0, NULL);
	seg_add(segs, seg_json(&re->side[0], 0, whole, "backup-previous"), a0, NULL);
	seg_add(segs, seg_json(&re->side[1], 0, whole, "backup-final"), a1, NULL);
	json_object_object_add(l->json, "segments", segs);
	json_object_object_add(digest_by_id(l, re->digest[0]), "segments", a0);
	json_object_object_add(digest_by_id(l, re->digest[1]), "segments", a1);
}

int luks2_reenc_init_json(bc_luks *l, int new_slot)
{
	static const char *const types[] = { "none", "checksum", "journal" };
	const struct luks_reenc *re = l->reenc;
	json_object *k = json_object_new_object(), *area = json_object_new_object(), *req = json_object_new_object();
	json_object *m = json_object_new_array(), *digs = json_object_object_get(l->json, "digests"), *d;
	struct ser s = { NULL, 0, 0 };
	char name[8];
	int r;

	snprintf(name, sizeof(name), "%d", re->digest[1]);
	json_object_object_add(digs, name, digest_json(&l->digest[re->digest[1]]));
	luks2_set_slot(l, new_slot);
	json_object_object_add(k, "type", jstr_new("reencrypt"));
	json_object_object_add(k, "key_size", json_object_new_int(1));
	json_object_object_add(k, "mode", jstr_new("reencrypt"));
	json_object_object_add(k, "direction", jstr_new("forward"));
	json_object_object_add(k, "priority", json_object_new_int(0));
	json_object_object_add(area, "type", jstr_new(types[re->resilience]));
	json_object_object_add(area, "offset", ju64_new(re->area_offset));
	json_object_object_add(area, "size", ju64_new(re->area_size));
	if (re->resilience == LUKS_RES_CHECKSUM) {
		json_object_object_add(area, "hash", jstr_new(re->hash));
		json_object_object_add(area, "sector_size", json_object_new_int((int)re->csum_block));
	}
	json_object_object_add(k, "area", area);
	snprintf(name, sizeof(name), "%d", re->slot);
	json_object_object_add(json_object_object_get(l->json, "keyslots"), name, k);
	json_object_array_add(m, jstr_new("online-reencrypt-v2"));
	json_object_object_add(req, "mandatory", m);
	json_object_object_add(json_object_object_get(l->json, "config"), "requirements", req);
	luks2_reenc_segments(l, 0, 0);
	/* the digest binding the keys to these parameters, assigned to the reencrypt keyslot alone */
	if (!(s.p = luks_secure_alloc(VERIFY_MAX)))
		return luks_fail(-ENOMEM, "out of memory");
	r = reenc_blob(l, &s);
	if (!r)
		r = luks_digest_make(&l->digest[re->vdigest], "sha256", 32, s.p, s.len);
	luks_secure_free(s.p, VERIFY_MAX);
	if (r)
		return luks_fail(r, "the reencryption digest could not be made");
	d = digest_json(&l->digest[re->vdigest]);
	json_object_object_add(d, "segments", json_object_new_array());
	json_object_array_add(json_object_object_get(d, "keyslots"), id_str(re->slot));
	snprintf(name, sizeof(name), "%d", re->vdigest);
	json_object_object_add(digs, name, d);
	return 0;
}

/* The end of a reencryption: the new key's segment alone, the old key's keyslots and digest, the reencrypt keyslot
 * and its digest gone, no requirement. */
void luks2_reenc_finish_json(bc_luks *l)
{
	const struct luks_reenc *re = l->reenc;
	json_object *segs = json_object_new_object(), *a1 = json_object_new_array();
	json_object *ks = json_object_object_get(l->json, "keyslots"), *digs = json_object_object_get(l->json, "digests");
	char name[8];

	for (int i = 0; i < LUKS_MAX_SLOTS; i++)
		if (i == re->slot || (l->slot[i].area_size && l->slot[i].digest == re->digest[0])) {
			snprintf(name, sizeof(name), "%d", i);
			json_object_object_del(ks, name);
			memset(&l->slot[i], 0, sizeof(l->slot[i]));
		}
	for (int k = 0; k < 2; k++) {
		snprintf(name, sizeof(name), "%d", k ? re->vdigest : re->digest[0]);
		json_object_object_del(digs, name);
	}
	json_object_object_foreach(json_object_object_get(l->json, "tokens"), tn, tv) {
		(void)tn;
		for (size_t i = json_object_array_length(json_object_object_get(tv, "keyslots")); i-- > 0;) {
			int id = obj_id(json_object_get_string(json_object_array_get_idx(json_object_object_get(tv, "keyslots"), i)),
			                LUKS_MAX_SLOTS);

			if (id >= 0 && !l->slot[id].area_size)
				json_object_array_del_idx(json_object_object_get(tv, "keyslots"), i, 1);
		}
	}
	seg_add(segs, seg_json(&re->side[1], 0, l->dynamic ? 0 : l->data_size, NULL), a1, NULL);
	json_object_object_add(l->json, "segments", segs);
	json_object_object_add(digest_by_id(l, re->digest[1]), "segments", a1);
	json_object_object_del(json_object_object_get(l->json, "config"), "requirements");
}
