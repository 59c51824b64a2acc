# build/channel (lab/channel/): the guest's result channel read into
# runs/, logs/ and perf/ (scripts/qemu-channel.sh runs it), and the unit
# test of its parser and base64 decoder.
CHANNEL_OBJS = $(patsubst %.c,$(B)/%.o,$(filter-out lab/channel/main.c,$(wildcard lab/channel/*.c)))

$(B)/channel: $(B)/lab/channel/main.o $(CHANNEL_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^

$(B)/tests/test_channel: $(B)/tests/unit/test_channel.o $(CHANNEL_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^

ALL_TARGETS += $(B)/channel $(B)/tests/test_channel
