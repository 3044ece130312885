# timeout: 600
# A gzip file too large to inflate in one call is inflated by ISA-L, when
# tl is built with it, into a buffer that grows, read in pieces on every
# core; otherwise (or with TL_INFLATE=zlib) by zlib, into a ring of
# chunks read by one thread. The rows, messages and exit status are the
# same either way: on a trace cut into many pieces (events with escapes,
# bad values, left out with -x), on one with a 40 MiB event, where no
# boundary comes before the buffer must wait and the rest is read by one
# thread, and on cut, damaged and two-member files.
gen() {	# events, the giant event's index (0: none)
	awk -v n="$1" -v g="$2" 'BEGIN {
	printf "{\"traceEvents\": [\n";
	x = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	for (i = 0; i < n; i++) {
		s = i ? ",\n" : "";
		m = i % 97;
		if (i == g && g > 0) {
			printf "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": " \
			    "\"giant\", \"pid\": 1, \"tid\": 1, \"ts\": %d, " \
			    "\"dur\": 1, \"args\": {\"blob\": \"", s, i;
			for (k = 0; k < 655360; k++)
				printf "%s", x;
			printf "\"}}";
		} else if (m == 13)
			printf "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": " \
			    "\"esc\\\"q\\u00e9%d\", \"pid\": 1, \"tid\": %d, " \
			    "\"ts\": %d, \"dur\": 3}", s, i, i % 5, i;
		else if (m == 29)
			printf "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": " \
			    "\"k%d\", \"pid\": 0, \"tid\": 7, \"ts\": %d, \"dur\": " \
			    "\"bad\", \"args\": {\"correlation\": %d}}", s, i, i, i;
		else if (m == 41)
			printf "%s{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", " \
			    "\"name\": \"inst\", \"pid\": 1, \"tid\": 1, \"ts\": %d, " \
			    "\"s\": \"t\"}", s, i;
		else
			printf "%s{\"ph\": \"X\", \"cat\": \"%s\", \"name\": " \
			    "\"op%d\", \"pid\": %d, \"tid\": %d, \"ts\": %d.%03d, " \
			    "\"dur\": %d, \"args\": {\"External id\": %d, " \
			    "\"Input Dims\": [[%d, 3], []]}}", s,
			    i % 3 ? "cpu_op" : "kernel", i % 1000, i % 3 ? 1 : 0,
			    i % 11, i, i % 1000, 1 + i % 17, i, i % 64;
	}
	print "\n]}";
	}'
}
gen 460000 0 | gzip -1 >t1.gz &&
gen 200000 100000 | gzip -1 >giant.gz &&
cat t1.gz t1.gz >two.gz || exit 1
/usr/bin/python3 - <<'PY' || exit 1
b = open("t1.gz", "rb").read()
n = len(b)
open("cut.gz", "wb").write(b[:n * 6 // 10])
bad = bytearray(b)
for k in range(n * 7 // 10, n * 7 // 10 + 40):
	bad[k] ^= 0x5a
open("bad.gz", "wb").write(bytes(bad))
PY
run() {	# name file [option ...]
	name=$1 f=$2
	shift 2
	tl-parse "$@" $f >$name.out 2>$name.err
	e=$?
	TL_INFLATE=zlib tl-parse "$@" $f >$name.zout 2>$name.zerr
	z=$?
	echo "$name: exit $e, $(wc -l <$name.out) rows, $(wc -l <$name.err)" \
	    "messages"
	[ $e -eq $z ] && cmp -s $name.out $name.zout &&
	    cmp -s $name.err $name.zerr || echo "$name: not what zlib gives"
}
run t1 t1.gz
run t1-x t1.gz -x cpu_instant_event -a kernel
run giant giant.gz
run cut cut.gz
run bad bad.gz
run two two.gz
grep -hv -e "not a number" -e "more warnings" cut.err bad.err two.err
