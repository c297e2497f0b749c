# blockcrypt x86: per-file compiler flags (FILE_CFLAGS_<file name without .c>), one section per issue.

# ---- x86 GCM (issue 5) ----
# gcc's pressure-aware first scheduling pass interleaves the GHASH multiplies
# with the AES rounds of gcm-aes-vaes-avx2 instead of parking every product
# on the stack: about 15 % faster there (and slower on the 128-bit legacy-SSE
# code, so only this file). clang schedules well without it and rejects it.
ifneq ($(shell $(CC) -fschedule-insns -fsched-pressure -E -x c /dev/null >/dev/null 2>&1 && echo y),)
FILE_CFLAGS_gcm_aes_vaes := -fschedule-insns -fsched-pressure
endif
