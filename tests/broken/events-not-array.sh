# "traceEvents" that is not an array: an object (one event, unwrapped), a
# string (the array encoded twice), a number. No events come out; the
# value is kept as a trace_key row and a located warning says why;
# status 0, or 1 with -s.
cd "$TESTDATA/broken" || exit 1
for f in events-object events-string events-number; do
	tl-parse $f.json >"$OLDPWD/$f.tsv"
	echo "$f: exit $?"
	tl-parse -s $f.json >/dev/null 2>&1
	echo "$f -s: exit $?"
	cut -f3,4,19 "$OLDPWD/$f.tsv"
done
