# A JSON file cut in the middle: the complete events come out, then a
# located message and status 1; the same cut inside a string, a number, a
# key, and after the last event.
head -c 500 "$TESTDATA/flow.json" >cut.json || exit 1
tl-parse cut.json >out
echo "cut: exit $?"
cut -f1-8 out
printf '{"traceEvents": [{"ph": "X", "name": "cut here' >cut-string.json
printf '{"traceEvents": [{"ph": "X", "ts": 12' >cut-number.json
printf '{"traceEvents": [{"ph": "X", "ts": 1}, {"ph' >cut-key.json
printf '{"traceEvents": [{"ph": "X", "ts": 1}' >cut-after.json
printf '{"traceEvents": [{"ph": "X", "ts": 1}],\n' >cut-toplevel.json
for f in cut-string cut-number cut-key cut-after cut-toplevel; do
	tl-parse $f.json >/dev/null
	echo "$f: exit $?"
done
