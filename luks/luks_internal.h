/* blockcrypt-luks internals: the in-memory image (LUKS1 or LUKS2), keyslots, and the helpers the files share.
 * Field meanings: LUKS1 On-Disk Format 1.2.3 (phdr, key slots) and LUKS2 On-Disk Format 1.1.4 (JSON objects). */
#ifndef BC_LUKS_INTERNAL_H
#define BC_LUKS_INTERNAL_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "blockcrypt-luks.h"

#define LUKS_SECTOR 512u
#define LUKS_STRIPES 4000u
#define LUKS_MAX_SLOTS 32       /* LUKS2 (cryptsetup's limit); LUKS1 has 8 */
#define LUKS_MAX_KEY 128u       /* volume and keyslot key bytes */
#define LUKS_SALT 32u
#define LUKS_MAX_SALT 64u
#define LUKS_MAX_DIGEST 64u
#define LUKS_MAX_IV 32u      /* adiantum and hctr2 take a 32-byte tweak */

/* One keyslot, whichever version it came from. */
struct luks_slot {
	int active;
	enum bc_luks_pbkdf kdf;
	char kdf_hash[32];           /* PBKDF2 */
	uint32_t iterations;         /* PBKDF2 iterations or Argon2 time */
	uint32_t memory_kib, cpus;   /* Argon2 */
	uint8_t salt[LUKS_MAX_SALT];
	size_t salt_len;
	char af_hash[32];
	uint32_t stripes;
	uint64_t area_offset, area_size;   /* bytes in the header file */
	char area_cipher[64];        /* dm-crypt notation */
	unsigned area_key_bytes;     /* PBKDF output length */
	unsigned key_bytes;          /* the key it stores */
	int priority;                /* LUKS2: 0 ignore, 1 normal, 2 high */
	int digest;                  /* LUKS2 digest id that checks it */
};

struct luks_digest {
	int used;
	char hash[32];
	uint32_t iterations;
	uint8_t salt[LUKS_MAX_SALT];
	size_t salt_len;
	uint8_t digest[LUKS_MAX_DIGEST];
	size_t digest_len;
};

/* A LUKS2 reencryption in progress (the online-reencrypt-v2 requirement, section 4.9): the data segments in
 * plaintext order, each under the old key, the new key or none (linear), and the hot zone being rewritten. */
enum luks_resilience { LUKS_RES_NONE, LUKS_RES_CHECKSUM, LUKS_RES_JOURNAL, LUKS_RES_DATASHIFT,
                       LUKS_RES_DATASHIFT_CHECKSUM, LUKS_RES_DATASHIFT_JOURNAL };

struct luks_seg {
	int key;                     /* 0 the old key, 1 the new, -1 plaintext (linear) */
	int hot;                     /* in-reencryption: each block holds the old or the new ciphertext */
	uint64_t offset, size, iv_tweak;   /* bytes in the data file; size resolved when dynamic */
	uint64_t plain;              /* where it starts in the plaintext */
	unsigned sector_size;
	char cipher[64];
};

struct luks_reenc {
	int mode;                    /* 0 reencrypt, 1 encrypt, 2 decrypt */
	int backward;
	enum luks_resilience resilience;
	char hash[32];               /* checksum resilience */
	unsigned csum_block;
	uint64_t area_offset, area_size, shift;
	int nseg;
	struct luks_seg seg[LUKS_MAX_SLOTS];
	struct luks_seg side[2];     /* backup-previous (the old key's parameters) and backup-final (the new) */
	int digest[2];               /* -1: that side is plaintext */
	int slot;                    /* the reencrypt keyslot */
	int vdigest;                 /* the digest bound to it (-1: none), over the keys and these parameters */
	uint8_t *key[2];             /* locked memory, after unlock */
	unsigned key_bytes[2];
	bc_luks_crypt *crypt[2];
};

