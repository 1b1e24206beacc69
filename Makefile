# Pangaea: record/replay debugger for PVM3 programs.
#   make                 build everything into $(BUILDDIR)
#   make check           install missing packages, build, run every test
#   make check-long      the same, the tests' soak parts 10 times over
#   make soak            SOAK_RUNS (100) faulted runs (scripts/soak.sh)
#   make demo            install missing packages, build, record + replay an example
#   make install PREFIX=DIR
#   make arch            libpangaea.so and the examples for i386 and s390x too
#   make fuzz            build the libFuzzer harnesses (clang), run each FUZZ_SECONDS
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
# (one include path per room: each header is named by its file name)
INCLUDE_DIRS := pangaea_lib pangaea_lib/engine pangaea_lib/pvm \
	pangaea_lib/clock logs/format \
	logs/analysis logs/tracedb logs/trace
CPPFLAGS += -D_GNU_SOURCE $(INCLUDE_DIRS:%=-I%)
# (-MD: the dependency files name the system headers too, which the
# layers test reads: tests/layers.py, rule 4)
ALL_CFLAGS = -std=c11 $(WARN) $(CFLAGS) $(SANFLAGS) $(CPPFLAGS) -MD -MP
LDLIBS_PVM := -lgpvm3 -lpvm3 -lm
# The launcher and the coordinator start in every run (issue 28): with
# libpvm's and libtirpc's archives linked in, ld.so maps 1 library, not
# the 10 libtirpc pulls in (Kerberos, GSSAPI): 0.5 ms an exec. Without
# the archives, the shared libraries; so also with SANITIZE: the
# sanitizers intercept libtirpc's xdr functions and find the real ones
# with dlsym(RTLD_NEXT), which an archive's copy is not (a call to 0).
ARCHIVE = $(filter /%,$(shell $(CC) -print-file-name=$(1)))
PVM_ARCHIVES := $(call ARCHIVE,libgpvm3.a) $(call ARCHIVE,libpvm3.a) \
	$(call ARCHIVE,libtirpc.a)
ifeq ($(words $(PVM_ARCHIVES))$(SANITIZE),3)
LDLIBS_PVM_EXE := $(PVM_ARCHIVES) -lm
else
LDLIBS_PVM_EXE := $(LDLIBS_PVM)
endif
EVENT_ARCHIVE := $(call ARCHIVE,libevent_core.a)
LDLIBS_EVENT := $(if $(EVENT_ARCHIVE),$(EVENT_ARCHIVE),-levent_core)
LDLIBS_TRACE := -lsqlite3 $(shell pkg-config --libs otf2 2>/dev/null || echo -lopen-trace-format2) -lm
LDFLAGS += $(SANFLAGS)

# What goes where is decided by folder (docs/INTERNALS.md, "Layers"):
# every C file of a folder goes into that folder's archive, and a program
# links the archives of the layers it uses, highest first.
#   libpangaea.a     pangaea_lib/pvm + pangaea_lib/engine + logs/format:
#                    what a task runs (also as libpangaea.so, below)
#   libpg-analysis.a logs/analysis: analyses of a run's logs
#   libpg-tracedb.a  logs/tracedb: the trace database
# logs/trace is the pangaea-trace command itself.
# (preload.c and real.c belong to libpangaea.so only)
PRELOAD_ONLY := pangaea_lib/pvm/preload.c pangaea_lib/pvm/real.c \
	pangaea_lib/clock/clockpre.c pangaea_lib/clock/clockreal.c
