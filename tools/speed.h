/* blockcrypt tool: the measurement engine shared by `speed` and `benchmark`.
 * Method as the Linux tcrypt module's timed runs, plus warm-up, repeated batches and a measured core clock. */
#ifndef BC_SPEED_H
#define BC_SPEED_H

#include <stddef.h>
#include <time.h>

#include "blockcrypt.h"

enum speed_op { SPEED_ENCRYPT, SPEED_DECRYPT, SPEED_DIGEST };

/* A figure is the best of many short timed batches: short enough that on a busy machine many
 * of them run between two interruptions, and the thread's CPU time tells which did. */
#define SPEED_BATCH_S 0.002      /* longest batch, in seconds (a tenth of the figure's time if that is less) */
#define SPEED_MIN_BATCHES 9      /* at least this many batches per figure */
#define SPEED_MIN_CPU_SHARE 0.95 /* a batch whose thread ran less than this share of the wall time is discarded */

/* What one figure measures. */
struct speed_job {
	const char *name;        /* algorithm or driver name */
	enum bc_type type;       /* BC_TYPE_SKCIPHER, _AEAD or _SHASH */
	size_t keylen;           /* bytes; 0 for an unkeyed hash */
	size_t size;             /* bytes per operation */
	enum speed_op op;
	double seconds;          /* the time the figure stands for: about as long is spent in timed batches */
	unsigned threads;
};

struct speed_result {
	double ops_per_s, bytes_per_s;  /* all threads together */
	double cycles_per_byte;         /* per thread: core cycles spent per byte processed */
	size_t size;                    /* bytes per operation actually used (rounded up to the block size if needed) */
	unsigned kept;                  /* batches that kept their CPU (0: every batch was disturbed; the best is still shown) */
};

#define SPEED_MAX_KEYS 7
#define SPEED_KEY_MAX 1152   /* the longest key a job makes: nhpoly1305's 1088 bytes, authenc's blob */

/* An algorithm or driver name as allocation resolves it. */
struct speed_alg {
	enum bc_type type;
	char driver[128];
	size_t keylen[SPEED_MAX_KEYS];   /* the usual key lengths (8, 16, 24, 32, 48, 64, 1088) its setkey accepts */
	unsigned nkeys;                  /* 0: an unkeyed hash */
};

/* The `speed` command's arguments, parsed and checked apart from its timed runs. */
#define SPEED_MAX_SIZES 64
#define SPEED_MAX_SIZE (64u << 20)
#define SPEED_MAX_THREADS 256

enum speed_format { FMT_TCRYPT, FMT_CSV, FMT_JSON };

struct speed_opts {
	size_t sizes[SPEED_MAX_SIZES];
	unsigned nsizes, threads, keybits;
	double seconds;
	int decrypt;
	enum speed_format fmt;
	char **names;
	unsigned nnames;
	unsigned emitted;        /* JSON objects written so far */
};

/* Parses the options and checks every NAME against the registry (known, and takes --key-bits); o must be
 * zeroed. 0, or the exit status after the message. Nothing is measured. */
int speed_parse_args(int argc, char **argv, struct speed_opts *o);
/* The `benchmark` command's arguments: [--time S] [--iter-time MS]. 0 with the seconds per figure and the
 * Argon2 rows' time, or the exit status. */
int benchmark_parse_args(int argc, char **argv, double *seconds, unsigned *argon2_ms);

/* 0, -ENOENT for an unknown name (or one that is only a block cipher), or another negative errno. */
int speed_lookup(const char *name, struct speed_alg *alg);
/* 0, -EINVAL when the size or key length does not suit the algorithm, or another negative errno. */
int speed_measure(const struct speed_job *job, struct speed_result *res);
/* clock_gettime as seconds: CLOCK_MONOTONIC for wall time, CLOCK_THREAD_CPUTIME_ID for the thread's CPU time. */
double speed_seconds(clockid_t clock);
/* The batch length used for a figure of that many seconds. */
double speed_batch_seconds(double seconds);
/* The core clock now, in Hz: the best of a few timed chains of dependent additions. */
double speed_core_hz(void);
/* How the core clock is measured, for the header line. */
extern const char speed_clock_method[];

/* The templates over whole algorithms (tools/speed_tmpl.c): the key setkey takes for a
 * keylen-byte cipher key (filled by fill; 0 if longer than max), and an AEAD request's
 * IV length and associated data length. */
size_t speed_job_key(const char *name, size_t keylen, uint8_t *key, size_t max, void (*fill)(uint8_t *, size_t));
void speed_aead_shape(const char *name, size_t *ivlen, size_t *adlen);

#endif
