# build/manifest: manifest.json from plan.json and logs/outcomes.tsv
# (lab/manifest/), build/jget, the scripts' reader of JSON values, and
# build/jobj and build/attach-manifest, their writers.
MANIFEST_OBJS = $(B)/lab/manifest/outcomes.o $(B)/lab/manifest/compose.o

$(B)/manifest: $(B)/lab/manifest/main.o $(MANIFEST_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ -ljansson $(LDLIBS)

$(B)/tests/test_manifest: $(B)/tests/unit/test_manifest.o $(MANIFEST_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -ljansson $(LDLIBS)

$(B)/jget: $(B)/lab/manifest/jget.o $(B)/lab/manifest/capped.o
	$(CC) $(LDFLAGS) -o $@ $^ -ljansson $(LDLIBS)

# The scripts' writers of JSON: fleet.sh's variables, attach.sh's manifest.
$(B)/jobj: $(B)/lab/manifest/jobj.o
	$(CC) $(LDFLAGS) -o $@ $^ -ljansson $(LDLIBS)

$(B)/attach-manifest: $(B)/lab/manifest/attach_manifest.o $(B)/lab/manifest/capped.o
	$(CC) $(LDFLAGS) -o $@ $^ -ljansson $(LDLIBS)

ALL_TARGETS += $(B)/manifest $(B)/jget $(B)/jobj $(B)/attach-manifest $(B)/tests/test_manifest
