# build/attach: make attach's decisions (lab/attach/; scripts/attach.sh
# copies, archives and packs).  Its documents are read as build/jget reads
# them (lab/manifest/capped.c).  The unit test links the parts that need
# no libjansson, so that make cross-test builds it too.
ATTACH_OBJS = $(B)/lab/attach/own.o $(B)/lab/attach/configs.o $(B)/lab/attach/fit.o \
	$(B)/lab/attach/reproduce.o

$(B)/attach: $(B)/lab/attach/main.o $(B)/lab/attach/stage.o $(ATTACH_OBJS) $(B)/lab/manifest/capped.o
	$(CC) $(LDFLAGS) -o $@ $^ -ljansson $(LDLIBS)

$(B)/tests/test_attach: $(B)/tests/unit/test_attach.o $(ATTACH_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

ALL_TARGETS += $(B)/attach $(B)/tests/test_attach
