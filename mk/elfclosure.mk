# build/elfclosure (lab/elfclosure/): the shared libraries ELF files need
# inside a sysroot of any architecture, read from the files themselves
# (scripts/pg-root-lib.sh and scripts/initramfs.sh run it), and the unit
# test of its reader and walk.
ELFCLOSURE_OBJS = $(patsubst %.c,$(B)/%.o,$(filter-out lab/elfclosure/main.c,$(wildcard lab/elfclosure/*.c))) \
	$(B)/lab/common/arch.o

$(B)/elfclosure: $(B)/lab/elfclosure/main.o $(ELFCLOSURE_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^

$(B)/tests/test_elfclosure: $(B)/tests/unit/test_elfclosure.o $(ELFCLOSURE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^

ALL_TARGETS += $(B)/elfclosure $(B)/tests/test_elfclosure
