/* blockcrypt: known-answer self-tests run on each driver before its first use (as Linux crypto/testmgr.c).
 * Vectors come from the standards named in src/core/selftest_vectors.c. */
#ifndef BC_SELFTEST_H
#define BC_SELFTEST_H

#include "internal.h"

/* 0 if the driver gives every known answer for its algorithm name (full:
 * the long vectors too), else a negative errno. */
int bc_selftest_run(enum bc_type type, const void *alg, int full);
/* rfc3686, rfc4106, rfc4543, rfc4309, authenc and authencesn instances
 * against their definition over their parts (src/core/selftest_tmpl.c), on
 * ctx, the instance's initialised context: 0, -EBADMSG, or -ENOENT for any
 * other algorithm. For names with no published vector. */
int bc_selftest_definition(enum bc_type type, const void *alg, void *ctx);
/* A zeroed, aligned context of size bytes for a test (with a margin), or NULL. */
void *bc_selftest_ctx_new(size_t size);

#endif
