# -s turns warnings (skipped events, cleared values, repaired strings)
# into exit status 1; the rows are written all the same. A clean trace
# still exits 0.
s=$PWD
cd "$TESTDATA" || exit 1
for f in skipped.json bad-values.json repairs.json flow.json; do
	tl-parse -s $f >/dev/null 2>&1
	echo "$f: exit $?"
	tl-parse $f >/dev/null 2>&1
	echo "$f without -s: exit $?"
done
tl-parse -s skipped.json >"$s/strict" 2>/dev/null
tl-parse skipped.json >"$s/lax" 2>/dev/null
cmp "$s/strict" "$s/lax" && echo "same rows"
