/* blockcrypt-luks: LUKS1, LUKS2 and plain dm-crypt disk images in user space, on blockcrypt's drivers.
 * On-disk formats: LUKS1 On-Disk Format 1.2.3 and LUKS2 On-Disk Format 1.1.4; sector IVs as Linux dm-crypt. */
#ifndef BLOCKCRYPT_LUKS_H
#define BLOCKCRYPT_LUKS_H

#include <stddef.h>
#include <stdint.h>

#ifndef BC_API
#define BC_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Errors are negative errno values:
 *   -EINVAL   the image or header is malformed (or an argument is)   -EPERM    no keyslot opens with this passphrase
 *   -ENOTSUP  a cipher, IV, PBKDF or LUKS2 requirement not implemented -ENOSPC   no free keyslot or no room
 *   -EEXIST   refusing to overwrite an existing header or data         -E2BIG    a PBKDF cost above the safety bounds
 *   other     the system call's errno (-EIO, -ENOENT, -ENOMEM...)
 * After a failure, bc_luks_error() gives a one-line reason (per thread). A refused
 * operation writes nothing.
 */
BC_API const char *bc_luks_error(void);

/* ---- dm-crypt sectors: a cipher spec keyed once, any sector range ------------ */
typedef struct bc_luks_crypt bc_luks_crypt;

/* spec: dm-crypt notation, "aes-xts-plain64", "aes-cbc-essiv:sha256", "aes-lrw-benbi", "sm4-xts-plain64",
 * "capi:xts(aes)-plain64": any cipher and mode blockcrypt has, IVs plain, plain64, plain64be, benbi,
 * essiv:HASH, eboiv and null as dm-crypt makes them (-ENOTSUP for key counts, lmk, tcw). sector_size 512..4096 (a power of two). The IV of data sector k is
 * computed from iv_offset + k * sector_size / 512 (512-byte units, as cryptsetup sets up LUKS2),
 * or with iv_large_sectors from that value divided by sector_size / 512 (dm-crypt's option). */
BC_API int bc_luks_crypt_alloc(bc_luks_crypt **c, const char *spec, const uint8_t *key, size_t keylen,
                               unsigned sector_size, int iv_large_sectors);
BC_API void bc_luks_crypt_free(bc_luks_crypt *c);
/* Whole sectors in place: buf holds len bytes (a multiple of sector_size) starting at data sector
 * `sector` (in sector_size units, counted from the start of the encrypted area). */
BC_API int bc_luks_crypt_sectors(const bc_luks_crypt *c, int encrypt, uint64_t iv_offset, uint64_t sector,
                                 uint8_t *buf, size_t len);
/* The blockcrypt algorithm name the spec maps to (e.g. "xts(aes)") and the driver chosen. */
BC_API const char *bc_luks_crypt_driver(const bc_luks_crypt *c);

/* ---- LUKS images ------------------------------------------------------------- */
typedef struct bc_luks bc_luks;

enum bc_luks_pbkdf { BC_LUKS_PBKDF2 = 1, BC_LUKS_ARGON2I, BC_LUKS_ARGON2ID };

/* Keyslot parameters; zero fields take cryptsetup's defaults (argon2id, sha256, 2000 ms,
 * 1 GiB at most, 4 threads at most). */
struct bc_luks_pbkdf_params {
	enum bc_luks_pbkdf type;
	const char *hash;            /* PBKDF2 hash and AF hash: sha1, sha256, sha512, ripemd160... */
	uint32_t iter_time_ms;       /* benchmarked to this unlock time */
	uint32_t iterations;         /* forced: PBKDF2 iterations or Argon2 time cost, no benchmark */
	uint32_t memory_kib;         /* Argon2 memory (maximum when benchmarking) */
	uint32_t parallel;           /* Argon2 threads */
};

struct bc_luks_format_params {
	int version;                 /* 1 or 2 (default) */
	const char *cipher;          /* "aes-xts-plain64" default */
	unsigned key_bytes;          /* volume key size (default 64 for xts, 32 otherwise) */
	unsigned sector_size;        /* LUKS2 only: 512 (default) .. 4096 */
	uint64_t data_offset;        /* bytes; 0 = default (16 MiB LUKS2, 4096 sectors-aligned LUKS1; 0 detached) */
	uint64_t data_size;          /* bytes of the data segment; 0 = to the end of the device ("dynamic") */
	const char *uuid;            /* NULL: random */
	const char *label, *subsystem;  /* LUKS2 */
	const uint8_t *volume_key;   /* NULL: from getrandom(2) */
	int keyslot;                 /* -1: first free */
	struct bc_luks_pbkdf_params pbkdf;
};

/* Opens an image: hdr is the file holding the header (the image itself when NULL; a detached
 * header otherwise), data the file holding the encrypted data. Validates every header field. */
BC_API int bc_luks_open(bc_luks **l, const char *data, const char *hdr, int writable);
BC_API void bc_luks_close(bc_luks *l);   /* wipes the volume key */

