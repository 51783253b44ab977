# claimbench: `make demo` installs what is missing, builds and runs the seed 001 experiment;
# `make test` runs the whole suite (plain, then under AddressSanitizer and UBSan).

CC ?= cc
PKGS := libpq sqlite3 inih json-c
SANITIZE ?=
BUILD ?= build
# V=1 shows the compiler's command lines.
Q := $(if $(V),,@)

CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -g -pthread -Iharness
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ifneq ($(SANITIZE),)
CFLAGS_BASE += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=$(SANITIZE)
endif
VERSION := $(shell cat VERSION)
GIT_REVISION := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
override CFLAGS := $(CFLAGS_BASE) -DCLAIMBENCH_VERSION='"$(VERSION)"' -DCLAIMBENCH_GIT_REVISION='"$(GIT_REVISION)"' \
	$(PKG_CFLAGS) $(CFLAGS)
LDLIBS := $(PKG_LIBS) -lm -pthread

CORE_SRC := $(filter-out harness/cli/main.c,$(wildcard harness/*/*.c)) $(wildcard strategies/*.c)
CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:%.c=$(BUILD)/%)

.PHONY: all deps demo test test-plain test-sanitized test-tsan clean

all: $(BUILD)/claimbench $(UNIT_BIN)

$(BUILD)/claimbench: $(BUILD)/harness/cli/main.o $(CORE_OBJ)
	@echo "  LINK  $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/unit/%: tests/unit/%.c $(CORE_OBJ)
	@mkdir -p $(dir $@)
	@echo "  LINK  $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c $(wildcard harness/*/*.h) VERSION
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

deps:
	@scripts/install-deps

demo: deps
	@$(MAKE) --no-print-directory all
	$(BUILD)/claimbench run
	@echo
	@echo "Seed 001 on Oracle, for comparison: blocking FOR UPDATE 22.2 s (14 to 27 jobs per worker),"
	@echo "SKIP LOCKED 2.7 s (exactly 20 each); ideal 2.0 s."
	@echo
	@$(BUILD)/claimbench report --last --out results/demo-report

test: deps
	@scripts/install-test-deps
	@scripts/test-all

test-tsan: deps
	@$(MAKE) --no-print-directory BUILD=build-tsan SANITIZE=thread all
	@tests/run build-tsan

clean:
	rm -rf build build-san build-tsan
