# blockcrypt OpenSSL 3 provider: build/provider/blockcrypt.so, its tests and its install targets.
# Built only natively and only when OpenSSL 3's provider headers are there (Debian: libssl-dev).

PROV_CRYPTO_CFLAGS := $(shell pkg-config --cflags libcrypto 2>/dev/null)
PROV_CRYPTO_LIBS   := $(shell pkg-config --libs libcrypto 2>/dev/null || echo -lcrypto)
# A compile probe rather than pkg-config alone: the header decides, and it must be OpenSSL 3.
PROV_OK := $(if $(CROSS)$(filter 1,$(M32)),,$(shell printf '#include <openssl/core_dispatch.h>\n#include <openssl/opensslv.h>\n#if OPENSSL_VERSION_MAJOR < 3\n#error\n#endif\n' | \
	$(CC) $(PROV_CRYPTO_CFLAGS) -E - >/dev/null 2>&1 && echo yes))
PROV_MODULESDIR ?= $(shell pkg-config --variable=modulesdir libcrypto 2>/dev/null)
PROV_DIR := $(BUILD)/provider
PROV_SO  := $(PROV_DIR)/blockcrypt.so
PROV_SRC := $(wildcard provider/*.c)
PROV_OBJ := $(PROV_SRC:%.c=$(BUILD)/%.o)
PROV_TESTS := $(PROV_DIR)/provider_evp $(PROV_DIR)/provider_stream

ifeq ($(PROV_OK),yes)
all: $(PROV_SO)
tests: $(PROV_TESTS)

# Only the library's public header: the provider is a client of the library like any other.
$(PROV_OBJ): $(BUILD)/provider/%.o: provider/%.c $(wildcard provider/*.h) include/blockcrypt.h provider/provider.mk
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes -fPIC -fvisibility=hidden -pthread \
		-Iinclude $(PROV_CRYPTO_CFLAGS) $(OPT) $(SANITIZE) $(CFLAGS) \
		-MMD -MP -c $< -o $@

# The static library goes inside the module, which then needs nothing but libcrypto at run time; its
# symbols stay local (--exclude-libs), so a process that also links libblockcrypt.so sees no clash.
$(PROV_SO): $(PROV_OBJ) $(BUILD)/libblockcrypt.a
	$(CC) $(SANITIZE) -shared -o $@ $(PROV_OBJ) $(BUILD)/libblockcrypt.a -Wl,--exclude-libs,ALL -Wl,-z,defs \
		$(PROV_CRYPTO_LIBS) $(LDLIBS)

$(PROV_DIR)/provider_%: tests/provider_%.c $(TEST_COMMON_OBJ) $(BUILD)/libblockcrypt.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(PROV_CRYPTO_CFLAGS) $(CFLAGS) -o $@ $< $(TEST_COMMON_OBJ) $(BUILD)/libblockcrypt.a \
		$(PROV_CRYPTO_LIBS) $(LDLIBS) -lm

provider-install: $(PROV_SO)
	@test -n "$(PROV_MODULESDIR)" || { echo "provider-install: OpenSSL's modules directory is unknown (pkg-config libcrypto)"; exit 1; }
	install -d "$(DESTDIR)$(PROV_MODULESDIR)"
	install -m 0644 $(PROV_SO) "$(DESTDIR)$(PROV_MODULESDIR)/blockcrypt.so"

provider-uninstall:
	rm -f "$(DESTDIR)$(PROV_MODULESDIR)/blockcrypt.so"
else
provider-install provider-uninstall:
	@echo "$@: skipped: no OpenSSL 3 development headers (libssl-dev)"
endif

# `make install` and `make uninstall` take the module along.
install: provider-install
uninstall: provider-uninstall

.PHONY: provider-install provider-uninstall