/* A plain dm-crypt mapping of data (no header): bytes from `offset` on, `size` bytes (0: to the end of
 * the file, growing as bc_luks_encrypt_from writes), IVs from iv_offset (512-byte units) as dm-crypt's
 * table has them. The handle is unlocked; bc_luks_read/write/decrypt_to/encrypt_from work on it. */
BC_API int bc_luks_open_plain(bc_luks **l, const char *data, const char *spec, const uint8_t *key, size_t keylen,
                              unsigned sector_size, int iv_large_sectors, uint64_t offset, uint64_t size,
                              uint64_t iv_offset, int writable);

/* dm-crypt plain mode's key from a passphrase, as `cryptsetup open --type plain --hash HASH` derives it (one
 * unsalted hash: use a strong passphrase or a raw key): hash(pass) || hash("A" || pass) || hash("AA" || pass)...
 * cut to keylen bytes. "HASH:N" derives only the first N bytes so and zero-fills the rest; "plain" uses the passphrase
 * itself, zero-padded or cut to keylen. cryptsetup's default hash for plain mode is ripemd160. */
BC_API int bc_luks_plain_key(const char *hash, const char *pass, size_t passlen, uint8_t *key, size_t keylen);

/* Writes a new header (and the first keyslot) on data, or on hdr when detached. The files must
 * exist; the data file is extended to hold data_size if needed. */
BC_API int bc_luks_format(bc_luks **l, const char *data, const char *hdr, const struct bc_luks_format_params *p,
                          const char *pass, size_t passlen);

BC_API int bc_luks_version(const bc_luks *l);
BC_API const char *bc_luks_uuid(const bc_luks *l);
BC_API const char *bc_luks_cipher(const bc_luks *l);   /* dm-crypt notation */
BC_API unsigned bc_luks_sector_size(const bc_luks *l);
BC_API uint64_t bc_luks_data_offset(const bc_luks *l);  /* bytes in the data file */
BC_API uint64_t bc_luks_data_size(const bc_luks *l);    /* bytes of plaintext */
BC_API unsigned bc_luks_key_bytes(const bc_luks *l);

/* Tries the passphrase on keyslot `slot` (-1: every active slot, by priority). Returns the slot
 * that opened, -EPERM if none did. On success the volume key stays in locked memory. */
BC_API int bc_luks_unlock(bc_luks *l, const char *pass, size_t passlen, int slot);
/* Unlocks with a volume key instead (checked against the header's digest). */
BC_API int bc_luks_unlock_volume_key(bc_luks *l, const uint8_t *key, size_t keylen);
BC_API int bc_luks_volume_key(const bc_luks *l, uint8_t *out, size_t outlen);   /* after unlock */

/* Plaintext bytes [off, off+len) of the data segment (any alignment). */
BC_API int bc_luks_read(bc_luks *l, uint64_t off, uint8_t *buf, size_t len);
BC_API int bc_luks_write(bc_luks *l, uint64_t off, const uint8_t *buf, size_t len);   /* then bc_luks_sync */
/* A write left in the page cache (a server batches them up to its client's flush), and the flush itself:
 * fdatasync(2) of the data file. Reads and writes of distinct sectors may run in several threads at once;
 * writes that share a partial sector must not (each is a read-modify-write of the whole sector). */
BC_API int bc_luks_write_nosync(bc_luks *l, uint64_t off, const uint8_t *buf, size_t len);
BC_API int bc_luks_sync(bc_luks *l);

/* Bulk: the whole data segment to fd_out (decrypt), or fd_in's content into the data segment
 * (encrypt; the segment grows if dynamic and the tail of the last sector is zero-filled).
 * threads 0: every core. progress, if not NULL, is called about every 200 ms and at the end. */
typedef void (*bc_luks_progress_fn)(uint64_t done, uint64_t total, void *arg);
BC_API int bc_luks_decrypt_to(bc_luks *l, int fd_out, unsigned threads, bc_luks_progress_fn progress, void *arg);
BC_API int bc_luks_encrypt_from(bc_luks *l, int fd_in, uint64_t in_size, unsigned threads,
                                bc_luks_progress_fn progress, void *arg);

/* In-place reencryption of a LUKS2 image under a new volume key, as `cryptsetup reencrypt` (offline, forward): the
 * on-disk state while it runs is cryptsetup's (the online-reencrypt-v2 requirement, a reencrypt keyslot holding the
 * hot zone's resilience data, the segments under each key), so that either tool finishes what the other began.
 * Zero fields keep the image's cipher, key size and sector size. The passphrase opens the old key and is given to the
 * new one (images with one keyslot; resume: a reencryption in progress, ours or cryptsetup's, needs both keys). */
struct bc_luks_reencrypt_params {
	const char *cipher;          /* dm-crypt notation; NULL: the current */
	unsigned key_bytes;          /* new volume key size; 0: the current (or the cipher's default) */
	unsigned sector_size;        /* 0: the current */
	const char *resilience;      /* "checksum" (default), "journal" or "none" */
	const char *resilience_hash; /* checksum: "sha256" default */
	uint64_t hotzone_size;       /* bytes rewritten per step; 0: the largest the resilience area allows, 32 MiB at most */
	int init_only;               /* the metadata only: no data rewritten */
	int resume_only;             /* refuse to start a new reencryption */
	struct bc_luks_pbkdf_params pbkdf;   /* the new keyslot's */
};
BC_API int bc_luks_reencrypt(const char *image, const char *pass, size_t passlen, const struct bc_luks_reencrypt_params *p,
                             bc_luks_progress_fn progress, void *arg);