struct bc_luks {
	int version;
	int hdr_fd, data_fd;         /* the same descriptor unless the header is detached */
	int detached, writable;
	int strict;                  /* a backup file: both LUKS2 copies must be valid and agree */
	uint64_t hdr_file_size, data_file_size;
	char uuid[40], label[48], subsystem[48];
	char cipher[64];             /* dm-crypt notation, "aes-xts-plain64" */
	unsigned key_bytes, sector_size;
	uint64_t data_offset;        /* bytes in the data file */
	uint64_t data_size;          /* bytes; the file's end when dynamic */
	int dynamic;
	uint64_t iv_tweak;           /* 512-byte units */
	int iv_large;                /* plain mode: IVs in sector_size units */
	int nslots;
	struct luks_slot slot[LUKS_MAX_SLOTS];
	struct luks_digest digest[LUKS_MAX_SLOTS];   /* LUKS1: digest[0] */
	int segment_digest;          /* the digest that checks the volume key */
	/* LUKS1 */
	uint8_t phdr[592];
	/* LUKS2 */
	void *json;                  /* json_object *, the metadata as stored (unknown fields kept) */
	uint64_t hdr_size, keyslots_size, seqid;
	char csum_alg[32];
	struct luks_reenc *reenc;    /* NULL unless a reencryption is in progress */
	/* after unlock */
	uint8_t *volume_key;         /* locked memory, LUKS_MAX_KEY bytes */
	bc_luks_crypt *crypt;
};

/* luks_util.c */
int luks_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void *luks_secure_alloc(size_t len);          /* zeroed, mlock'ed where the system allows */
void luks_secure_free(void *p, size_t len);   /* wipes, unlocks, frees */
uint16_t luks_be16(const uint8_t *p);
uint32_t luks_be32(const uint8_t *p);
uint64_t luks_be64(const uint8_t *p);
void luks_put_be16(uint8_t *p, uint16_t v);
void luks_put_be32(uint8_t *p, uint32_t v);
void luks_put_be64(uint8_t *p, uint64_t v);
int luks_pread_all(int fd, void *buf, size_t len, uint64_t off);
int luks_pwrite_all(int fd, const void *buf, size_t len, uint64_t off);
int luks_cstring_ok(const uint8_t *field, size_t len);   /* NUL-terminated inside the field */
int luks_uuid_ok(const char *uuid);
void luks_uuid_random(char out[37]);
int luks_base64_decode(const char *in, uint8_t *out, size_t max, size_t *outlen);
char *luks_base64_encode(const uint8_t *in, size_t len);   /* malloc'ed */
unsigned luks_cpus(void);
extern uint32_t luks_max_memory_kib, luks_max_time, luks_max_iterations;

/* luks_kdf.c: PBKDF2 (OpenSSL), Argon2 (libargon2), the AF splitter, hashes by name */
int luks_hash_size(const char *hash);          /* bytes, or -ENOTSUP */
int luks_hash(const char *hash, const uint8_t *in, size_t len, uint8_t *out);
/* The hash of each block-byte piece of in (the last one shorter), the digests one after another in out. */
int luks_hash_blocks(const char *hash, const uint8_t *in, size_t len, size_t block, uint8_t *out);
int luks_pbkdf2(const char *hash, const uint8_t *pass, size_t passlen, const uint8_t *salt, size_t saltlen,
                uint32_t iterations, uint8_t *out, size_t outlen);
int luks_argon2(enum bc_luks_pbkdf type, const uint8_t *pass, size_t passlen, const uint8_t *salt,
                size_t saltlen, uint32_t time, uint32_t memory_kib, uint32_t cpus, uint8_t *out, size_t outlen);
int luks_slot_kdf(const struct luks_slot *s, const char *pass, size_t passlen, uint8_t *out);
int luks_af_merge(const char *hash, const uint8_t *split, size_t keylen, uint32_t stripes, uint8_t *key);
int luks_af_split(const char *hash, const uint8_t *key, size_t keylen, uint32_t stripes, uint8_t *split);
int luks_kdf_check_bounds(enum bc_luks_pbkdf type, uint32_t iterations, uint32_t memory_kib, uint32_t cpus);
/* Fills the cost fields of s from p, benchmarking to p->iter_time_ms unless forced. */
int luks_kdf_choose(struct luks_slot *s, const struct bc_luks_pbkdf_params *p, size_t outlen);
uint32_t luks_pbkdf2_benchmark(const char *hash, uint32_t ms, size_t outlen);

