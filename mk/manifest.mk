# build/manifest: manifest.json from plan.json and logs/outcomes.tsv
# (lab/manifest/), and build/jget, the scripts' reader of JSON values.
MANIFEST_OBJS = $(B)/lab/manifest/outcomes.o $(B)/lab/manifest/compose.o

$(B)/manifest: $(B)/lab/manifest/main.o $(MANIFEST_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ -ljansson $(LDLIBS)

$(B)/tests/test_manifest: $(B)/tests/unit/test_manifest.o $(MANIFEST_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -ljansson $(LDLIBS)

$(B)/jget: $(B)/lab/manifest/jget.o
	$(CC) $(LDFLAGS) -o $@ $^ -ljansson $(LDLIBS)

ALL_TARGETS += $(B)/manifest $(B)/jget $(B)/tests/test_manifest
