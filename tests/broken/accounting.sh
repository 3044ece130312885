# Nothing lost: for every trace under $TRACES (TraceLens's and HTA's,
# the TraceDiff pair included) and every trace of the catalogue that
# Python's json reads (tests/data/broken, the odd traces of the tl-parse
# cases, a 100 MB string), the entries of traceEvents, counted by Python
# (tests/lib/count-events.py), equal the rows tl-parse writes for events
# plus the events it skips plus those -c or -x leave out, as its summary
# line (-v) counts them; and the summary's count of events read is that
# number too. Without a filter, with -x and with -c; one line per trace:
# COUNT = ROWS + SKIPPED + LEFT OUT, for each of the three.
command -v python3 >/dev/null 2>&1 || exit 77
[ -d "$TRACES" ] || exit 77
ln -s "$TRACES" traces && ln -s "$TESTDATA" data || exit 1
{
	printf '{"traceEvents": [{"ph": "X", "name": "'
	head -c 100000000 /dev/zero | tr '\0' a
	printf '", "ts": 1}, {}]}'
} >huge.json || exit 1
# (rocprofv3 JSON has no traceEvents: tl-parse reads its records.)
find traces/ \( -name '*.ref' -prune \) -o \( -path traces/rocprof -prune \) \
    -o \( -name '*.json' -o \
    -name '*.json.gz' -o -name '*.zip' \) -print | LC_ALL=C sort >list
ls data/broken/*.json data/broken/cut.json.gz data/skipped.json \
    data/bad-values.json data/repairs.json data/flow.json.gz \
    data/two.zip >>list
echo huge.json >>list
# Python counts while tl-parse runs.
python3 "$TESTDATA/../lib/count-events.py" $(cat list) >count &
# tally FILE [OPTION]: "NAME<TAB>ROWS<TAB>SKIPPED<TAB>READ<TAB>LEFT" for
# each trace into FILE, from the rows' uid and trace columns (1 and 21
# with -t; cut, since awk may be slow on a 100 MB line) and from the
# summary lines.
tally() {
	f=$1
	shift
	tl-parse -t -v "$@" $(cat list) 2>err | cut -f1,21 >rows
	sed -n 's/^tl-parse: \(.*\): \([0-9]*\) of \([0-9]*\) events skipped, [0-9]* values cleared, [0-9]* values with repaired strings\(, \([0-9]*\) left out by -c or -x\)*$/\1	\2	\3	\5/p' \
	    err >sum
	awk -F'\t' 'FILENAME == "sum" { s[$1] = $2; n[$1] = $3
		l[$1] = $4 == "" ? 0 : $4; next }
	FNR > 1 && $1 != "" { r[$2]++ }
	END { for (t in n) print t "\t" r[t] + 0 "\t" s[t] "\t" n[t] "\t" l[t] }
	' sum rows >$f
}
tally all
tally x -x python_function,cpu_instant_event
tally c -c kernel
wait $! || exit 1
awk -F'\t' '
FILENAME == "count" { want[$1] = $2; order[++k] = $1; next }
{ f = FILENAME; rows[f, $1] = $2; skip[f, $1] = $3; nread[f, $1] = $4
  left[f, $1] = $5; seen[f, $1] = 1 }
END {
	split("all x c", mode, " ")
	for (i = 1; i <= k; i++) {
		t = order[i]
		line = t ": " want[t]
		ok = 1
		for (j = 1; j <= 3; j++) {
			f = mode[j]
			if (!seen[f, t]) {
				line = line ", no summary"
				ok = 0
				continue
			}
			line = line (j == 1 ? " = " : ", ") rows[f, t] " + " \
			    skip[f, t] " + " left[f, t]
			if (nread[f, t] != want[t] ||
			    rows[f, t] + skip[f, t] + left[f, t] != want[t])
				ok = 0
		}
		print line (ok ? "" : "  MISMATCH")
	}
}' count all x c
