/* blockcrypt: known-answer self-tests run on each driver before its first use (as Linux crypto/testmgr.c).
 * Vectors come from the standards named in src/core/selftest_vectors.c. */
#ifndef BC_SELFTEST_H
#define BC_SELFTEST_H

#include "internal.h"

/* 0 if the driver gives every known answer for its algorithm name (full:
 * the long vectors too), else a negative errno. */
int bc_selftest_run(enum bc_type type, const void *alg, int full);

#endif
