# The cell runner (lab/runner/): dynamic for the host (scripts/run-plan.sh
# starts build/runner), static for the guest's initramfs (/bin/runner,
# started by guest/init).
RUNNER_SRCS = $(wildcard lab/runner/*.c)
$(B)/runner: $(RUNNER_SRCS:%.c=$(B)/%.o)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(B)/runner-static: $(RUNNER_SRCS:%.c=$(B)/static/%.o)
	$(CC) -static $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Its text rules (the shell's splitting, cutting and trimming), the plan
# file reader and the channel's base64.
$(B)/tests/test_runner_text: $(B)/tests/unit/test_runner_text.o $(B)/lab/runner/text.o $(B)/lab/runner/conf.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

ALL_TARGETS += $(B)/runner $(B)/runner-static $(B)/tests/test_runner_text

# The channel's lines and checked blocks, as scripts/qemu-channel.sh reads them.
$(B)/tests/test_runner_channel: $(B)/tests/unit/test_runner_channel.o $(B)/lab/runner/channel.o \
	$(B)/lab/runner/files.o $(B)/lab/runner/text.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

ALL_TARGETS += $(B)/tests/test_runner_channel
