# The three ways of scanning (TL_JSCAN: byte by byte, SSE2, AVX2) read
# every input alike: the test data, the broken-input catalogue and the
# fuzz corpus, each as a file and from a pipe, give the same rows,
# messages and exit status each way; and so does a trace of 2 MB, read
# in pieces by several threads, with events that need messages and
# "}, {" inside a string across pieces. A name that is no way is an
# error.
ways="portable sse2"
grep -qw avx2 /proc/cpuinfo 2>/dev/null && ways="$ways avx2"
run() {	# run WAY FILE: what tl-parse writes of FILE, both ways in
	TL_JSCAN=$1 tl-parse -v "$2" 2>err
	echo "exit $?"
	cat err
	cat "$2" | TL_JSCAN=$1 tl-parse -v 2>err
	echo "exit $?"
	cat err
}
n=0 differ=0
for f in "$TESTDATA"/*.json* "$TESTDATA"/broken/* \
    "$TESTDATA"/../fuzz/corpus/jscan/* "$TESTDATA"/../fuzz/corpus/trace/*; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	run portable "$f" >want
	for w in $ways; do
		run "$w" "$f" >got
		cmp -s want got || { differ=$((differ + 1)); echo "$w: $f"; }
	done
done
[ "$n" -gt 40 ] && echo "$n inputs: differ $differ"
awk 'BEGIN {
	printf "{\"traceEvents\": [";
	for (i = 0; i < 20000; i++) {
		nm = "op" i;
		if (i % 997 == 5)
			nm = "tab\there";
		if (i % 1999 == 7)
			nm = "bad\377utf8";
		if (i == 9000)
			for (j = 0; j < 20000; j++)
				nm = nm "}, {";
		printf "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", " \
		    "\"pid\": 1, \"tid\": 2, \"ts\": %d.5, \"dur\": 1, " \
		    "\"args\": {\"External id\": %d}}", i ? ", " : "", nm, i, i;
	}
	printf "], \"traceName\": \"t\"}";
}' >big.json
# Each way, in pieces (a file) and by one thread (a pipe: a regular
# file on standard input is held whole too), against one thread byte by
# byte.
cat big.json | TL_JSCAN=portable tl-parse -v >want 2>wanterr
same=0 nways=0
for w in $ways; do
	nways=$((nways + 1))
	TL_JSCAN=$w tl-parse -v big.json >a 2>aerr
	cat big.json | TL_JSCAN=$w tl-parse -v >b 2>berr
	sed 1,2d a >a.rows
	sed 1,2d b >b.rows
	sed 1,2d want >want.rows
	sed 's|big\.json|<stdin>|' aerr >aerr2
	cmp -s a.rows want.rows && cmp -s b.rows want.rows &&
	    cmp -s aerr2 wanterr && cmp -s berr wanterr && same=$((same + 1))
done
[ "$same" -eq "$nways" ] && echo "pieces and one thread: the same each way"
cat wanterr
TL_JSCAN=mmx tl-parse big.json >/dev/null
echo "exit $?"
