# clustersim: one plain Makefile.
#
#   make                 build build/clustersim
#   make demo            install missing packages, build, answer a renter's question (charts in out/)
#   make check           install missing packages, build, run the quick set of tests
#                        (every feature, in parallel: under a minute on 2 cores)
#   make check-full      the same with every case (CI runs it): CHECK=full, which each
#                        tests/cli script reads to add its slow cases (repetitions, big
#                        sweeps, whole corpora; each script's header says which).
#                        CI=true (CI services set it) is another thing: a test that
#                        would be skipped (no gnuplot, no Slurm, not root) fails.
#   make SANITIZE=address,undefined check    the same under ASan+UBSan (in build-san/)
#   make bench           print the speed figures (docs/history/performance.md)
#   make install PREFIX=/usr/local
#
# Objects are rebuilt when the flags change (build/CFLAGS holds the last ones)
# and when a header they include changes (-MMD -MP).

VERSION = 0.1.0
PREFIX ?= /usr/local
CC ?= cc
SANITIZE ?=
OPT ?= -O2

ifeq ($(SANITIZE),)
BUILD ?= build
else
BUILD ?= build-san
endif

PKGS = gsl jansson
WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wundef \
       -Wwrite-strings -Wno-missing-field-initializers
ALL_CFLAGS = -std=c11 $(OPT) -g $(WARN) -D_POSIX_C_SOURCE=200809L \
       -DCLUSTERSIM_VERSION='"$(VERSION)"' -DCLUSTERSIM_PREFIX='"$(PREFIX)"' -I. -I$(BUILD)/gen \
       $(shell pkg-config --cflags $(PKGS) 2>/dev/null) $(CFLAGS)
ALL_LDFLAGS = $(LDFLAGS)
LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lcsv -lm
TEST_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)

ifneq ($(SANITIZE),)
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
ALL_LDFLAGS += -fsanitize=$(SANITIZE)
endif

LIB_SRC = $(wildcard util/*.c sim/*.c models/*/*.c output/*.c) $(filter-out cli/main.c,$(wildcard cli/*.c cli/*/*.c))
CORE_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o)
LIB_OBJ = $(CORE_OBJ) $(BUILD)/gen/catalog_tables.o
MAIN_OBJ = $(BUILD)/cli/main.o
CATALOG_JSON = $(sort $(wildcard scenarios/catalog/*.json))
TEST_SRC = $(wildcard tests/unit/test_*.c)
TEST_BIN = $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
BENCH_SRC = $(wildcard tests/bench/bench_*.c)
BENCH_BIN = $(BENCH_SRC:tests/bench/%.c=$(BUILD)/bench/%)

.PHONY: all demo check check-full check-run test deps bench install uninstall clean FORCE
.DEFAULT_GOAL := all

all: $(BUILD)/clustersim

# The flags in force; rewritten only when they change, so objects depending on
# it rebuild exactly when the flags do.
$(BUILD)/CFLAGS: FORCE
	@mkdir -p $(BUILD)
	@echo '$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS)' > $@.new
	@if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

$(BUILD)/%.o: %.c $(BUILD)/CFLAGS
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# The built-in catalog as C tables: tools/gencatalog.c, linked with the
# library without the tables (gen/libcore.a), reads scenarios/catalog/*.json
# and writes them (only when their text changes; the stamp records the run).
$(BUILD)/gen/libcore.a: $(CORE_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/gen/gencatalog: tools/gencatalog.c $(BUILD)/gen/libcore.a $(BUILD)/CFLAGS
	$(CC) $(ALL_CFLAGS) -MMD -MP $(ALL_LDFLAGS) -o $@ $< $(BUILD)/gen/libcore.a $(LIBS)

$(BUILD)/gen/catalog_tables.stamp: $(BUILD)/gen/gencatalog $(CATALOG_JSON)
	$(BUILD)/gen/gencatalog $(BUILD)/gen/catalog_tables.c $(CATALOG_JSON)
	@touch $@

$(BUILD)/gen/catalog_tables.c: $(BUILD)/gen/catalog_tables.stamp
	@test -f $@ || $(BUILD)/gen/gencatalog $@ $(CATALOG_JSON)

$(BUILD)/gen/catalog_tables.o: $(BUILD)/gen/catalog_tables.c $(BUILD)/CFLAGS models/hw/hw.h
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/libclustersim.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/clustersim: $(MAIN_OBJ) $(BUILD)/libclustersim.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libclustersim.a $(BUILD)/CFLAGS
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libclustersim.a $(TEST_LIBS) $(LIBS)

$(BUILD)/bench/%: tests/bench/%.c $(BUILD)/libclustersim.a $(BUILD)/CFLAGS
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libclustersim.a $(LIBS)

deps:
	@sh tools/install-deps.sh

# The README's two commands. They install first, then re-enter make so that
# pkg-config sees the freshly installed libraries.
demo: deps
	@$(MAKE) --no-print-directory all
	@sh tools/demo.sh $(BUILD)/clustersim

# CHECK=quick (make check) or full (make check-full): which set tests/run.sh runs.
CHECK ?= quick

check: deps
	@$(MAKE) --no-print-directory check-run

check-full: deps
	@$(MAKE) --no-print-directory CHECK=full check-run

check-run: $(BUILD)/clustersim $(TEST_BIN)
	@CHECK=$(CHECK) sh tests/run.sh $(BUILD)

test: check-run

bench: $(BUILD)/clustersim $(BENCH_BIN)
	@sh tools/bench.sh $(BUILD)

install: $(BUILD)/clustersim
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/clustersim/examples
	install -m 755 $(BUILD)/clustersim $(DESTDIR)$(PREFIX)/bin/clustersim
	install -m 644 scenarios/examples/*.json $(DESTDIR)$(PREFIX)/share/clustersim/examples/
	install -m 644 scenarios/examples/*.txt $(DESTDIR)$(PREFIX)/share/clustersim/examples/
	install -d $(DESTDIR)$(PREFIX)/share/clustersim/validation
	install -m 644 scenarios/validation/*.json $(DESTDIR)$(PREFIX)/share/clustersim/validation/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/clustersim
	rm -rf $(DESTDIR)$(PREFIX)/share/clustersim

clean:
	rm -rf build build-san

FORCE:

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---- fuzzing and valgrind ------------------------------------------------
#
#   make fuzz [FUZZ_SECONDS=60]   build tests/fuzz/fuzz_*.c with clang's libFuzzer,
#                                 ASan and UBSan into $(BUILD)/fuzz/ and run each
#                                 target for FUZZ_SECONDS; fails on any crash
#   make valgrind                 unit tests and a few commands under valgrind;
#                                 fails on any error or definite/indirect leak
#
# The library is built a second time with clang for fuzzing, in
# $(BUILD)/fuzz/lib, by this Makefile itself with other BUILD, CC and SANITIZE.

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_SANITIZE = address,undefined
FUZZ_SRC = $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN = $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_LIB = $(BUILD)/fuzz/lib/libclustersim.a
FUZZ_SEEDS = $(sort $(wildcard scenarios/*/*.json tests/bad/* tests/golden/*.out tests/fixtures/*/*))

