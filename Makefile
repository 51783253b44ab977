# claimbench: `make` builds $(BUILD)/claimbench and the unit tests; `make demo` installs what
# is missing, builds and runs the seed 001 experiment; `make check` runs the fast tier of the
# tests (about 130 s once built), `make test` the whole suite (plain, then under AddressSanitizer
# and UBSan); `make install` puts the binary, chart templates, scenarios and man page under PREFIX.

CC ?= cc
PKGS := libpq sqlite3 json-c libmariadb
BUILD ?= build
# A build folder keeps the sanitizers it was built with ($(BUILD)/sanitize): a make in it that
# names none (make install, a test's own make) builds as before, and a change of them rebuilds
# every object rather than mixing the two.
SANITIZE_FILE := $(BUILD)/sanitize
ifeq ($(origin SANITIZE),undefined)
SANITIZE := $(shell cat $(SANITIZE_FILE) 2>/dev/null)
endif
# V=1 shows the compiler's command lines.
Q := $(if $(V),,@)

# make install: PREFIX/bin, PREFIX/share/claimbench/{charts,scenarios}, PREFIX/share/man/man1;
# DESTDIR stages the tree under another root. The binary finds its charts at ../share/claimbench.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR := $(PREFIX)/bin
DATADIR := $(PREFIX)/share/claimbench
MAN1DIR := $(PREFIX)/share/man/man1

# -MMD -MP: the compiler writes each object's header dependencies beside it (.d, included below).
CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -g -pthread -Iharness -I$(BUILD) -MMD -MP
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ifneq ($(SANITIZE),)
CFLAGS_BASE += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=$(SANITIZE)
endif
override CFLAGS := $(CFLAGS_BASE) $(PKG_CFLAGS) $(CFLAGS)
LDLIBS := $(PKG_LIBS) -lm -pthread

# CLAIMBENCH_VERSION and CLAIMBENCH_GIT_REVISION, included as "generated/version.h" by the few
# files that print or store them; scripts/gen-version rewrites it only when they change.
VERSION_H := $(BUILD)/generated/version.h

# STRATEGY_FILES, GUARD_FILES and their counts, included as "generated/plugins.h": the plugins
# are the files in strategies/ and guards/ (scripts/gen-plugins), so adding one is adding its file.
PLUGINS_H := $(BUILD)/generated/plugins.h

