/* blockcrypt: the Camellia key schedule shared by the generic and x86 drivers (the subkeys in the order a pass uses them).
 * Specification: RFC 3713 (Camellia), section 2.2 and 2.4. */
#ifndef BC_CAMELLIA_H
#define BC_CAMELLIA_H

#include "drivers.h"

/* 16-byte keys: kw1 kw2, k1..k6, ke1 ke2, k7..k12, ke3 ke4, k13..k18, kw3 kw4
 * (26 subkeys); 24 and 32-byte keys add ke5 ke6, k19..k24 before kw3 kw4 (34).
 * Decryption is the same pass over the reversed schedule (kw3 kw4 first, then
 * everything between in reverse order, then kw1 kw2). Each subkey is the
 * 64-bit big-endian number of the RFC. */
#define BC_CAMELLIA_SUBKEYS 34

/* Checks keylen (16, 24 or 32: -EINVAL otherwise, sk untouched); returns
 * the number of subkeys (26 or 34). */
int bc_camellia_schedule(uint64_t sk[BC_CAMELLIA_SUBKEYS], const uint8_t *key, size_t keylen);
/* The decryption order of a schedule of n subkeys. */
void bc_camellia_reverse(uint64_t dk[BC_CAMELLIA_SUBKEYS], const uint64_t sk[BC_CAMELLIA_SUBKEYS], int n);

#endif /* BC_CAMELLIA_H */
