# Statistical constant-time test (tests/ct/ct_timing.c): x86-64 only, where every driver is timed.
# `make check-ct CT_SAMPLES=N` runs it with N measurements per path (default one million; about CT_SAMPLES/50000
# minutes on an idle core); tests/run.sh group `ct` runs the short form (15000 per path, the first key size).
ifeq ($(TRIPLE),x86_64)
CT_SAMPLES ?= 1000000

$(BUILD)/tests/ct_timing: tests/ct/ct_timing.c $(TEST_COMMON_OBJ) $(BUILD)/libblockcrypt.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -o $@ $< $(TEST_COMMON_OBJ) $(BUILD)/libblockcrypt.a $(LDLIBS) -lm

tests: $(BUILD)/tests/ct_timing

check-ct: $(BUILD)/tests/ct_timing
	$(BUILD)/tests/ct_timing $(CT_SAMPLES)

.PHONY: check-ct
endif
