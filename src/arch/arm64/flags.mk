# blockcrypt arm64: per-file compiler flags for the drivers that need the Crypto Extensions.
# Each file's first comment names the CPU features it needs; the runtime check is the driver's .cpu field.
FILE_CFLAGS_aes_ce := -march=armv8-a+crypto
FILE_CFLAGS_aes_modes_ce := -march=armv8-a+crypto
FILE_CFLAGS_sm4_ce := -march=armv8.2-a+crypto+sm4
FILE_CFLAGS_sm4_modes_ce := -march=armv8.2-a+crypto+sm4
FILE_CFLAGS_mac_ce := -march=armv8.2-a+crypto+sm4
FILE_CFLAGS_ghash_ce := -march=armv8-a+crypto
FILE_CFLAGS_gcm_aes_ce := -march=armv8-a+crypto
FILE_CFLAGS_gcm_sm4_ce := -march=armv8.2-a+crypto+sm4
FILE_CFLAGS_sha256_ce := -march=armv8-a+crypto
FILE_CFLAGS_sm3_ce := -march=armv8.2-a+crypto+sm4
FILE_CFLAGS_sha1_ce := -march=armv8-a+crypto
FILE_CFLAGS_sha512_ce := -march=armv8.2-a+crypto+sha3
FILE_CFLAGS_ccm_aes_ce := -march=armv8-a+crypto
FILE_CFLAGS_xctr_aes_ce := -march=armv8-a+crypto
FILE_CFLAGS_polyval_ce := -march=armv8-a+crypto
