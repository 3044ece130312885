# tl: GPU profiler trace analysis as small filters over one TSV stream.
include config.mk

BIN = bin/tl-parse bin/tl-tree
LIBOBJ = common/err.o common/mem.o common/tsv.o common/input.o \
	common/json.o common/intern.o common/interval.o
HDR = common/err.h common/mem.h common/tsv.h common/input.h \
	common/json.h common/intern.h common/interval.h
UNIT = tests/unit/t-tsv tests/unit/t-json tests/unit/t-intern \
	tests/unit/t-input
MAN1 = man/tl-parse.1 man/tl-tree.1
MAN5 = man/tl-tsv.5
MAN7 = man/tl.7

all: deps $(BIN)

deps:
	@scripts/deps

common/libtl.a: $(LIBOBJ)
	rm -f $@
	ar rcs $@ $(LIBOBJ)

$(LIBOBJ): $(HDR)

.c.o:
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

bin/tl-%: filters/tl-%.c common/libtl.a $(HDR)
	@mkdir -p bin
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< common/libtl.a $(LIBS)

tests/unit/t-%: tests/unit/t-%.c tests/unit/unit.h common/libtl.a $(HDR)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< common/libtl.a $(LIBS)

check: all $(UNIT) lint
	@tests/run

lint: deps
	@scripts/lint-man $(MAN1) $(MAN5) $(MAN7)

demo: all
	@scripts/demo

bench: all
	@scripts/bench

install: all
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANPREFIX)/man1 \
		$(DESTDIR)$(MANPREFIX)/man5 $(DESTDIR)$(MANPREFIX)/man7
	cp -f $(BIN) $(DESTDIR)$(PREFIX)/bin/
	cp -f $(MAN1) $(DESTDIR)$(MANPREFIX)/man1/
	cp -f $(MAN5) $(DESTDIR)$(MANPREFIX)/man5/
	cp -f $(MAN7) $(DESTDIR)$(MANPREFIX)/man7/

uninstall:
	for f in $(BIN); do rm -f $(DESTDIR)$(PREFIX)/bin/$${f#bin/}; done
	for f in $(MAN1) $(MAN5) $(MAN7); do \
		rm -f $(DESTDIR)$(MANPREFIX)/man$${f##*.}/$${f#man/}; done

clean:
	rm -rf bin common/*.o common/libtl.a $(UNIT) tests/out

.PHONY: all deps check lint demo bench install uninstall clean
.DELETE_ON_ERROR:
