# clustersim: one plain Makefile (see ../shared/STYLE.md, "Build").
#
#   make                 build build/clustersim
#   make demo            install missing packages, build, run a real comparison
#   make check           install missing packages, build, run every test
#   make SANITIZE=address,undefined check    the same under ASan+UBSan (in build-san/)
#   make bench           print the speed figures (docs/performance.md)
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
       -DCLUSTERSIM_VERSION='"$(VERSION)"' -I. -I$(BUILD)/gen \
       $(shell pkg-config --cflags $(PKGS) 2>/dev/null) $(CFLAGS)
ALL_LDFLAGS = $(LDFLAGS)
LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lcsv -lm
TEST_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)

ifneq ($(SANITIZE),)
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
ALL_LDFLAGS += -fsanitize=$(SANITIZE)
endif

LIB_SRC = $(wildcard util/*.c sim/*.c models/*.c output/*.c) $(filter-out cli/main.c,$(wildcard cli/*.c))
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/catalog_builtin.o
MAIN_OBJ = $(BUILD)/cli/main.o
CATALOG_JSON = $(sort $(wildcard scenarios/catalog/*.json))
TEST_SRC = $(wildcard tests/unit/test_*.c)
TEST_BIN = $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
BENCH_SRC = $(wildcard tests/bench/bench_*.c)
BENCH_BIN = $(BENCH_SRC:tests/bench/%.c=$(BUILD)/bench/%)

.PHONY: all demo check check-run test deps bench install uninstall clean FORCE
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

$(BUILD)/gen/catalog_builtin.c: $(CATALOG_JSON) tools/embed.sh
	@mkdir -p $(dir $@)
	sh tools/embed.sh $@ $(CATALOG_JSON)

$(BUILD)/gen/catalog_builtin.o: $(BUILD)/gen/catalog_builtin.c $(BUILD)/CFLAGS
	$(CC) $(ALL_CFLAGS) -w -c $< -o $@

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

check: deps
	@$(MAKE) --no-print-directory check-run

check-run: $(BUILD)/clustersim $(TEST_BIN)
	@sh tests/run.sh $(BUILD)

test: check-run

bench: $(BUILD)/clustersim $(BENCH_BIN)
	@sh tools/bench.sh $(BUILD)

install: $(BUILD)/clustersim
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/clustersim/examples
	install -m 755 $(BUILD)/clustersim $(DESTDIR)$(PREFIX)/bin/clustersim
	install -m 644 scenarios/examples/*.json $(DESTDIR)$(PREFIX)/share/clustersim/examples/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/clustersim
	rm -rf $(DESTDIR)$(PREFIX)/share/clustersim

clean:
	rm -rf build build-san

FORCE:

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
