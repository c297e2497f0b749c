# Failure and wiping tests (tests/robust/): the library's allocator calls interposed with ld --wrap.
# tests/run.sh group `oom` builds $(BUILD)/tests/oom and runs it; LeakSanitizer (-fsanitize=leak) when available.
OOM_WRAP := $(foreach f,malloc calloc realloc aligned_alloc posix_memalign free,-Wl,--wrap=$(f))
OOM_LSAN = $(shell echo 'int main(void){return 0;}' | $(CC) $(ARCHFLAGS) -fsanitize=leak -x c - -o /dev/null \
	2>/dev/null && echo -fsanitize=leak)

$(BUILD)/tests/oom: tests/robust/oom.c $(TEST_COMMON_OBJ) $(BUILD)/libblockcrypt.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(OOM_LSAN) -o $@ $< $(TEST_COMMON_OBJ) $(BUILD)/libblockcrypt.a $(OOM_WRAP) \
		$(LDLIBS) -lm
