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
LDLIBS_PVM := -lgpvm3 -lpvm3 -lm
LDLIBS_TRACE := -lsqlite3 $(shell pkg-config --libs otf2 2>/dev/null || echo -lopen-trace-format2) -lm
LDFLAGS += $(SANFLAGS)

LIB_SRC := $(wildcard pangaea_lib/*.c) logs/commlog.c logs/execlog.c logs/verify.c \
           logs/event.c logs/runinfo.c \
           logs/grow.c logs/openlog.c logs/crosscheck.c logs/match.c \
           logs/stdinlog.c
LIB_OBJ := $(LIB_SRC:%.c=$(B)/obj/%.o)
LIB := $(B)/lib/libpangaea.a

LAUNCHER_SRC := $(wildcard toplevel/*.c)
COORD_SRC := $(wildcard coordinator/*.c)
# pangaea-trace: main and its table, the subcommands, the importer, the matcher
TRACE_SRC := logs/pangaea-trace.c $(wildcard logs/trace*.c) logs/match.c
EXAMPLES := $(sort $(notdir $(patsubst %/,%,$(dir $(wildcard examples/*/*.c)))))
TEST_PROGS := ctxcheck killme stdinecho
CHECK_SUITES := $(patsubst tests/%.c,%,$(wildcard tests/check_*.c))

BINS := $(B)/bin/pangaea $(B)/bin/pangaea-coord $(B)/bin/pangaea-trace \
        $(B)/bin/pangaea-view
EXAMPLE_BINS := $(EXAMPLES:%=$(B)/examples/%)
TEST_BINS := $(TEST_PROGS:%=$(B)/tests/%) $(CHECK_SUITES:%=$(B)/tests/%)
BENCH_PROGS := $(filter-out benchlib report,$(patsubst bench/%.c,%,$(wildcard bench/*.c)))
BENCH_BINS := $(BENCH_PROGS:%=$(B)/bench/%) $(B)/bench/report

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
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS_TRACE)

# pangaea-view: C + Tk; its Tcl files are compiled in as one C string.
VIEW_SRC := $(wildcard xview/*.c)
VIEW_CFLAGS := $(shell pkg-config --cflags tk 2>/dev/null || echo -I/usr/include/tcl8.6)
$(B)/obj/xview/%.o: CPPFLAGS += $(VIEW_CFLAGS)
VIEW_TCL := xview/view.tcl xview/spawn.tcl xview/start.tcl
$(B)/obj/xview/view-tcl.c: $(VIEW_TCL)
	@mkdir -p $(dir $@)
	{ echo '/* made from $(VIEW_TCL) by the Makefile: do not edit */'; \
	  echo 'const char view_tcl_source[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' \
	      -e 's/^/"/' -e 's/$$/\\n"/' $^; echo ';'; } > $@
$(B)/obj/xview/view-tcl.o: $(B)/obj/xview/view-tcl.c
	$(CC) $(ALL_CFLAGS) -Ixview -c $< -o $@
# (of the trace database, only the schema, the stale rule and the matcher;
# the event words and growing arrays from the library)
VIEW_LOGS_OBJ := $(patsubst %,$(B)/obj/logs/%.o,tracedb-schema tracedb-stale match)
$(B)/bin/pangaea-view: $(VIEW_SRC:%.c=$(B)/obj/%.o) $(B)/obj/xview/view-tcl.o \
		      $(VIEW_LOGS_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -ltk8.6 -ltcl8.6 -lsqlite3

# One rule per example: build/examples/NAME from examples/NAME/*.c.
define example_rule
$(B)/examples/$(1): $$(patsubst %.c,$(B)/obj/%.o,$$(wildcard examples/$(1)/*.c)) $(LIB)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS_PVM)
endef
$(foreach e,$(EXAMPLES),$(eval $(call example_rule,$(e))))

# Check suites share tests/checkutil.c (temporary folders, runner).
$(B)/tests/check_%: $(B)/obj/tests/check_%.o $(B)/obj/tests/checkutil.o \
		    $(B)/obj/coordinator/registry.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $$(pkg-config --libs check) $(LDLIBS_PVM)

# The trace database suite also links the importer, the matcher and SQLite.
TRACEDB_OBJ := $(patsubst %.c,$(B)/obj/%.o,$(wildcard logs/tracedb*.c) logs/match.c)
$(B)/tests/check_tracedb: $(B)/obj/tests/check_tracedb.o \
		$(B)/obj/tests/checkutil.o $(TRACEDB_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $$(pkg-config --libs check) $(LDLIBS_TRACE)

# The matcher's suite links the matcher.
$(B)/tests/check_match: $(B)/obj/tests/check_match.o \
		$(B)/obj/tests/checkutil.o $(B)/obj/logs/match.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $$(pkg-config --libs check) -lm

$(B)/tests/%: $(B)/obj/tests/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS_PVM)

# Benchmarks (bench/run.sh): each bench/NAME.c with the shared helpers.
$(B)/bench/report: $(B)/obj/bench/report.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lm

$(B)/bench/%: $(B)/obj/bench/%.o $(B)/obj/bench/benchlib.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS_PVM)
.SECONDARY: $(BENCH_PROGS:%=$(B)/obj/bench/%.o) $(B)/obj/bench/benchlib.o

$(B)/lib/pkgconfig/pangaea.pc: pangaea.pc.in Makefile
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(PREFIX)|g' $< > $@

deps:
	@bash scripts/install-deps.sh

unit: $(TEST_BINS)
	@bash tests/run-unit.sh $(B)

scenario: all $(TEST_BINS) $(BENCH_BINS)
	@bash tests/run-scenarios.sh $(B)

check: deps
	@$(MAKE) --no-print-directory all $(TEST_BINS) $(BENCH_BINS)
	@bash tests/run-all.sh $(B)

demo: deps
	@$(MAKE) --no-print-directory all
	@bash scripts/demo.sh $(B)

bench: deps
	@$(MAKE) --no-print-directory all $(BENCH_BINS)
	@bash bench/run.sh $(B)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BINS) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 pangaea_lib/pangaea.h $(DESTDIR)$(PREFIX)/include/
# (the .pc names the PREFIX of this install, not the one of the build)
	sed -e 's|@PREFIX@|$(PREFIX)|g' pangaea.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/pangaea.pc
	chmod 644 $(DESTDIR)$(PREFIX)/lib/pkgconfig/pangaea.pc
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/

clean:
	rm -rf $(B)

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)