/* Keyslots (after unlock). add: returns the slot used. kill: wipes the slot's key material. */
BC_API int bc_luks_add_key(bc_luks *l, int slot, const struct bc_luks_pbkdf_params *p,
                           const char *pass, size_t passlen);
BC_API int bc_luks_kill_slot(bc_luks *l, int slot);
/* A new passphrase for the key in `slot`, stored in `new_slot`, as cryptsetup's luksChangeKey does it. new_slot
 * -1: LUKS2 keeps the slot number; LUKS1 takes the first free slot (then wipes the old one), or `slot` when all
 * eight are in use. new_slot == slot: in place (LUKS2: new material in a free area, one header update, the old
 * area wiped; LUKS1: the area overwritten, then the header). Another slot: added there, then `slot` wiped.
 * Returns the slot now holding the key. */
BC_API int bc_luks_change_key(bc_luks *l, int slot, int new_slot, const struct bc_luks_pbkdf_params *p,
                              const char *pass, size_t passlen);
BC_API int bc_luks_slot_active(const bc_luks *l, int slot);   /* 1, 0, or -EINVAL out of range */
BC_API int bc_luks_max_slots(const bc_luks *l);
BC_API int bc_luks_set_uuid(bc_luks *l, const char *uuid);

/* ---- header care, as cryptsetup's luksHeaderBackup, luksHeaderRestore, erase and convert ---- */
/* The header and keyslot areas to a new file (refused if it exists; mode 0400), as cryptsetup writes it: LUKS1 the
 * phdr and key material up to the last keyslot's end (the rest of the phdr's 4 KiB zeroed when keyslot 0 starts
 * there), LUKS2 both headers and the keyslots area; zero-padded to a multiple of 4096 bytes. */
BC_API int bc_luks_header_backup(const bc_luks *l, const char *file);
/* Asked before a restore or erase writes: msg is cryptsetup's warning; nonzero goes on. */
typedef int (*bc_luks_confirm_fn)(const char *msg, void *arg);
/* Writes a backup's header area to data (or to hdr, a detached header file, when not NULL). The backup is validated
 * whole first (both LUKS2 copies with their checksums and the same seqid, every keyslot inside the file, the data
 * segment inside data). Over an existing LUKS header the data offset must match, and the key size (LUKS1) or the
 * header and keyslots area size (LUKS2) too; a different UUID is named in msg. -ECANCELED when confirm says no. */
BC_API int bc_luks_header_restore(const char *data, const char *hdr, const char *backup, bc_luks_confirm_fn confirm,
                                  void *arg);
/* Every active keyslot wiped and removed (LUKS2: from the digests and tokens too, which stay), as cryptsetup's
 * erase: the image can no longer be opened by any passphrase. */
BC_API int bc_luks_erase(bc_luks *l);
/* LUKS1 to LUKS2 (version 2) or back (1) in place, with cryptsetup convert's rules and layout: the keyslot areas
 * move between 4 KiB and 32 KiB. The handle then describes the new header. A refusal writes nothing. */
BC_API int bc_luks_convert(bc_luks *l, int version);
/* The LUKS2 data segment's size in the header (cryptsetup's resize sizes an active mapping; offline the segment is
 * what says it): size bytes (a multiple of the sector size; the data file grows to hold them), or 0 for "dynamic",
 * to the end of the file. The data is not touched. LUKS1 has no size field: -ENOTSUP. */
BC_API int bc_luks_resize(bc_luks *l, uint64_t size);

/* What `cryptsetup luksDump` shows, to out (a FILE *); json: LUKS2 metadata as stored. */
BC_API int bc_luks_dump(const bc_luks *l, void *out, int json);

/* Sets the PBKDF safety bounds applied when unlocking (a crafted header must not make it
 * allocate gigabytes or run for hours): Argon2 memory (KiB), Argon2 time cost, PBKDF2 iterations.
 * Defaults: 1 GiB (cryptsetup's default cap when it creates a keyslot), 100, 50 million. */
BC_API void bc_luks_set_pbkdf_limits(uint32_t max_memory_kib, uint32_t max_time, uint32_t max_iterations);

/* `cryptsetup benchmark`'s KDF figure: the costs of p->type (and p->hash for PBKDF2) that take
 * p->iter_time_ms (0: 1000 ms for PBKDF2, i.e. iterations per second; 2000 ms for Argon2, within
 * p->memory_kib and p->parallel as a keyslot's) for a keylen-byte key, written back to p. */
BC_API int bc_luks_benchmark_pbkdf(struct bc_luks_pbkdf_params *p, size_t keylen);

/* Random bytes from getrandom(2). */
BC_API int bc_luks_random(void *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
