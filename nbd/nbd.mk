# The NBD server (nbd/): built with the disk-image part (luks/luks.mk includes this), linked into the tool for
# `blockcrypt luks serve` and `blockcrypt plain serve`; uses libblockcrypt-luks through its public header only.
NBD_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard nbd/*.c))
$(NBD_OBJ): CFLAGS_BASE += -Inbd
$(NBD_OBJ): nbd/nbd.h

$(BUILD)/libblockcrypt-nbd.a: $(NBD_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^
