# blockcrypt build. `make` builds the library and the tool; `make check` runs the
# whole test suite; `make benchmark` self-tests and prints the cryptsetup-style table.
# Cross builds: `make CROSS=aarch64-linux-gnu-` (into build-aarch64/), `make M32=1`
# (32-bit x86, into build-i386/), `make CROSS=s390x-linux-gnu-` (build-s390x/).

CROSS   ?=
ifneq ($(CROSS),)
CC      := $(CROSS)gcc
AR      := $(CROSS)ar
endif
CC      ?= gcc
AR      ?= ar
OPT     ?= -O2
ARCHFLAGS :=
ifeq ($(M32),1)
ARCHFLAGS += -m32 -isystem compat/i386
endif
SANITIZE ?=

# Which arch/ directory applies: decided from the compiler's own predefined macros.
ARCH := $(shell echo | $(CC) $(ARCHFLAGS) -dM -E - 2>/dev/null | \
	awk '/define __x86_64__ |define __i386__ /{a="x86"} /define __aarch64__ /{a="arm64"} END{print a}')
TRIPLE := $(shell echo | $(CC) $(ARCHFLAGS) -dM -E - 2>/dev/null | \
	awk '/define __x86_64__ /{a="x86_64"} /define __i386__ /{a="i386"} /define __aarch64__ /{a="aarch64"} /define __s390x__ /{a="s390x"} END{print a}')
ifeq ($(M32),1)
BUILD   ?= build-i386
else ifneq ($(CROSS),)
BUILD   ?= build-$(TRIPLE)
else
BUILD   ?= build
endif

CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes -fPIC -pthread \
	-Iinclude -Isrc/core $(ARCHFLAGS) $(OPT) $(SANITIZE)
CFLAGS  ?=
LDLIBS  := -pthread

LIB_SRC := $(wildcard src/core/*.c src/cipher/*.c src/mode/*.c src/hash/*.c)
ifneq ($(ARCH),)
LIB_SRC += $(wildcard src/arch/$(ARCH)/*.c)
-include src/arch/$(ARCH)/flags.mk
endif
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
TOOL_SRC := $(wildcard tools/*.c)
TOOL_OBJ := $(TOOL_SRC:%.c=$(BUILD)/%.o)
TEST_COMMON := $(filter tests/common%.c,$(wildcard tests/*.c))
TEST_SRC := $(filter-out $(TEST_COMMON),$(wildcard tests/test_*.c))
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_COMMON_OBJ := $(TEST_COMMON:%.c=$(BUILD)/%.o)

all: $(BUILD)/libblockcrypt.a $(BUILD)/libblockcrypt.so $(BUILD)/blockcrypt

tests: all $(TEST_BIN)

$(BUILD)/%.o: %.c $(wildcard include/*.h src/*/*.h src/arch/*/*.h) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(FILE_CFLAGS_$(notdir $*)) $(CFLAGS) -MMD -MP -c $< -o $@

# The self-test vectors are assembled into the library with .incbin.
$(BUILD)/src/core/selftest.o: src/core/selftest_vectors.txt

$(BUILD)/libblockcrypt.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/libblockcrypt.so: $(LIB_OBJ)
	$(CC) $(ARCHFLAGS) $(SANITIZE) -shared -o $@ $^ $(LDLIBS)

$(BUILD)/blockcrypt: $(TOOL_OBJ) $(BUILD)/libblockcrypt.a
	$(CC) $(ARCHFLAGS) $(SANITIZE) -o $@ $(TOOL_OBJ) $(BUILD)/libblockcrypt.a $(LDLIBS) -lm

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(TEST_COMMON_OBJ) $(BUILD)/libblockcrypt.a
	$(CC) $(ARCHFLAGS) $(SANITIZE) -o $@ $< $(TEST_COMMON_OBJ) $(BUILD)/libblockcrypt.a $(LDLIBS) -lm

check: tests
	@sh tests/run.sh

benchmark: all
	$(BUILD)/blockcrypt selftest
	$(BUILD)/blockcrypt benchmark

clean:
	rm -rf build build-*

.PHONY: all tests check benchmark clean
# Keep the test objects between runs instead of relinking every time.
.SECONDARY:
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# Issue 3: blockcrypt side by side with OpenSSL, libgcrypt and nettle (not part of `make check`).
$(BUILD)/bench-peers: bench/peers.c bench/bench_iv.h $(BUILD)/libblockcrypt.a
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -o $@ bench/peers.c $(BUILD)/libblockcrypt.a -lcrypto -lgcrypt -lnettle $(LDLIBS) -lm

bench-peers: $(BUILD)/bench-peers
	$(BUILD)/bench-peers --svg $(BUILD)/bench-peers.svg
	@echo "chart: $(BUILD)/bench-peers.svg"

# The least a 16-byte xts(aes) operation can take in bench-peers' loop, beside blockcrypt (x86-64 only).
$(BUILD)/bench-floor: bench/floor.c bench/bench_iv.h src/arch/x86/aes_x86.h tools/speed_clock.c $(BUILD)/libblockcrypt.a
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -Itools -Isrc/arch/x86 -o $@ bench/floor.c tools/speed_clock.c $(BUILD)/libblockcrypt.a $(LDLIBS)

bench-floor: $(BUILD)/bench-floor
	$(BUILD)/bench-floor

.PHONY: bench-peers bench-floor

# Issue 15: fuzzing (`make fuzz`), timing (`make check-ct`), allocation failure and wiping (group oom).
include tests/fuzz/fuzz.mk
include tests/ct/ct.mk
include tests/robust/robust.mk
