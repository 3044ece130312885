# A JSON trace cut at every kind of place, each cut made from one small
# trace (tests/data/broken/cut.json, on one line): the file up to the end
# of the first MARK, or its first K bytes. One line each: the exit status,
# the events written (those complete before the cut), the message.
# A cut trace is an error (status 1), located by event and byte; a bare
# array may end without its "]" (the man page), which is no error.
t=$TESTDATA/broken/cut.json
cutat() {	# NAME MARK [K]: the trace up to MARK, or K bytes of it
	m=$2
	# The mark goes through the environment: -v would take \u as an
	# escape.
	M=$m awk -v k="${3:-${#m}}" '{
		m = ENVIRON["M"]
		i = index($0, m)
		if (i == 0) { print "no mark: " m >"/dev/stderr"; exit 1 }
		printf "%s", substr($0, 1, i - 1 + k) }' "$t" >"$1.json"
}
cutat empty '{' 0
cutat in-first-key '"schemaVer'
cutat in-traceEvents '"traceEv'
cutat after-traceEvents '"traceEvents"'
cutat after-colon '"traceEvents":'
cutat after-bracket '"traceEvents": ['
cutat in-event '{"ph": "X"'
cutat in-key '"ca'
cutat after-key '"cat"'
cutat after-key-colon '"cat":'
cutat in-string '"cpu_o'
cutat in-number '"ts": 100.'
cutat in-number-digits '"ts": 10'
cutat in-true '"flag": tr'
cutat in-null '"none": nu'
cutat in-nested-object '"nested": {'
cutat in-nested-args '"shape": [4,'
cutat in-escape '\u00'
cutat in-utf8 'é' 1
cutat between-events '}}, '
cutat in-second-event '"name": "mark"'
cutat after-last-event '"s": "t"}'
cutat after-events '"t"}]'
cutat after-events-comma '"t"}], '
cutat in-last-key '"displayTime'
cutat in-last-value '"displayTimeUnit": "m'
cutat before-brace '"ms"'
cp "$t" whole.json
# A bare array: cut after an event or its comma is its end; in an event,
# it is cut; a last element with no closing byte (a number) is read, and
# skipped as it is not an object.
printf '[{"ph": "X", "ts": 1}, {"ph": "X", "ts": 2}' >bare-open.json
printf '[{"ph": "X", "ts": 1}, {"ph": "X", "ts": 2},\n' >bare-comma.json
printf '[{"ph": "X", "ts": 1}, {"ph": "X", "ts' >bare-in-event.json
printf '[{"ph": "X", "ts": 1}, 42' >bare-number.json
for f in empty in-first-key in-traceEvents after-traceEvents after-colon \
    after-bracket in-event in-key after-key after-key-colon in-string \
    in-number in-number-digits in-true in-null in-nested-object \
    in-nested-args in-escape in-utf8 between-events in-second-event \
    after-last-event after-events after-events-comma in-last-key \
    in-last-value before-brace whole bare-open bare-comma bare-in-event \
    bare-number; do
	msg=$(tl-parse $f.json 2>&1 >out.tsv)
	st=$?
	n=$(awk -F'\t' 'NR > 1 && $1 != ""' out.tsv | wc -l)
	echo "$f: $st, $n events${msg:+: $msg}"
done
# The rows before the cut are written as they are.
tl-parse between-events.json 2>/dev/null | cut -f1-8
