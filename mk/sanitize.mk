# make sanitize-test: every unit test built with ASan and UBSan into
# build-san/ and run there; a sanitizer report aborts its test, which
# tests/run.sh then counts as failed.  make fuzz-smoke: a few seconds of
# fuzzing of the report's readers, libFuzzer where clang has it
# (tests/e2e/fuzz_smoke.sh, into build-fuzz/).  tests/e2e/sanitizers.sh
# and fuzz_smoke.sh run both within make test.

UNIT_TEST_BINS := $(filter $(B)/tests/test_%,$(ALL_TARGETS))

unit-tests: $(UNIT_TEST_BINS)

# halt_on_error is UBSan's default under -fno-sanitize-recover; ASan's own
# leak check stays on: the report's readers must not leak per document.
SAN_ENV = ASAN_OPTIONS=abort_on_error=0:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1

sanitize-test: config.mk
	$(MAKE) SAN=1 B=build-san unit-tests
	$(SAN_ENV) TEST_BUILD=build-san tests/run.sh unit

fuzz-smoke: config.mk
	sh tests/e2e/fuzz_smoke.sh

.PHONY: unit-tests sanitize-test fuzz-smoke
