# blockcrypt-afalg (afalg/, afalg/afalg.h): libblockcrypt-afalg.so, preloaded (LD_PRELOAD, `blockcrypt run`) so
# programs written for the kernel's AF_ALG sockets or for libkcapi run where the kernel refuses socket(AF_ALG).
# Built natively for Linux hosts; the library goes inside it (its symbols kept local), so the module needs only libc.
AFALG_SRC := $(wildcard afalg/*.c)
AFALG_OBJ := $(AFALG_SRC:%.c=$(BUILD)/%.o)
AFALG_SO  := $(BUILD)/libblockcrypt-afalg.so
AFALG_TESTS := $(BUILD)/afalg/afalg_raw $(BUILD)/afalg/afalg_kcapi
AFALG_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes -fPIC -fvisibility=hidden -pthread -g \
	-Iinclude $(OPT) $(SANITIZE) $(CFLAGS)

ifeq ($(CROSS)$(M32),)
all: $(AFALG_SO)
tests: $(filter-out $(if $(wildcard /usr/include/kcapi.h),,%/afalg_kcapi),$(AFALG_TESTS))

# Only the library's public header: the emulation is a client of the library like any other.
$(AFALG_OBJ): $(BUILD)/afalg/%.o: afalg/%.c afalg/afalg.h include/blockcrypt.h afalg/afalg.mk
	@mkdir -p $(dir $@)
	$(CC) $(AFALG_CFLAGS) -MMD -MP -c $< -o $@

$(AFALG_SO): $(AFALG_OBJ) $(BUILD)/libblockcrypt.a
	$(CC) $(SANITIZE) -shared -o $@ $(AFALG_OBJ) $(BUILD)/libblockcrypt.a -Wl,--exclude-libs,ALL -Wl,-z,defs -ldl $(LDLIBS)

# The tests talk to the sockets as any program does; they check against the library called directly.
# (with _FORTIFY_SOURCE, as distributions build programs: its reads go through __read_chk)
$(BUILD)/afalg/afalg_raw: tests/afalg_raw.c tests/afalg_op.h $(TEST_COMMON_OBJ) $(BUILD)/libblockcrypt.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -D_FORTIFY_SOURCE=2 $(CFLAGS) -o $@ $< $(TEST_COMMON_OBJ) $(BUILD)/libblockcrypt.a $(LDLIBS) -lm

$(BUILD)/afalg/afalg_kcapi: tests/afalg_kcapi.c $(TEST_COMMON_OBJ) $(BUILD)/libblockcrypt.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -o $@ $< $(TEST_COMMON_OBJ) $(BUILD)/libblockcrypt.a -lkcapi $(LDLIBS) -lm

install: install-afalg
install-afalg: $(AFALG_SO)
	install -d $(DESTDIR)$(LIBDIR)/blockcrypt
	install -m 644 $(AFALG_SO) $(DESTDIR)$(LIBDIR)/blockcrypt/
endif

uninstall: uninstall-afalg
uninstall-afalg:
	rm -f $(DESTDIR)$(LIBDIR)/blockcrypt/libblockcrypt-afalg.so
	-rmdir $(DESTDIR)$(LIBDIR)/blockcrypt 2>/dev/null

# The emulated socket beside the library called directly (not part of `make check`).
$(BUILD)/bench-afalg: bench/afalg.c tests/afalg_op.h $(BUILD)/libblockcrypt.a $(AFALG_SO)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -Itools -Itests -o $@ bench/afalg.c tools/speed_clock.c $(BUILD)/libblockcrypt.a $(LDLIBS)

bench-afalg: $(BUILD)/bench-afalg
	LD_PRELOAD=$(abspath $(AFALG_SO)) BLOCKCRYPT_AFALG=always $(BUILD)/bench-afalg

.PHONY: install-afalg uninstall-afalg bench-afalg

# `blockcrypt run` looks for the library where install-afalg puts it.
FILE_CFLAGS_cli_run := -DBC_AFALG_LIBDIR='"$(LIBDIR)/blockcrypt"'
