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

# Hidden visibility: the shared library exports what include/blockcrypt.h marks BC_API and
# nothing else. -g: the debug information abidw reads to record and compare the ABI.
CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes -fPIC -pthread \
	-fvisibility=hidden -g -Iinclude -Isrc/core $(ARCHFLAGS) $(OPT) $(SANITIZE)
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

# The one version number lives in include/blockcrypt.h.
version_field = $(shell sed -n 's/^\#define BLOCKCRYPT_VERSION_$(1) \([0-9]*\)$$/\1/p' include/blockcrypt.h)
VERSION_MAJOR := $(call version_field,MAJOR)
VERSION := $(VERSION_MAJOR).$(call version_field,MINOR).$(call version_field,PATCH)
SONAME := libblockcrypt.so.$(VERSION_MAJOR)
# The public functions: every BC_API declaration of the library's headers (man page links, symbol check).
API_HEADERS := include/blockcrypt.h include/blockcrypt-fscrypt.h
LPAREN := (
API_FUNCS := $(shell sed -n 's/^BC_API [a-z_ ]*[ *]\(bc_[a-z0-9_]*\)[$(LPAREN)].*/\1/p' $(API_HEADERS))
TOOL_LIBS :=
TOOL_LDLIBS :=
include luks/luks.mk

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

# libblockcrypt.so.MAJOR.MINOR.PATCH with its SONAME, the links beside it, and symbol
# versions from src/libblockcrypt.map.
$(BUILD)/libblockcrypt.so.$(VERSION): $(LIB_OBJ) src/libblockcrypt.map
	$(CC) $(ARCHFLAGS) $(SANITIZE) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=src/libblockcrypt.map \
		-o $@ $(LIB_OBJ) $(LDLIBS)

$(BUILD)/$(SONAME): $(BUILD)/libblockcrypt.so.$(VERSION)
	ln -sf libblockcrypt.so.$(VERSION) $@

$(BUILD)/libblockcrypt.so: $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $@

$(BUILD)/blockcrypt: $(TOOL_OBJ) $(TOOL_LIBS) $(BUILD)/libblockcrypt.a
	$(CC) $(ARCHFLAGS) $(SANITIZE) -o $@ $(TOOL_OBJ) $(TOOL_LIBS) $(BUILD)/libblockcrypt.a $(LDLIBS) $(TOOL_LDLIBS) -lm

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(TEST_COMMON_OBJ) $(BUILD)/libblockcrypt.a
	$(CC) $(ARCHFLAGS) $(SANITIZE) -o $@ $< $(TEST_COMMON_OBJ) $(BUILD)/libblockcrypt.a $(LDLIBS) -lm

check: tests
	@sh tests/run.sh

benchmark: all
	$(BUILD)/blockcrypt selftest
	$(BUILD)/blockcrypt benchmark

clean:
	rm -rf build build-*

# ---- installation (GNU directory variables; DESTDIR for staging) -------------------------------
PREFIX     ?= /usr/local
# Debian and Ubuntu keep libraries in a multiarch directory (lib/x86_64-linux-gnu).
MULTIARCH  := $(shell $(CC) $(ARCHFLAGS) -print-multiarch 2>/dev/null)
LIBDIR     ?= $(if $(and $(MULTIARCH),$(wildcard /usr/lib/$(MULTIARCH))),$(PREFIX)/lib/$(MULTIARCH),$(PREFIX)/lib)
INCLUDEDIR ?= $(PREFIX)/include
BINDIR     ?= $(PREFIX)/bin
MANDIR     ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
MAN1 := $(wildcard man/*.1)
MAN3 := $(wildcard man/*.3)

install: all
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	install -m 644 $(BUILD)/libblockcrypt.so.$(VERSION) $(BUILD)/libblockcrypt.a $(DESTDIR)$(LIBDIR)/
	ln -sf libblockcrypt.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libblockcrypt.so
	sed -e 's|@VERSION@|$(VERSION)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		blockcrypt.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/blockcrypt.pc
	install -m 644 $(API_HEADERS) $(DESTDIR)$(INCLUDEDIR)/
	install -m 755 $(BUILD)/blockcrypt $(DESTDIR)$(BINDIR)/
	$(if $(MAN1),install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/)
	$(if $(MAN3),install -m 644 $(MAN3) $(DESTDIR)$(MANDIR)/man3/)
	for f in $(API_FUNCS); do echo '.so man3/blockcrypt.3' > $(DESTDIR)$(MANDIR)/man3/$$f.3; done

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libblockcrypt.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME) \
		$(DESTDIR)$(LIBDIR)/libblockcrypt.so $(DESTDIR)$(LIBDIR)/libblockcrypt.a \
		$(DESTDIR)$(PKGCONFIGDIR)/blockcrypt.pc $(addprefix $(DESTDIR)$(INCLUDEDIR)/,$(notdir $(API_HEADERS))) \
		$(DESTDIR)$(BINDIR)/blockcrypt \
		$(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man3/,$(notdir $(MAN3)) $(API_FUNCS:=.3))

# The ABI of the built library as abidw (abigail-tools) records it; `make abi-baseline` keeps it
# as the reference tests/test_abi.sh compares every later build of this major version with.
ABIDW := abidw --no-corpus-path --no-comp-dir-path --no-show-locs --headers-dir include --drop-private-types
ABI_BASELINE := tests/abi/$(SONAME).abi

$(BUILD)/libblockcrypt.abi: $(BUILD)/libblockcrypt.so.$(VERSION)
	$(ABIDW) --out-file $@ $<

abi-baseline: $(BUILD)/libblockcrypt.abi
	cp $< $(ABI_BASELINE)

# For tests/test_abi.sh: the version and the public functions, as the build sees them.
api-info:
	@echo "version $(VERSION) soname $(SONAME) baseline $(ABI_BASELINE)"
	@echo $(API_FUNCS)

.PHONY: all tests check benchmark clean install uninstall api-info abi-baseline
# Keep the test objects between runs instead of relinking every time.
.SECONDARY:
include provider/provider.mk
include afalg/afalg.mk
# (the provider tests' Debian 13 chroot lives under $(BUILD)/debian13: its directories named *.d are not ours)
-include $(shell find $(BUILD) -path $(BUILD)/debian13 -prune -o -name '*.d' -type f -print 2>/dev/null)

# blockcrypt side by side with OpenSSL, libgcrypt and nettle (not part of `make check`).
$(BUILD)/bench-peers: bench/peers.c bench/bench_iv.h $(BUILD)/libblockcrypt.a
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -o $@ bench/peers.c $(BUILD)/libblockcrypt.a -lcrypto -lgcrypt -lnettle $(LDLIBS) -lm

bench-peers: $(BUILD)/bench-peers
	$(BUILD)/bench-peers --svg $(BUILD)/bench-peers.svg
	@echo "chart: $(BUILD)/bench-peers.svg"

# The least a 16-byte xts(aes) operation can take in bench-peers' loop, beside blockcrypt (x86-64 only);
# and blockcrypt beside nettle in dm-crypt's plain64 IV loop.
$(BUILD)/bench-floor: bench/floor.c bench/bench_iv.h src/arch/x86/aes_x86.h tools/speed_clock.c $(BUILD)/libblockcrypt.a
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -Itools -Isrc/arch/x86 -o $@ bench/floor.c tools/speed_clock.c $(BUILD)/libblockcrypt.a -lnettle $(LDLIBS)

bench-floor: $(BUILD)/bench-floor
	$(BUILD)/bench-floor

.PHONY: bench-peers bench-floor

# Fuzzing (`make fuzz`), timing (`make check-ct`), allocation failure and wiping (group oom).
include tests/fuzz/fuzz.mk
include tests/ct/ct.mk
include tests/robust/robust.mk