MAIN_OBJ := $(BUILD)/harness/cli/main.o
# harness/db/NAME/ is one backend's folder (docs/extending.md): its files are compiled as the rest.
CORE_SRC := $(filter-out harness/cli/main.c,$(wildcard harness/*/*.c)) $(wildcard harness/db/*/*.c) $(wildcard strategies/*.c) $(wildcard guards/*.c)
CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_OBJ := $(UNIT_SRC:%.c=$(BUILD)/%.o)
UNIT_BIN := $(UNIT_SRC:%.c=$(BUILD)/%)
# The adapters claimbench builds itself (adapters/NAME/NAME.c, C on libpq), each as
# $(BUILD)/adapters/claimbench-NAME, where a manifest's command finds it (docs/adapters.md).
ADAPTER_SRC := $(wildcard adapters/*/*.c)
ADAPTER_BIN := $(foreach src,$(ADAPTER_SRC),$(BUILD)/adapters/claimbench-$(notdir $(src:.c=)))
ADAPTER_OBJ := $(ADAPTER_SRC:%.c=$(BUILD)/%.o)
ALL_OBJ := $(MAIN_OBJ) $(CORE_OBJ) $(UNIT_OBJ) $(ADAPTER_OBJ)

.PHONY: all adapters deps demo docs check test test-durations test-tsan install uninstall clean FORCE
.DELETE_ON_ERROR:

all: $(BUILD)/claimbench $(UNIT_BIN) $(ADAPTER_BIN)

$(BUILD)/claimbench: $(MAIN_OBJ) $(CORE_OBJ)
	@echo "  LINK  $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Each adapter's link: claimbench-NAME from adapters/NAME/NAME.o.
define ADAPTER_LINK
$(BUILD)/adapters/claimbench-$(1): $(BUILD)/adapters/$(1)/$(1).o
	@echo "  LINK  $$@"
	$(Q)$(CC) $(LDFLAGS) -o $$@ $$^ $(LDLIBS)
endef
$(foreach src,$(ADAPTER_SRC),$(eval $(call ADAPTER_LINK,$(notdir $(src:.c=)))))

$(UNIT_BIN): $(BUILD)/tests/unit/%: $(BUILD)/tests/unit/%.o $(CORE_OBJ)
	@echo "  LINK  $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(ALL_OBJ): $(BUILD)/%.o: %.c $(SANITIZE_FILE) | $(VERSION_H) $(PLUGINS_H)
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

$(SANITIZE_FILE): FORCE
	@mkdir -p $(BUILD)
	$(Q)[ -f $@ ] && [ "$$(cat $@)" = "$(SANITIZE)" ] || echo "$(SANITIZE)" > $@

$(VERSION_H): FORCE
	$(Q)scripts/gen-version $@

$(PLUGINS_H): FORCE
	$(Q)scripts/gen-plugins $@

-include $(ALL_OBJ:.o=.d)

# The adapters' own dependencies, each pinned by its lock file: npm ci in each adapters/NAME that
# has a package-lock.json (docs/adapters.md), again when the lock file changes.
ADAPTER_LOCKS := $(wildcard adapters/*/package-lock.json)
adapters: $(ADAPTER_LOCKS:%/package-lock.json=%/node_modules/.package-lock.json)
adapters/%/node_modules/.package-lock.json: adapters/%/package-lock.json
	@echo "  NPM   adapters/$*"
	$(Q)cd adapters/$* && npm ci --no-audit --no-fund --loglevel=error

# The man page, printed by the binary from its own option table.
$(BUILD)/claimbench.1: $(BUILD)/claimbench
	@echo "  GEN   $@"
	$(Q)$(BUILD)/claimbench manpage >$@

# The docs generated from the binary's own tables; tests/integration/docs.sh checks they are current.
docs: $(BUILD)/claimbench
	$(BUILD)/claimbench list metrics >docs/metric-list.md
	scripts/gen-tests-doc readme

# tests/durations from the last make test's own timings, and the tests' table with it.
test-durations:
	scripts/gen-tests-doc durations $(BUILD)/test.log build-san/test.log
	scripts/gen-tests-doc readme

deps:
	@scripts/install-deps

demo: deps
	@$(MAKE) --no-print-directory all
	$(BUILD)/claimbench run
	@echo
	@echo "Seed 001 on Oracle, for comparison: blocking FOR UPDATE 22.2 s (14 to 27 jobs per worker),"
	@echo "SKIP LOCKED 2.7 s (exactly 20 each); ideal 2.0 s."
	@echo
	@$(BUILD)/claimbench report --last --out results/demo-report --force

check: deps
	@scripts/install-test-deps
	@$(MAKE) --no-print-directory all
	@tests/run --fast $(BUILD)

test: deps
	@scripts/install-test-deps
	@scripts/test-all

test-tsan: deps
	@$(MAKE) --no-print-directory BUILD=build-tsan SANITIZE=thread all
	@tests/run build-tsan

install: $(BUILD)/claimbench $(BUILD)/claimbench.1
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(DATADIR)/charts" "$(DESTDIR)$(DATADIR)/scenarios" \
		"$(DESTDIR)$(MAN1DIR)"
	install -m 755 $(BUILD)/claimbench "$(DESTDIR)$(BINDIR)/claimbench"
	install -m 644 scripts/charts/*.gp "$(DESTDIR)$(DATADIR)/charts/"
	install -m 644 scenarios/*.ini "$(DESTDIR)$(DATADIR)/scenarios/"
	install -m 644 $(BUILD)/claimbench.1 "$(DESTDIR)$(MAN1DIR)/claimbench.1"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/claimbench" "$(DESTDIR)$(MAN1DIR)/claimbench.1"
	rm -rf "$(DESTDIR)$(DATADIR)"

clean:
	rm -rf build build-san build-tsan $(BUILD)