/* luks_image.c */
/* bc_luks_open, with strict set for a header backup file (hdr) checked against the image it goes to (data); writable 2
 * also opens an image in the middle of a reencryption for writing (luks reencrypt alone). */
int luks_open(bc_luks **out, const char *data, const char *hdr, int writable, int strict);
int luks_store(bc_luks *l);                   /* the header as l has it, LUKS1 or LUKS2 */
int luks_wipe_area(int fd, uint64_t off, uint64_t len);   /* zeros */

/* luks1.c and luks2.c: header parsing (everything validated) and writing */
int luks1_load(bc_luks *l, const uint8_t *hdr4k);
int luks1_store(bc_luks *l);
int luks1_init(bc_luks *l, const struct bc_luks_format_params *p);
/* The phdr's fixed fields from l (cipher as name and mode, hash, key size, payload offset): after luks1_init's
 * checks, or when a LUKS2 header becomes LUKS1. */
int luks1_phdr_init(bc_luks *l, const char *hash);
int luks2_load(bc_luks *l);
int luks2_store(bc_luks *l);
int luks2_init(bc_luks *l, const struct bc_luks_format_params *p);
int luks2_add_digest(bc_luks *l);            /* digest 0 from l->digest[0], for a new header */
/* The JSON of a header without keyslots or digests: l's data segment (size data_size, 0 dynamic) and config. */
void luks2_new_json(bc_luks *l, uint64_t data_size);
int luks2_count(const bc_luks *l, const char *section);   /* objects in "tokens", "digests"... */
void luks2_set_segment_size(bc_luks *l, uint64_t size);   /* 0: dynamic */
int luks2_set_slot(bc_luks *l, int n);         /* the JSON of slot n from l->slot[n] (or its removal) */
void luks2_free(bc_luks *l);
int luks2_dump_json(const bc_luks *l, FILE *out);
int luks2_slot_area(const bc_luks *l, unsigned key_bytes, uint64_t *off, uint64_t *size);
/* The reencryption's parameters checked against the reencrypt keyslot's digest, under both keys (unlocked). */
int luks2_reenc_verify(const bc_luks *l);
/* A new reencryption's metadata from l->reenc (sides, digests, keys, resilience, its keyslot) and the new key's
 * keyslot new_slot: the digest and keyslot objects, the requirement, the segments and the verification digest. */
int luks2_reenc_init_json(bc_luks *l, int new_slot);
/* The segments of a forward reencryption: [0, done) under the new key, [done, done+hot) the hot zone, the rest old. */
void luks2_reenc_segments(bc_luks *l, uint64_t done, uint64_t hot);
void luks2_reenc_finish_json(bc_luks *l);   /* an ordinary header under the new key (the old slots removed) */

/* luks_reenc.c: an image in the middle of a reencryption */
int luks_reenc_unlock(bc_luks *l, const char *pass, size_t passlen);
int luks_reenc_read(bc_luks *l, uint64_t off, uint8_t *buf, size_t len);
/* Side k's sectors at byte `at` of the data file, len bytes, en- or decrypted in place. */
int luks_reenc_side_crypt(const struct luks_reenc *re, int k, int encrypt, uint64_t at, uint8_t *buf, size_t len);
void luks_reenc_free(bc_luks *l);

/* luks_keyslot.c */
int luks_slot_decrypt(bc_luks *l, int n, const char *pass, size_t passlen, uint8_t *key);
int luks_slot_encrypt(bc_luks *l, int n, const char *pass, size_t passlen, const uint8_t *key);
int luks_digest_check(const struct luks_digest *d, const uint8_t *key, size_t keylen);
int luks_digest_make(struct luks_digest *d, const char *hash, size_t len, const uint8_t *key, size_t keylen);
uint64_t luks_af_area_bytes(unsigned key_bytes, uint32_t stripes);   /* sectors rounded */

#endif
