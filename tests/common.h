/* Test support shared by the test programs: check counting, hex, a fixed-seed PRNG,
 * the driver list, and readers for the vector formats under tests/vectors (FORMAT.md). */
#ifndef BC_TEST_COMMON_H
#define BC_TEST_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "blockcrypt.h"

#ifndef ENOKEY
#define ENOKEY 126
#endif

/* ---- checks ------------------------------------------------------------------
 * CHECK counts a pass or a failure; failures print file:line, the current
 * context (set_context) and the message. Only the first failures are printed
 * so one broken driver cannot flood the log; all are counted. */
extern unsigned long test_passed, test_failed;
/* Call first: line-buffered output, so a crash still shows how far a test got. */
void test_init(void);
void check_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#define CHECK(cond, ...) \
	do { if (cond) test_passed++; else check_fail(__FILE__, __LINE__, __VA_ARGS__); } while (0)
void set_context(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "<prog>: N passed, M failed" and returns the exit status. */
int test_summary(const char *prog);
/* Quick mode (BC_TEST_QUICK=1, used under emulators and sanitizers): a
 * representative subset. quick_pick(i) selects every QUICK_STRIDE-th item then. */
int test_quick(void);
int quick_pick(size_t i);

/* ---- scratch memory: freed all at once by tmp_free_all() ----------------------- */
void *tmp_alloc(size_t n);       /* zeroed; never NULL (aborts) */
void tmp_free_all(void);

/* ---- hex ------------------------------------------------------------------------ */
/* Decodes hex (either case; surrounding blanks ignored) into tmp memory.
 * Returns 0, or -1 for odd length or a non-hex character. */
int hex_decode(const char *hex, uint8_t **out, size_t *len);
const char *hex_str(const uint8_t *p, size_t n);   /* tmp memory */

/* ---- deterministic PRNG (xorshift64*) so failures reproduce -------------------------- */
void rng_seed(uint64_t seed);
uint64_t rng_u64(void);
size_t rng_below(size_t n);
void rng_fill(uint8_t *p, size_t n);

/* ---- drivers --------------------------------------------------------------------- */
#define MAX_DRIVERS 32
struct drv_set {
	size_t n;
	struct bc_driver_info info[MAX_DRIVERS];   /* strings owned by the set */
};
/* Every driver bc_list_drivers shows for the algorithm name (may be none). */
void drivers_for(const char *alg, struct drv_set *out);
void drv_set_free(struct drv_set *s);
/* The driver name of the template instance over the generic cipher and hash,
 * which the registry builds on request even when bc_list_drivers does not
 * show it: cbc(aes) -> cbc(aes-generic), xts(sm4) -> xts(ecb(sm4-generic)),
 * gcm(aes) -> gcm_base(ctr(aes-generic),ghash-generic), sha256 -> sha256-generic. */
/* The block cipher an algorithm name is over: "aes" (the default), "sm4", "twofish", "serpent",
 * "camellia", "des3_ede" or "des". */
const char *alg_cipher(const char *alg);
/* Little-endian 32-bit words (chacha's block counter in its IV). */
uint32_t load_le32(const uint8_t *p);
void store_le32(uint8_t *p, uint32_t v);
const char *generic_driver_name(const char *alg, char *buf, size_t n);

/* The contract's rules per algorithm name: accepted key sizes (zero-terminated;
 * {0} for unkeyed hashes) and accepted skcipher lengths. */
void alg_key_sizes(const char *alg, unsigned out[4]);
/* The longest key alg_key_sizes gives: nhpoly1305's (Poly1305 r and the NH key). */
#define TEST_KEY_MAX 1088
int alg_key_ok(const unsigned sizes[4], size_t len);
int alg_key_any_ok(const char *alg, size_t len);   /* serpent: any length up to 32 bytes */
int alg_len_ok(const char *alg, size_t len);

/* ---- vector files ----------------------------------------------------------------- */
/* The vectors directory: $VECTORS, else tests/vectors (run from the top of the tree). */
const char *vectors_dir(void);

/* Text formats (uniform .txt, NIST .rsp, OpenSSL evp_test, Botan .vec) are all
 * blank-line-separated blocks of "name = value" lines, '#' comments, and
 * "[...]" headers. "[X]" sets the section (RSP ENCRYPT/DECRYPT, Botan algorithm);
 * "[name = value]" sets a header field in force for the records that follow
 * (RSP [Keylen = 128]). A line with no '=' (RSP "FAIL") is a field with an
 * empty value. Names are matched case-insensitively. */
struct vfield { const char *name, *value; };
struct vrec {
	const char *section;
	const struct vfield *f;
	size_t nf;
	const struct vfield *hdr;
	size_t nhdr;
	int line;
};
struct vfile {
	char *path;
	char *buf;
	struct vrec *r;
	size_t n;
	struct vfield *fields;        /* storage for all records' fields */
	struct vfield **hdrs;         /* header snapshots */
	size_t nhdrs;
};
/* rel is relative to vectors_dir(). Returns 0, or -1 (message printed). */
int vfile_load(struct vfile *vf, const char *rel);
void vfile_free(struct vfile *vf);
const char *vrec_get(const struct vrec *r, const char *name);   /* NULL if absent */
int vrec_has(const struct vrec *r, const char *name);
/* The field as bytes (hex, or a "quoted" literal) in tmp memory; absent -> -1. */
int vrec_bytes(const struct vrec *r, const char *name, uint8_t **p, size_t *n);
long vrec_long(const struct vrec *r, const char *name, long dflt);

/* ---- JSON (enough for the Wycheproof files) ------------------------------------------ */
enum json_type { JSON_NULL, JSON_BOOL, JSON_NUM, JSON_STR, JSON_ARR, JSON_OBJ };
struct json {
	enum json_type type;
	const char *key;          /* member name inside an object */
	const char *str;          /* JSON_STR: unescaped text; JSON_NUM, JSON_BOOL: the literal */
	struct json *child, *next;
	char lit[40];             /* storage for number and literal text */
};
/* Parses the file (relative to vectors_dir()); NULL on error (message printed).
 * *buf receives the text the tree points into; free both with json_free. */
struct json *json_load(const char *rel, char **buf);
void json_free(struct json *j, char *buf);
const struct json *json_get(const struct json *obj, const char *key);
const char *json_str(const struct json *obj, const char *key);   /* string or number text */
long json_long(const struct json *obj, const char *key, long dflt);
size_t json_len(const struct json *arr);

/* ---- small helpers -------------------------------------------------------------------- */
/* Whether s begins with prefix (algorithm names: "cbc(", "xts(", ...). */
int starts(const char *s, const char *prefix);
/* Whether all n bytes at p still hold fill (an output a refused call must not touch). */
int untouched(const uint8_t *p, size_t n, uint8_t fill);
/* Big-endian add of v to a 16-byte counter (carry through all 128 bits). */
void ctr_add(uint8_t ctr[16], uint64_t v);
/* The SM4 S-box computed from its algebraic form (GB/T 32907-2016 6.2); test_sm4_sbox pins it to the standard. */
uint8_t sm4_sbox_ref(uint8_t x);

#endif