TASK_SRC := $(filter-out $(PRELOAD_ONLY),$(wildcard pangaea_lib/pvm/*.c) \
	    $(wildcard pangaea_lib/clock/*.c)) \
	    $(wildcard pangaea_lib/engine/*.c)
FORMAT_SRC := $(wildcard logs/format/*.c)
LIB_SRC := $(TASK_SRC) $(FORMAT_SRC)
LIB_OBJ := $(LIB_SRC:%.c=$(B)/obj/%.o)
LIB := $(B)/lib/libpangaea.a
ANALYSIS_SRC := $(wildcard logs/analysis/*.c)
ANALYSIS_LIB := $(B)/lib/libpg-analysis.a
TRACEDB_SRC := $(wildcard logs/tracedb/*.c)
TRACEDB_LIB := $(B)/lib/libpg-tracedb.a
# lib/pangaea/libpangaea.so, for LD_PRELOAD into unmodified programs (docs/INTERNALS.md,
# "The preload path"): the same sources, position independent, each with
# pangaea_lib/pvm/real.h forced in (their PVM calls go to the real functions),
# plus the entry points (preload.c, without real.h's renaming).  The
# formats come from an archive: only those a task uses are linked in
# (not the run reader or the live stream's parser of the tools).
SO_OBJ := $(TASK_SRC:%.c=$(B)/pic/%.o) $(PRELOAD_ONLY:%.c=$(B)/pic/%.o)
SO_FORMAT_LIB := $(B)/pic/libpg-format.a
# (in a folder of its own, as libfaketime's: -lpangaea stays the static
# library for programs built with pangaea.h)
SOLIB := $(B)/lib/pangaea/libpangaea.so

# The MPI binding (pangaea_lib/mpi, docs/INTERNALS.md "The MPI binding"):
# lib/pangaea/libpangaea-mpi.so, PMPI wrappers over the same engine and
# formats, preloaded into the ranks of `pangaea -log mpirun ...`; built
# when mpicc is there (Debian's libopenmpi-dev), as are examples/mpi.
MPICC ?= mpicc
HAVE_MPI := $(shell command -v $(MPICC) >/dev/null 2>&1 && echo 1)
MPI_SRC := $(wildcard pangaea_lib/mpi/*.c)
MPI_CFLAGS = $(shell $(MPICC) --showme:compile 2>/dev/null)
MPI_SOLIB := $(B)/lib/pangaea/libpangaea-mpi.so
MPI_EXAMPLES := $(basename $(notdir $(wildcard examples/mpi/*.c examples/mpi/*.f90)))
MPIF90 ?= mpif90
MPI_EXAMPLE_BINS := $(MPI_EXAMPLES:%=$(B)/examples/mpi/%)
ifeq ($(HAVE_MPI),1)
MPI_ALL := $(MPI_SOLIB) $(MPI_EXAMPLE_BINS) $(MPI_SRC:%.c=$(B)/obj/%.o)
endif
# The same binding built against MPICH (Debian's mpich, its mpicc.mpich):
# lib/pangaea/libpangaea-mpich.so, for programs linked with libmpich
# (MPICH's handles and constants are not Open MPI's: another build of
# the same sources, not another binding).  Its Fortran entries are Open
# MPI's (fortran.c names Open MPI's sentinels), so C and C++ only.
MPICC_MPICH ?= mpicc.mpich
HAVE_MPICH := $(shell command -v $(MPICC_MPICH) >/dev/null 2>&1 && echo 1)
MPICH_SRC := $(filter-out %/fortran.c,$(MPI_SRC))
MPICH_SHOW = $(shell $(MPICC_MPICH) -show 2>/dev/null)
MPICH_SOLIB := $(B)/lib/pangaea/libpangaea-mpich.so
ifeq ($(HAVE_MPICH),1)
MPI_ALL += $(MPICH_SOLIB)
endif

LAUNCHER_SRC := $(wildcard toplevel/*.c)
COORD_SRC := $(wildcard coordinator/*.c)
# pangaea-trace: main and its table, the subcommands
TRACE_SRC := $(wildcard logs/trace/*.c)
EXAMPLES := $(filter-out mpi,$(sort $(notdir $(patsubst %/,%,$(dir $(wildcard examples/*/*.c))))))
TEST_PROGS := ctxcheck killme stdinecho outprint chaosorder clockpp clockcheck anytag commconv \
	seeded
# Tests' sources: the Check suites in tests/unit/*/ (check_NAME.c), their
# helpers in tests/unit/, the scenario tests' programs in tests/progs/ (or
# any of them in tests/ itself); each test NAME is built as $(B)/tests/NAME.
TEST_SRC := $(wildcard tests/*.c tests/progs/*.c tests/unit/*.c tests/unit/*/*.c)
CHECK_SUITES := $(sort $(filter check_%,$(basename $(notdir $(TEST_SRC)))))
# (the object of test NAME, wherever its source lies)
test_obj = $(patsubst %.c,$(B)/obj/%.o,$(filter %/$(1).c,$(TEST_SRC)))

BINS := $(B)/bin/pangaea $(B)/bin/pangaea-coord $(B)/bin/pangaea-trace \
        $(B)/bin/pangaea-view
