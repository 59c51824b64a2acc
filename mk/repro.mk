# repro/repro-min.c: the one-file reproducer make attach encloses.  Built
# here with the project's warnings; the static one runs in guests.
$(B)/repro-min: repro/repro-min.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O2 $(LDFLAGS) -o $@ $<

$(B)/repro-min-static: repro/repro-min.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O2 -static $(LDFLAGS) -o $@ $<

ALL_TARGETS += $(B)/repro-min $(B)/repro-min-static
