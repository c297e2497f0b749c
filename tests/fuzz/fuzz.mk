# Fuzzing: libFuzzer harnesses in tests/fuzz/, built with clang into build-fuzz/.
# `make fuzz FUZZ_SECONDS=N` runs every harness N seconds on a scratch copy of its corpus;
# `make fuzz-build` only builds them; tests/run.sh group `fuzz` replays the corpora and runs each briefly.
# Needs clang with libFuzzer (Debian: clang, libclang-rt-14-dev); fuzz_peers also libssl-dev and libgcrypt20-dev;
# fuzz_luks_header (and fuzz_cli's luks and plain) the disk-image part's libraries (libargon2-dev, libjson-c-dev, libssl-dev).

FUZZ_CC      ?= clang
FUZZ_BUILD   := build-fuzz
FUZZ_SECONDS ?= 60
# UBSan stops at its first report through __ubsan_default_options (ubsan_options.c), not
# -fno-sanitize-recover, with which clang 14 takes over half an hour on the x86 SIMD drivers.
FUZZ_SAN     := -fsanitize=address,undefined
FUZZ_CFLAGS  := -std=c11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Iinclude -Itools -pthread
FUZZ_COMMON  := tests/fuzz/fuzz_common.c tests/fuzz/ubsan_options.c tests/common.c
FUZZ_HDRS    := tests/fuzz/fuzz_common.h tests/common.h include/blockcrypt.h
# Which harnesses this machine can build (evaluated only by the fuzz targets).
FUZZ_HAVE_PEERS = $(shell pkg-config --exists libcrypto libgcrypt 2>/dev/null && echo yes)
# The disk-image part's libraries, as luks/luks.mk found them.
FUZZ_HAVE_LUKS := $(if $(LUKS_MISSING),,yes)
FUZZ_NAMES    = fuzz_drivers fuzz_cli fuzz_nbd $(if $(FUZZ_HAVE_PEERS),fuzz_peers) $(if $(FUZZ_HAVE_LUKS),fuzz_luks_header)
# fuzz_cli runs the luks and plain argument checks on the instrumented disk-image library where it is built
# (elsewhere cli_luks.c compiles to its "not built in" form).
FUZZ_TOOL_SRC := $(filter-out tools/blockcrypt.c,$(wildcard tools/*.c))
FUZZ_TOOL_OBJ := $(FUZZ_TOOL_SRC:%.c=$(FUZZ_BUILD)/%.o)
# ASan's stack instrumentation of the SIMD drivers' register arrays makes clang 14 spend half an hour on
# one file; those files keep heap and global checking (the caller's buffers), the rest keeps all of it.
FUZZ_ARCH_FLAGS := $(foreach f,$(basename $(notdir $(wildcard src/arch/*/*.c))),FILE_CFLAGS_$(f)="-mllvm -asan-stack=0")

# The library and the tool's objects with coverage and sanitizers, by the ordinary rules
# (in that sub-make BUILD is build-fuzz and the rules below stay out of its way).
ifneq ($(BUILD),$(FUZZ_BUILD))
$(FUZZ_BUILD)/libblockcrypt.a $(FUZZ_BUILD)/libblockcrypt-luks.a $(FUZZ_BUILD)/libblockcrypt-nbd.a $(FUZZ_TOOL_OBJ): FORCE
	@$(MAKE) --no-print-directory CC=$(FUZZ_CC) BUILD=$(FUZZ_BUILD) OPT="-O1 -g" $(FUZZ_ARCH_FLAGS) \
		SANITIZE="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" $@

$(FUZZ_BUILD)/fuzz_drivers: tests/fuzz/fuzz_drivers.c $(FUZZ_COMMON) $(FUZZ_HDRS) $(FUZZ_BUILD)/libblockcrypt.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $< $(FUZZ_COMMON) $(FUZZ_BUILD)/libblockcrypt.a

$(FUZZ_BUILD)/fuzz_peers: tests/fuzz/fuzz_peers.c $(FUZZ_COMMON) $(FUZZ_HDRS) $(FUZZ_BUILD)/libblockcrypt.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(shell pkg-config --cflags libcrypto libgcrypt 2>/dev/null) -fsanitize=fuzzer \
		$(FUZZ_SAN) -o $@ $< $(FUZZ_COMMON) $(FUZZ_BUILD)/libblockcrypt.a \
		$(shell pkg-config --libs libcrypto libgcrypt 2>/dev/null)

$(FUZZ_BUILD)/fuzz_cli: tests/fuzz/fuzz_cli.c tests/fuzz/ubsan_options.c $(FUZZ_TOOL_OBJ) \
		$(if $(FUZZ_HAVE_LUKS),$(FUZZ_BUILD)/libblockcrypt-nbd.a $(FUZZ_BUILD)/libblockcrypt-luks.a) $(FUZZ_BUILD)/libblockcrypt.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $< tests/fuzz/ubsan_options.c \
		$(FUZZ_TOOL_OBJ) $(if $(FUZZ_HAVE_LUKS),$(FUZZ_BUILD)/libblockcrypt-nbd.a $(FUZZ_BUILD)/libblockcrypt-luks.a) \
		$(FUZZ_BUILD)/libblockcrypt.a \
		$(if $(FUZZ_HAVE_LUKS),$(LUKS_LIBS)) -lm

# The disk-image library (luks/luks.mk's rule in the sub-make) is instrumented; json-c, libargon2 and libcrypto
# are the system's, as libcrypto and libgcrypt are for fuzz_peers.
$(FUZZ_BUILD)/fuzz_luks_header: tests/fuzz/fuzz_luks_header.c tests/fuzz/ubsan_options.c include/blockcrypt-luks.h \
		$(FUZZ_BUILD)/libblockcrypt-luks.a $(FUZZ_BUILD)/libblockcrypt.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(shell pkg-config --cflags $(LUKS_PKGS) 2>/dev/null) -fsanitize=fuzzer $(FUZZ_SAN) \
		-o $@ $< tests/fuzz/ubsan_options.c $(FUZZ_BUILD)/libblockcrypt-luks.a $(FUZZ_BUILD)/libblockcrypt.a \
		$(LUKS_LIBS)

# The NBD server's protocol code alone, against an export in memory (no disk-image library needed).
$(FUZZ_BUILD)/fuzz_nbd: tests/fuzz/fuzz_nbd.c nbd/nbd_server.c nbd/nbd.h tests/fuzz/ubsan_options.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Inbd -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $< nbd/nbd_server.c tests/fuzz/ubsan_options.c

fuzz-build:
	@$(MAKE) --no-print-directory $(FUZZ_BUILD)/libblockcrypt.a
	@$(MAKE) --no-print-directory $(FUZZ_NAMES:%=$(FUZZ_BUILD)/%)

# Each harness in turn, FUZZ_SECONDS each, on a scratch copy of its corpus (the repository's stays minimised).
fuzz: fuzz-build
	@for f in $(FUZZ_NAMES); do \
		rm -rf $(FUZZ_BUILD)/corpus/$$f && mkdir -p $(FUZZ_BUILD)/corpus/$$f && \
		cp tests/fuzz/corpus/$$f/* $(FUZZ_BUILD)/corpus/$$f/ 2>/dev/null; \
		echo "== $$f, $(FUZZ_SECONDS) s"; \
		$(FUZZ_BUILD)/$$f $$([ $$f = fuzz_cli ] && echo -close_fd_mask=2) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_BUILD)/$$f- $(FUZZ_BUILD)/corpus/$$f || exit 1; \
	done

FORCE:
.PHONY: fuzz fuzz-build FORCE
endif
