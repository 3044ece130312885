# tl: GPU profiler trace analysis as small filters over one TSV stream.
#
# Every filters/tl-NAME.c is a program, linked with its private sources in
# filters/tl-NAME/ (if any) and with libtl (every common/*.c); every
# man/*.[157] is a page. LIBS_tl-NAME adds libraries for one program.
include config.mk

PROGS = $(notdir $(basename $(wildcard filters/tl-*.c)))
BIN = $(PROGS:%=bin/%)
LIBOBJ = $(patsubst %.c,%.o,$(wildcard common/*.c))
HDR = $(wildcard common/*.h)
UNIT = $(patsubst %.c,%,$(wildcard tests/unit/t-*.c))
MAN1 = $(wildcard man/*.1)
MAN5 = $(wildcard man/*.5)
MAN7 = $(wildcard man/*.7)
SHARE = $(wildcard share/tl/*.* share/tl/*/*)
FUZZ = $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
REPLAY = $(FUZZ:%=tests/fuzz/replay-%)
SCRIPTS = scripts/tl-report scripts/tl-report-rocprof \
	$(wildcard scripts/tl-compare*)
SCRIPTS += scripts/tl-report-inference
SCRIPTS += scripts/tl-collective-report

LIBS_tl-xlsx = -lxlsxwriter -Wl,--export-dynamic-symbol=deflateInit2_ \
	-Wl,--export-dynamic-symbol=lxw_tmpfile

all: deps $(BIN)

deps:
	@scripts/deps

common/libtl.a: $(LIBOBJ)
	rm -f $@
	ar rcs $@ $(LIBOBJ)

$(LIBOBJ): $(HDR)

# The packages first, also under make -j.
$(LIBOBJ) $(BIN): | deps

.c.o:
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

.SECONDEXPANSION:
bin/tl-%: filters/tl-%.c $$(wildcard filters/tl-%/*.[ch]) common/libtl.a \
		$(HDR)
	@mkdir -p bin
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.c,$^) \
		common/libtl.a $(LIBS_tl-$*) $(LIBS)

tests/unit/t-%: tests/unit/t-%.c tests/unit/unit.h common/libtl.a $(HDR)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< common/libtl.a $(LIBS)

# A fuzz target with the regression driver: replays its corpus in make
# check (tests/fuzz/replay.sh), with the normal compiler.
tests/fuzz/replay-%: tests/fuzz/fuzz-%.c tests/fuzz/driver.c \
		tests/fuzz/fuzz.h common/libtl.a $(HDR)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/fuzz/fuzz-$*.c \
		$(FUZZSRC_$*) tests/fuzz/driver.c common/libtl.a $(LIBS)

# fuzz-jscan runs tl-parse's own code, fuzz-tree tl-tree's (all its
# sources).
tests/fuzz/replay-jscan .fuzz/fuzz-jscan: filters/tl-parse.c \
		$(wildcard filters/tl-parse/*.[ch])
FUZZSRC_jscan = $(wildcard filters/tl-parse/*.c)
tests/fuzz/replay-memtl .fuzz/fuzz-memtl: filters/tl-hta/memtl.c \
		filters/tl-hta/memtl.h
tests/fuzz/replay-tree .fuzz/fuzz-tree: filters/tl-tree.c \
		$(wildcard filters/tl-tree/*.[ch])
tests/fuzz/replay-replay .fuzz/fuzz-replay: $(wildcard filters/tl-replay/*.[ch])
tests/fuzz/replay-xplane .fuzz/fuzz-xplane: filters/tl-parse/xplane.c \
		filters/tl-parse/hlo.c filters/tl-parse/xpevents.c \
		filters/tl-parse/xplane.h filters/tl-parse/xpint.h
tests/fuzz/replay-graph .fuzz/fuzz-graph: filters/tl-graph.c \
		$(wildcard filters/tl-graph/*.[ch])
tests/fuzz/replay-ranks .fuzz/fuzz-ranks: $(wildcard filters/tl-ranks/*.[ch])
tests/fuzz/replay-rankmap .fuzz/fuzz-rankmap: $(wildcard filters/tl-ranks/*.[ch])
tests/fuzz/replay-pftrace .fuzz/fuzz-pftrace tests/fuzz/replay-rocprof \
		.fuzz/fuzz-rocprof: $(wildcard filters/tl-parse/*.[ch]) \
		tests/fuzz/amdreader.h

check: all $(UNIT) $(REPLAY) lint
	@tests/run

lint: deps
	@scripts/lint-man $(MAN1) $(MAN5) $(MAN7)

# The whole suite on a build with AddressSanitizer and UndefinedBehavior-
# Sanitizer, made in a copy of the tree (.asan/), and under valgrind.
# Leaks at a fatal error's exit are not errors; valgrind checks leaks;
# cases that measure memory skip themselves when TL_SANITIZED is set.
SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
check-asan: deps
	rm -rf .asan && mkdir .asan
	cp -R Makefile config.mk README common filters man scripts samples tests \
		$$(test -d share && echo share) .asan/
	rm -rf .asan/tests/out
	$(MAKE) -C .asan clean
	ASAN_OPTIONS=detect_leaks=0 TL_SANITIZED=1 \
		TL_TRACES=$(CURDIR)/../shared/traces \
		$(MAKE) -C .asan check CFLAGS="$(CFLAGS) -O1 $(SANFLAGS)" \
		LDFLAGS="$(SANFLAGS)"

# libFuzzer: each target built with clang and the sanitizers in .fuzz/,
# then run for FUZZ_SECONDS on tests/fuzz/corpus/NAME (new inputs go to
# .fuzz/corpus-NAME, crashes to tests/fuzz/crashes/NAME/); make fuzz
# FUZZ=NAME runs one. scripts/deps fuzz installs clang first if it is
# missing; make check never needs it.
FUZZ_SECONDS = 60
FUZZCC = clang
FUZZCFLAGS = -std=c11 -g -O1 -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
FUZZSAN = address,undefined
FUZZOBJ = $(LIBOBJ:common/%.o=.fuzz/%.o)
.PRECIOUS: .fuzz/%.o
FUZZBIN = $(FUZZ:%=.fuzz/fuzz-%)

.fuzz/%.o: common/%.c $(HDR)
	@mkdir -p .fuzz
	$(FUZZCC) $(CPPFLAGS) $(FUZZCFLAGS) \
		-fsanitize=fuzzer-no-link,$(FUZZSAN) -c -o $@ $<

.fuzz/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz.h $(FUZZOBJ)
	$(FUZZCC) $(CPPFLAGS) $(FUZZCFLAGS) -fsanitize=fuzzer,$(FUZZSAN) \
		-o $@ tests/fuzz/fuzz-$*.c $(FUZZSRC_$*) $(FUZZOBJ) $(LIBS)

fuzz:
	@scripts/deps fuzz
	$(MAKE) $(FUZZBIN)
	@scripts/fuzz $(FUZZ_SECONDS) $(FUZZ)

check-valgrind: all $(UNIT) $(REPLAY)
	@VALGRIND=1 tests/run

demo: all
	@scripts/demo

bench: all
	@scripts/bench

install: all
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANPREFIX)/man1 \
		$(DESTDIR)$(MANPREFIX)/man5 $(DESTDIR)$(MANPREFIX)/man7
	cp -f $(BIN) $(SCRIPTS) $(DESTDIR)$(PREFIX)/bin/
	sed 's/^version=@VERSION@/version=$(VERSION)/' scripts/libtl.sh \
		>$(DESTDIR)$(PREFIX)/bin/libtl.sh
	for f in $(MAN1) $(MAN5) $(MAN7); do \
		sed 's,/usr/local/share/tl/,$(PREFIX)/share/tl/,g' $$f \
		    >$(DESTDIR)$(MANPREFIX)/man$${f##*.}/$${f#man/}; done
	if [ -n "$(SHARE)" ]; then for f in $(SHARE); do \
		mkdir -p $(DESTDIR)$(PREFIX)/$$(dirname $$f) && \
		cp -f $$f $(DESTDIR)$(PREFIX)/$$f; done; fi
	cp -f scripts/report.mk $(DESTDIR)$(PREFIX)/share/tl/

uninstall:
	for f in $(PROGS) $(notdir $(SCRIPTS)) libtl.sh; do \
		rm -f $(DESTDIR)$(PREFIX)/bin/$$f; done
	for f in $(MAN1) $(MAN5) $(MAN7); do \
		rm -f $(DESTDIR)$(MANPREFIX)/man$${f##*.}/$${f#man/}; done
	rm -rf $(DESTDIR)$(PREFIX)/share/tl

clean:
	rm -rf bin common/*.o common/libtl.a $(UNIT) $(REPLAY) tests/out \
		.asan .fuzz

.PHONY: all deps check check-asan check-valgrind fuzz lint demo bench \
	install uninstall clean
.DELETE_ON_ERROR:
