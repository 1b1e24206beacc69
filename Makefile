# Pangaea: record/replay debugger for PVM3 programs.
#   make                 build everything into $(BUILDDIR)
#   make check           install missing packages, build, run every test
#   make demo            install missing packages, build, record + replay an example
#   make install PREFIX=DIR
#   SANITIZE=address|undefined, WERROR=1, BUILDDIR=dir

BUILDDIR ?= build
PREFIX ?= /usr/local
CC ?= cc
SANITIZE ?=
WERROR ?=

B := $(BUILDDIR)
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-unused-parameter \
        -Wno-format-truncation
ifneq ($(WERROR),)
WARN += -Werror
endif
ifneq ($(SANITIZE),)
SANFLAGS := -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
endif
CPPFLAGS += -D_GNU_SOURCE -Ipangaea_lib -Ilogs
ALL_CFLAGS = -std=c11 $(WARN) $(CFLAGS) $(SANFLAGS) $(CPPFLAGS) -MMD -MP
LDLIBS_PVM := -lpvm3 -lm
LDFLAGS += $(SANFLAGS)

LIB_SRC := $(wildcard pangaea_lib/*.c) logs/commlog.c logs/execlog.c logs/verify.c
LIB_OBJ := $(LIB_SRC:%.c=$(B)/obj/%.o)
LIB := $(B)/lib/libpangaea.a

LAUNCHER_SRC := $(wildcard toplevel/*.c)
COORD_SRC := $(wildcard coordinator/*.c)
TRACE_SRC := $(wildcard logs/trace*.c)
EXAMPLES := $(sort $(notdir $(patsubst %/,%,$(dir $(wildcard examples/*/*.c)))))
TEST_PROGS := ctxcheck killme
CHECK_SUITES := $(patsubst tests/%.c,%,$(wildcard tests/check_*.c))

BINS := $(B)/bin/pangaea $(B)/bin/pangaea-coord $(B)/bin/pangaea-trace
EXAMPLE_BINS := $(EXAMPLES:%=$(B)/examples/%)
TEST_BINS := $(TEST_PROGS:%=$(B)/tests/%) $(CHECK_SUITES:%=$(B)/tests/%)

.PHONY: all check unit scenario demo deps install clean bench
all: $(BINS) $(EXAMPLE_BINS) $(B)/lib/pkgconfig/pangaea.pc

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(B)/bin/pangaea: $(LAUNCHER_SRC:%.c=$(B)/obj/%.o) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS_PVM)

$(B)/bin/pangaea-coord: $(COORD_SRC:%.c=$(B)/obj/%.o) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -levent_core $(LDLIBS_PVM)

$(B)/bin/pangaea-trace: $(TRACE_SRC:%.c=$(B)/obj/%.o) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^

# One rule per example: build/examples/NAME from examples/NAME/*.c.
define example_rule
$(B)/examples/$(1): $$(patsubst %.c,$(B)/obj/%.o,$$(wildcard examples/$(1)/*.c)) $(LIB)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS_PVM)
endef
$(foreach e,$(EXAMPLES),$(eval $(call example_rule,$(e))))

$(B)/tests/check_%: $(B)/obj/tests/check_%.o $(LIB) $(B)/obj/coordinator/registry.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $$(pkg-config --libs check) $(LDLIBS_PVM)

$(B)/tests/%: $(B)/obj/tests/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS_PVM)

$(B)/lib/pkgconfig/pangaea.pc: pangaea.pc.in Makefile
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(PREFIX)|g' $< > $@

deps:
	@bash scripts/install-deps.sh

unit: $(TEST_BINS)
	@bash tests/run-unit.sh $(B)

scenario: all $(TEST_BINS)
	@bash tests/run-scenarios.sh $(B)

check: deps
	@$(MAKE) --no-print-directory all $(TEST_BINS)
	@bash tests/run-all.sh $(B)

demo: deps
	@$(MAKE) --no-print-directory all
	@bash scripts/demo.sh $(B)

bench: deps
	@$(MAKE) --no-print-directory all
	@bash bench/run.sh $(B)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BINS) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 pangaea_lib/pangaea.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(B)/lib/pkgconfig/pangaea.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/

clean:
	rm -rf $(B)

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)