EXAMPLE_BINS := $(EXAMPLES:%=$(B)/examples/%)
TEST_BINS := $(TEST_PROGS:%=$(B)/tests/%) $(CHECK_SUITES:%=$(B)/tests/%)
BENCH_PROGS := $(filter-out benchlib report,$(patsubst bench/%.c,%,$(wildcard bench/*.c)))
BENCH_BINS := $(BENCH_PROGS:%=$(B)/bench/%) $(B)/bench/report \
	      $(B)/bench/pingpong-preload $(B)/bench/clockread-preload

.PHONY: all check unit scenario demo deps install clean bench fuzz
all: $(BINS) $(EXAMPLE_BINS) $(SOLIB) $(B)/lib/pkgconfig/pangaea.pc $(MPI_ALL)

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# (never with SANITIZE: a sanitizer's runtime must come first in a
# process, and the programs it is preloaded into are not built with it;
# -fno-semantic-interposition and the links' -Bsymbolic-functions: the
# libraries' calls of their own functions are direct, not through the
# PLT, and may be inlined: none of them is meant to be interposed)
PIC_CFLAGS = -std=c11 $(WARN) $(CFLAGS) $(CPPFLAGS) -MMD -MP -fPIC \
	     -fno-semantic-interposition
$(B)/pic/%.o: %.c pangaea_lib/pvm/real.h pangaea_lib/clock/clockreal.h
	@mkdir -p $(dir $@)
	$(CC) $(PIC_CFLAGS) -include pangaea_lib/pvm/real.h -c $< -o $@

$(B)/pic/pangaea_lib/clock/clockpre.o: pangaea_lib/clock/clockpre.c pangaea_lib/clock/clockreal.h
	@mkdir -p $(dir $@)
	$(CC) $(PIC_CFLAGS) -c $< -o $@

$(B)/pic/pangaea_lib/pvm/preload.o: pangaea_lib/pvm/preload.c pangaea_lib/pvm/real.h
	@mkdir -p $(dir $@)
	$(CC) $(PIC_CFLAGS) -c $< -o $@

$(SO_FORMAT_LIB): $(FORMAT_SRC:%.c=$(B)/pic/%.o)
	rm -f $@ && ar rcs $@ $^

$(SOLIB): $(SO_OBJ) $(SO_FORMAT_LIB) pangaea_lib/pvm/libpangaea.map
	@mkdir -p $(dir $@)
	$(CC) $(filter-out $(SANFLAGS),$(LDFLAGS)) -shared -o $@ $(SO_OBJ) \
		$(SO_FORMAT_LIB) \
		-Wl,--version-script=pangaea_lib/pvm/libpangaea.map \
		-Wl,-Bsymbolic-functions -Wl,--no-as-needed $(LDLIBS_PVM)

# (the binding's objects in obj/ too, for the layers test; the .so takes
# the position-independent ones, with the engine's of libpangaea.so and
# clockreal.o, where the engine's own clock reads go: pangaea_lib/clock)
$(B)/obj/pangaea_lib/mpi/%.o: pangaea_lib/mpi/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(MPI_CFLAGS) -Ipangaea_lib/mpi -c $< -o $@
$(B)/pic/pangaea_lib/mpi/%.o: pangaea_lib/mpi/%.c
	@mkdir -p $(dir $@)
	$(CC) $(PIC_CFLAGS) $(MPI_CFLAGS) -Ipangaea_lib/mpi \
		-include pangaea_lib/clock/clockreal.h -c $< -o $@
# (with the clock layer: the rank's reads, MPI_Wtime's among them; the
# engine's, the clock layer's and the formats' objects serve both MPI
# libraries)
MPI_ENGINE_PIC = $(patsubst %.c,$(B)/pic/%.o,$(wildcard pangaea_lib/clock/*.c)) \
	$(patsubst %.c,$(B)/pic/%.o,$(wildcard pangaea_lib/engine/*.c)) \
	$(B)/pic/pangaea_lib/clock/clockreal.o $(SO_FORMAT_LIB)
$(MPI_SOLIB): $(MPI_SRC:%.c=$(B)/pic/%.o) $(MPI_ENGINE_PIC)
	@mkdir -p $(dir $@)
	$(CC) $(filter-out $(SANFLAGS),$(LDFLAGS)) -shared -o $@ $^ \
		-Wl,-Bsymbolic-functions \
		$(shell $(MPICC) --showme:link 2>/dev/null)
$(B)/pic-mpich/pangaea_lib/mpi/%.o: pangaea_lib/mpi/%.c
	@mkdir -p $(dir $@)
	$(CC) $(PIC_CFLAGS) $(filter -I% -D%,$(MPICH_SHOW)) -Ipangaea_lib/mpi \
		-include pangaea_lib/clock/clockreal.h -c $< -o $@
$(MPICH_SOLIB): $(MPICH_SRC:%.c=$(B)/pic-mpich/%.o) $(MPI_ENGINE_PIC)
	@mkdir -p $(dir $@)
	$(CC) $(filter-out $(SANFLAGS),$(LDFLAGS)) -shared -o $@ $^ \
		-Wl,-Bsymbolic-functions \
		-Wl,--no-undefined $(filter -L% -l%,$(MPICH_SHOW))
$(B)/examples/mpi/%: examples/mpi/%.c
	@mkdir -p $(dir $@)
	$(MPICC) $(CFLAGS) -Wall -o $@ $<
$(B)/examples/mpi/%: examples/mpi/%.f90
	@mkdir -p $(dir $@)
	$(MPIF90) -O2 -g -Wall -o $@ $<

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(ANALYSIS_LIB): $(ANALYSIS_SRC:%.c=$(B)/obj/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(TRACEDB_LIB): $(TRACEDB_SRC:%.c=$(B)/obj/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# (the archives a tool links, highest layer first)
TOOL_LIBS := $(TRACEDB_LIB) $(ANALYSIS_LIB) $(LIB)

$(B)/bin/pangaea: $(LAUNCHER_SRC:%.c=$(B)/obj/%.o) $(ANALYSIS_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS_PVM_EXE)

$(B)/bin/pangaea-coord: $(COORD_SRC:%.c=$(B)/obj/%.o) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS_EVENT) $(LDLIBS_PVM_EXE)

$(B)/bin/pangaea-trace: $(TRACE_SRC:%.c=$(B)/obj/%.o) $(TOOL_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS_TRACE)

# pangaea-view: C + Tk; its Tcl files are compiled in as one C string.
VIEW_SRC := $(wildcard xview/*.c)
VIEW_CFLAGS := $(shell pkg-config --cflags tk 2>/dev/null || echo -I/usr/include/tcl8.6)
$(B)/obj/xview/%.o: CPPFLAGS += $(VIEW_CFLAGS)
VIEW_TCL := xview/view.tcl xview/hist.tcl xview/output.tcl xview/races.tcl xview/spawn.tcl xview/start.tcl
$(B)/obj/xview/view-tcl.c: $(VIEW_TCL)
	@mkdir -p $(dir $@)
	{ echo '/* made from $(VIEW_TCL) by the Makefile: do not edit */'; \
	  echo 'const char view_tcl_source[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' \
	      -e 's/^/"/' -e 's/$$/\\n"/' $^; echo ';'; } > $@
$(B)/obj/xview/view-tcl.o: $(B)/obj/xview/view-tcl.c
	$(CC) $(ALL_CFLAGS) -Ixview -c $< -o $@
$(B)/bin/pangaea-view: $(VIEW_SRC:%.c=$(B)/obj/%.o) $(B)/obj/xview/view-tcl.o \
		      $(TOOL_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -ltk8.6 -ltcl8.6 -lsqlite3 -lm

# One rule per example: build/examples/NAME from examples/NAME/*.c.
define example_rule
$(B)/examples/$(1): $$(patsubst %.c,$(B)/obj/%.o,$$(wildcard examples/$(1)/*.c)) $(LIB)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS_PVM)
endef
$(foreach e,$(EXAMPLES),$(eval $(call example_rule,$(e))))

# (the tests' sources include checkutil.h by its name; PG_TOP: this
# tree, where tests/unit/fixtures lie)
$(B)/obj/tests/%.o: CPPFLAGS += -Itests/unit -DPG_TOP=\"$(CURDIR)\"
# (a test's prerequisites name its object through test_obj, expanded once
# the stem is known)
.SECONDEXPANSION:

# Check suites share tests/unit/checkutil.c (temporary folders, runner)
# and link every layer's archive: each takes what it tests.
$(B)/tests/check_%: $$(call test_obj,check_$$*) $$(call test_obj,checkutil) \
		    $(B)/obj/coordinator/registry.o $(TOOL_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $$(pkg-config --libs check) $(LDLIBS_PVM) -lsqlite3

# The launcher's table of tasks (toplevel/tasks.c) with what it calls.
$(B)/tests/check_tasks: $$(call test_obj,check_tasks) \
		$$(call test_obj,checkutil) $(B)/obj/toplevel/tasks.o \
		$(B)/obj/toplevel/vm.o $(B)/obj/toplevel/options.o $(ANALYSIS_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $$(pkg-config --libs check) $(LDLIBS_PVM)

# The launcher's lines about lost hosts (toplevel/hosts.c).
$(B)/tests/check_hosts: $$(call test_obj,check_hosts) \
		$$(call test_obj,checkutil) $(B)/obj/toplevel/hosts.o \
		$(B)/obj/toplevel/bindir.o \
		$(B)/obj/toplevel/tasks.o $(B)/obj/toplevel/death.o \
		$(B)/obj/toplevel/vm.o $(B)/obj/toplevel/options.o $(ANALYSIS_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $$(pkg-config --libs check) $(LDLIBS_PVM)

# The launcher's ELF reader (toplevel/program.c).
$(B)/tests/check_program: $$(call test_obj,check_program) \
		$$(call test_obj,checkutil) $(B)/obj/toplevel/program.o \
		$(B)/obj/toplevel/hosts.o $(B)/obj/toplevel/bindir.o \
		$(B)/obj/toplevel/tasks.o \
		$(B)/obj/toplevel/death.o $(B)/obj/toplevel/vm.o \
		$(B)/obj/toplevel/options.o $(ANALYSIS_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $$(pkg-config --libs check) $(LDLIBS_PVM)

$(B)/tests/%: $$(call test_obj,$$*) $(ANALYSIS_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS_PVM)
.SECONDARY: $(TEST_SRC:%.c=$(B)/obj/%.o)

# Benchmarks (bench/run.sh): each bench/NAME.c with the shared helpers.
$(B)/bench/report: $(B)/obj/bench/report.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lm

# The clock's pass alone (no PVM): build/bench/clc.
$(B)/bench/clc: $(B)/obj/bench/clc.o $(B)/obj/logs/analysis/logical-clock.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lm

$(B)/bench/%: $(B)/obj/bench/%.o $(B)/obj/bench/benchlib.o $(ANALYSIS_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS_PVM)
.SECONDARY: $(BENCH_PROGS:%=$(B)/obj/bench/%.o) $(B)/obj/bench/benchlib.o

# The ping-pong and the clock reads as unmodified PVM programs (no
# libpangaea): make bench measures the preload path with them.
$(B)/obj/bench/%-plain.o: bench/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DBENCH_PLAIN -c $< -o $@
$(B)/bench/%-preload: $(B)/obj/bench/%-plain.o \
			     $(B)/obj/bench/benchlib-plain.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS_PVM)

$(B)/lib/pkgconfig/pangaea.pc: pangaea.pc.in Makefile
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(PREFIX)|g' $< > $@

deps:
	@bash scripts/install-deps.sh

unit: $(TEST_BINS)
	@bash tests/run-unit.sh $(B)

# The layer rules alone (tests/layers.py, docs/INTERNALS.md section 2);
# make check runs them as the scenario test layers.
.PHONY: layers
layers: all
	@python3 tests/layers.py $(B)

scenario: all arch $(TEST_BINS) $(BENCH_BINS)
	@bash tests/run-scenarios.sh $(B)

# (CHECK_JOBS=N: scenario tests side by side, default 2)
check: deps
	@$(MAKE) --no-print-directory all arch $(TEST_BINS) $(BENCH_BINS)
	@rc=0; bash tests/run-all.sh $(B) || rc=1; \
	if [ "$(FUZZ)" != 0 ]; then \
		$(MAKE) --no-print-directory fuzz \
			FUZZ_SECONDS=$(FUZZ_CHECK_SECONDS) || rc=1; \
	fi; exit $$rc

# make check with the soak parts of the tests 10 times over (tests/lib.sh SOAK)
.PHONY: check-long
check-long:
	@PANGAEA_TEST_LONG=1 $(MAKE) --no-print-directory check

# The fault soak: SOAK_RUNS runs (default 100) of sor and racy, each with
# one random fault (scripts/soak.sh; SOAK_SEED repeats a run).  Not in
# make check, which runs a sample of it (tests/scenario/soak.sh).
.PHONY: soak
soak: all
	@bash scripts/soak.sh $(B)

demo: deps
	@$(MAKE) --no-print-directory all
	@bash scripts/demo.sh $(B)

bench: deps
	@$(MAKE) --no-print-directory all $(BENCH_BINS)
	@bash bench/run.sh $(B)

# Chaos recording against plain and -delay: recordings per hit of racy's
# crash (bench/chaos.sh; RUNS per case and mode, default 100).
.PHONY: bench-chaos
bench-chaos: all
	@bash bench/chaos.sh $(B) $(RUNS)

# 128 tasks over a 4-host virtual cluster, recorded, replayed, imported
# (bench/hosts_scale.sh; root: it makes and removes the hosts).
.PHONY: bench-hosts
bench-hosts: all
	@bash bench/hosts_scale.sh $(B)

# The overhead correction against plain runs (bench/overhead.sh).
.PHONY: bench-overhead
bench-overhead: all $(B)/bench/pingpong
	@bash bench/overhead.sh $(B)

# A short recorded run against a plain one joining a running virtual
# machine: 9 interleaved pairs of bench/short (bench/startup.sh).
.PHONY: bench-startup
bench-startup: all $(B)/bench/short
	@bash bench/startup.sh $(B)

# Hosts of other architectures (README, "Hosts of other architectures"):
# `make arch` builds libpangaea.so and the examples for each of ARCHS
# with scripts/cross-cc.sh into $(B)/arch/ARCH, and puts each
# libpangaea.so where the dynamic loader's $$LIB (lib/TRIPLET on Debian)
# names it, $(B)/lib/pangaea/lib/TRIPLET/libpangaea.so (this machine's a
# link to lib/pangaea/libpangaea.so): the launcher preloads
# lib/pangaea/$$LIB/libpangaea.so when its virtual machine has hosts of
# more than one architecture.
ARCHS ?= i386 s390x
NATIVE_TRIPLET := $(shell $(CC) -print-multiarch 2>/dev/null)
.PHONY: arch
arch: $(SOLIB)
	@mkdir -p $(B)/lib/pangaea/lib/$(NATIVE_TRIPLET)
	ln -sfn ../../libpangaea.so $(B)/lib/pangaea/lib/$(NATIVE_TRIPLET)/libpangaea.so
	@set -e; for a in $(ARCHS); do \
		t=$$a-linux-gnu; \
		$(MAKE) --no-print-directory CC="bash scripts/cross-cc.sh $$a" \
			BUILDDIR=$(B)/arch/$$a SANITIZE= \
			$(B)/arch/$$a/lib/pangaea/libpangaea.so \
			$(EXAMPLES:%=$(B)/arch/$$a/examples/%); \
		mkdir -p $(B)/lib/pangaea/lib/$$t; \
		cp $(B)/arch/$$a/lib/pangaea/libpangaea.so $(B)/lib/pangaea/lib/$$t/; \
	done

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BINS) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	install -d $(DESTDIR)$(PREFIX)/lib/pangaea
	install -m 755 $(SOLIB) $(DESTDIR)$(PREFIX)/lib/pangaea/
	$(if $(HAVE_MPI),install -m 755 $(MPI_SOLIB) $(DESTDIR)$(PREFIX)/lib/pangaea/)
	$(if $(HAVE_MPICH),install -m 755 $(MPICH_SOLIB) $(DESTDIR)$(PREFIX)/lib/pangaea/)
	for d in $(wildcard $(B)/lib/pangaea/lib/*-linux-gnu); do \
		install -D -m 755 $$d/libpangaea.so \
			$(DESTDIR)$(PREFIX)/lib/pangaea/lib/$$(basename $$d)/libpangaea.so; \
	done
	install -m 644 pangaea_lib/pangaea.h pangaea_lib/pangaea-pvm-calls.def \
		$(DESTDIR)$(PREFIX)/include/
# (the .pc names the PREFIX of this install, not the one of the build)
	sed -e 's|@PREFIX@|$(PREFIX)|g' pangaea.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/pangaea.pc
	chmod 644 $(DESTDIR)$(PREFIX)/lib/pkgconfig/pangaea.pc
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/

clean:
	rm -rf $(B)

# Fuzzing (tests/fuzz/, docs/FUZZING.md): the libFuzzer harnesses, built
# with clang (ASan + UBSan, any report fatal) into $(B)/fuzz, from their
# own objects of the sources they test.  `make fuzz` replays the corpus
# (tests/fuzz/corpus/NAME) then fuzzes each harness FUZZ_SECONDS; `make
# check` does it for FUZZ_CHECK_SECONDS unless FUZZ=0 (the ASan pass of
# .ci/run: the harnesses carry ASan and UBSan already).
FUZZ_CC ?= clang
FUZZ ?= 1
FUZZ_SECONDS ?= 60
FUZZ_CHECK_SECONDS ?= 30
FUZZ_NAMES := comm exec runinfo proto stats import output
FZ := $(B)/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
	    -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=c11 -g -O1 $(filter-out -Wno-format-truncation,$(WARN)) \
	       $(FUZZ_SAN) -fsanitize=fuzzer-no-link $(CPPFLAGS) -MMD -MP
FUZZ_LIB := $(FZ)/libpangaea.a
FUZZ_UTIL := $(FZ)/obj/tests/fuzz/fuzzutil.o
FUZZ_STATS_OBJ := $(patsubst %.c,$(FZ)/obj/%.o,logs/trace/trace-stats.c \
	logs/trace/trace-import.c \
	logs/trace/trace.c logs/trace/svgplot.c $(TRACEDB_SRC))

$(FZ)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

# (the in-task library and the analyses, in one archive)
$(FUZZ_LIB): $(LIB_SRC:%.c=$(FZ)/obj/%.o) $(ANALYSIS_SRC:%.c=$(FZ)/obj/%.o)
	rm -f $@ && ar rcs $@ $^

$(FZ)/fuzz_%: $(FZ)/obj/tests/fuzz/fuzz_%.o $(FUZZ_UTIL) $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS_PVM)

# (the launcher's files but its main, as an archive: what the harness
# calls pulls in what it needs)
$(FZ)/liblauncher.a: $(patsubst %.c,$(FZ)/obj/%.o,$(filter-out \
		     toplevel/main.c,$(LAUNCHER_SRC)))
	rm -f $@ && ar rcs $@ $^

$(FZ)/fuzz_proto: $(FZ)/obj/tests/fuzz/fuzz_proto.o $(FUZZ_UTIL) \
		  $(FZ)/obj/coordinator/registry.o $(FZ)/liblauncher.a \
		  $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS_PVM)

$(FZ)/fuzz_stats: $(FZ)/obj/tests/fuzz/fuzz_stats.o $(FUZZ_UTIL) \
		  $(FUZZ_STATS_OBJ) $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS_TRACE)

$(FZ)/fuzz_import: $(FZ)/obj/tests/fuzz/fuzz_import.o $(FUZZ_UTIL) \
		  $(FUZZ_STATS_OBJ) $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS_TRACE)

# (writes the comm seed of every record kind: see tests/fuzz/mkcomm.c)
$(FZ)/mkcomm: $(FZ)/obj/tests/fuzz/mkcomm.o $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_SAN) -o $@ $^ $(LDLIBS_PVM)

.SECONDARY: $(FUZZ_NAMES:%=$(FZ)/obj/tests/fuzz/fuzz_%.o)

fuzz: $(FUZZ_NAMES:%=$(FZ)/fuzz_%)
	@bash tests/fuzz/run.sh $(FZ) $(FUZZ_SECONDS) $(FUZZ_NAMES)

-include $(shell find $(B)/obj $(B)/pic $(B)/pic-mpich $(B)/fuzz/obj -name '*.d' 2>/dev/null)

# The PVM distribution's examples, built unmodified into $(B)/pvmex/bin
# (the pvmex_* scenario tests build them there themselves when needed).
.PHONY: pvmex
pvmex:
	@bash scripts/pvm-examples.sh $(B)/pvmex

# The README's pictures (docs/img/), drawn again by the tools themselves:
# pangaea-view --show ... --snapshot and pangaea-trace stats --plot.
.PHONY: images
images: all $(B)/tests/outprint
	bash docs/img/make.sh $(B)
