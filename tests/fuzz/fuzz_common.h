/* Fuzz harness support: a reader that turns libFuzzer's bytes into choices, and the table of
 * every algorithm name with every driver of it the registry builds (Linux testmgr's fuzz set). */
#ifndef BC_FUZZ_COMMON_H
#define BC_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "blockcrypt.h"

/* Input bytes consumed in order; past the end every read gives bytes of a
 * PRNG seeded from the whole input, so any input decodes and stays reproducible. */
struct fz {
	const uint8_t *p;
	size_t n, pos;
	uint64_t rng;
};
void fz_init(struct fz *f, const uint8_t *data, size_t size);
uint8_t fz_u8(struct fz *f);
uint16_t fz_u16(struct fz *f);
void fz_bytes(struct fz *f, uint8_t *out, size_t n);

/* Every algorithm name the library answers to, the generic driver of it, and
 * every driver of it this CPU runs: the dedicated ones bc_list_drivers shows
 * and the template instances over each usable inner driver (cts over every
 * cbc driver, xts over every ecb driver, cmac over every cipher, gcm_base over
 * every ctr x ghash pair, ...), so each driver is also tested inside templates. */
#define FZ_MAX_CAND 48
struct fz_alg {
	const char *name;
	enum bc_type type;
	unsigned keysizes[4];          /* zero-terminated; {0} for unkeyed hashes */
	char generic[96];
	size_t ncand;
	char cand[FZ_MAX_CAND][96];
};
extern struct fz_alg fz_algs[];
extern const size_t fz_nalgs;
/* Builds the table once (the first call of a harness). */
void fz_setup(void);

/* A buffer of exactly len bytes at the given misalignment (0..63) from a
 * 64-byte boundary, so ASan sees any byte read or written past either end. */
struct fz_buf {
	uint8_t *base, *p;
};
uint8_t *fz_buf_new(struct fz_buf *b, size_t len, unsigned misalign);
void fz_buf_free(struct fz_buf *b);

/* Reports a mismatch with the input's context and aborts (libFuzzer keeps the input). */
void fz_fail(const char *what, const char *alg, const char *driver, size_t len) __attribute__((noreturn));

#endif
