# blockcrypt-luks (luks/, include/blockcrypt-luks.h): LUKS1/LUKS2/plain dm-crypt images, as
# libblockcrypt-luks.a/.so and the tool's `luks` and `plain` subcommands. Built for the host only, and only
# when pkg-config finds libargon2, json-c and libcrypto; otherwise the tool says the subcommands are not built in.
# (the rules below come before the top Makefile's `all`, so name the default goal)
.DEFAULT_GOAL := all
LUKS_PKGS := libargon2 json-c libcrypto
ifeq ($(CROSS)$(M32),)
LUKS_MISSING := $(shell for p in $(LUKS_PKGS); do pkg-config --exists $$p 2>/dev/null || echo $$p; done)
else
LUKS_MISSING := native-build-only
endif

LUKS_SONAME := libblockcrypt-luks.so.$(VERSION_MAJOR)

# whether or not this build has the part (pkg-config may not see the libraries when uninstalling)
uninstall: uninstall-luks
uninstall-luks:
	rm -f $(DESTDIR)$(LIBDIR)/libblockcrypt-luks.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(LUKS_SONAME) \
		$(DESTDIR)$(LIBDIR)/libblockcrypt-luks.so $(DESTDIR)$(LIBDIR)/libblockcrypt-luks.a \
		$(DESTDIR)$(INCLUDEDIR)/blockcrypt-luks.h
.PHONY: uninstall-luks

ifeq ($(LUKS_MISSING),)
LUKS_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard luks/*.c))
LUKS_LIBS := $(shell pkg-config --libs $(LUKS_PKGS))

$(LUKS_OBJ): CFLAGS_BASE += $(shell pkg-config --cflags $(LUKS_PKGS))

$(BUILD)/libblockcrypt-luks.a: $(LUKS_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# Versioned like libblockcrypt (hidden visibility: only the BC_API functions of blockcrypt-luks.h are exported).
$(BUILD)/libblockcrypt-luks.so.$(VERSION): $(LUKS_OBJ) $(BUILD)/libblockcrypt.so
	$(CC) $(SANITIZE) -shared -Wl,-soname,$(LUKS_SONAME) -o $@ $(LUKS_OBJ) -L$(BUILD) -lblockcrypt $(LUKS_LIBS) $(LDLIBS)

$(BUILD)/libblockcrypt-luks.so: $(BUILD)/libblockcrypt-luks.so.$(VERSION)
	ln -sf libblockcrypt-luks.so.$(VERSION) $(BUILD)/$(LUKS_SONAME)
	ln -sf $(LUKS_SONAME) $@

install: install-luks
install-luks: all
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)
	install -m 644 $(BUILD)/libblockcrypt-luks.so.$(VERSION) $(BUILD)/libblockcrypt-luks.a $(DESTDIR)$(LIBDIR)/
	ln -sf libblockcrypt-luks.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(LUKS_SONAME)
	ln -sf $(LUKS_SONAME) $(DESTDIR)$(LIBDIR)/libblockcrypt-luks.so
	install -m 644 include/blockcrypt-luks.h $(DESTDIR)$(INCLUDEDIR)/

.PHONY: install-luks

all: $(BUILD)/libblockcrypt-luks.a $(BUILD)/libblockcrypt-luks.so
tests: $(BUILD)/tests/luks_api $(BUILD)/tests/luks_killat.so

$(BUILD)/tests/luks_api: tests/luks_api.c include/blockcrypt-luks.h $(BUILD)/libblockcrypt-luks.a $(BUILD)/libblockcrypt.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -o $@ $< $(BUILD)/libblockcrypt-luks.a $(BUILD)/libblockcrypt.a $(LUKS_LIBS) $(LDLIBS)
$(BUILD)/tests/luks_killat.so: tests/luks_killat.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -shared -fPIC -o $@ $< -ldl
include nbd/nbd.mk
FILE_CFLAGS_cli_luks := -DBC_HAVE_LUKS -Inbd
TOOL_LIBS += $(BUILD)/libblockcrypt-nbd.a $(BUILD)/libblockcrypt-luks.a
TOOL_LDLIBS += $(LUKS_LIBS)
else
FILE_CFLAGS_cli_luks := -DBC_LUKS_MISSING='"$(strip $(LUKS_MISSING))"'
endif

# Benchmarks (not part of `make check`): unlock time against --iter-time, 4 KiB read latency, and a 1 GiB
# image encrypted and decrypted beside cp and cryptsetup's offline reencryption on tmpfs and on disk (BENCH_DIRS, BENCH_ROUNDS).
ifeq ($(LUKS_MISSING),)
$(BUILD)/bench-luks: bench/luks.c $(BUILD)/libblockcrypt-luks.a $(BUILD)/libblockcrypt.a
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -o $@ bench/luks.c $(BUILD)/libblockcrypt-luks.a $(BUILD)/libblockcrypt.a $(LUKS_LIBS) $(LDLIBS)

bench-luks: $(BUILD)/bench-luks $(BUILD)/blockcrypt
	$(BUILD)/bench-luks $(BUILD)
	BC=$(BUILD)/blockcrypt sh bench/luks_bulk.sh
else
bench-luks:
	@echo "bench-luks: the luks part is not built (missing: $(LUKS_MISSING))"
endif
.PHONY: bench-luks