.PHONY: fuzz fuzz-build valgrind

fuzz: fuzz-build
	@sh tools/fuzz.sh $(BUILD)/fuzz $(FUZZ_SECONDS)

fuzz-build: $(FUZZ_BIN) $(BUILD)/fuzz/seeds.stamp

$(FUZZ_LIB): FORCE
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/fuzz/lib CC=$(FUZZ_CC) OPT=-O1 \
		SANITIZE=fuzzer-no-link,$(FUZZ_SANITIZE) $@

$(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_LIB)
	$(FUZZ_CC) -std=c11 -O1 -g $(WARN) -D_POSIX_C_SOURCE=200809L -I. \
		$(shell pkg-config --cflags $(PKGS) 2>/dev/null) \
		-fsanitize=fuzzer,$(FUZZ_SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all \
		-o $@ $< $(FUZZ_LIB) $(LIBS)

# The seed corpus: every scenario, catalog and bad input, and the golden CSV.
$(BUILD)/fuzz/seeds.stamp: $(FUZZ_SEEDS)
	@rm -rf $(BUILD)/fuzz/seeds
	@mkdir -p $(BUILD)/fuzz/seeds
	@for f in $(FUZZ_SEEDS); do cp "$$f" "$(BUILD)/fuzz/seeds/$$(echo "$$f" | tr / _)"; done
	@touch $@

valgrind: $(BUILD)/clustersim $(TEST_BIN)
	@if [ -n "$(SANITIZE)" ]; then echo "make valgrind: build without SANITIZE" >&2; exit 2; fi
	@sh tools/valgrind.sh $(BUILD)

# Each fuzz target also as a plain program that replays files (tests/fuzz/replay.c),
# built with the normal compiler and flags; tests/cli/test_fuzz_replay.sh runs
# the seed corpus and tests/bad through them in `make check`.
REPLAY_BIN = $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz-replay/%)

$(BUILD)/fuzz-replay/%: tests/fuzz/%.c tests/fuzz/replay.c $(BUILD)/libclustersim.a $(BUILD)/CFLAGS
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< tests/fuzz/replay.c $(BUILD)/libclustersim.a $(LIBS)

check-run: $(REPLAY_BIN)
