# Twenty-eight interruptions, twelve of tl-report, eight of tl-compare
# and eight of tl-compare-reports, at moments spread over their runs,
# SIGKILL, SIGTERM, SIGINT and SIGPIPE in turn, to the script alone (its
# stages are left to it, or to its guard).
# SIGKILL cannot be caught: the script's guard, a process of its own
# session, stops the stages and removes the scratch and the private
# directories once the script is gone. Whatever the moment: no scratch
# is left in TMPDIR, no private directory beside an output, no stage
# still running; a run that did not exit 0 leaves no output under its
# final name (but for a SIGKILL in the milliseconds between the script's
# first rename and its exit: each is whole then); one that did leaves
# them all, whole.
report=$TESTDATA/../../scripts/tl-report
compare=$TESTDATA/../../scripts/tl-compare
TMPDIR=$PWD/tmp
export TMPDIR
mkdir tmp out
cp "$TESTDATA/../../samples/bert-h100.json.gz" t.json.gz || exit 1
# settle NAME: wait (10 s at most) until the guard has done its work.
settle() {
	n=0
	while [ $n -lt 100 ]; do
		[ -z "$(ls -A tmp)" ] && [ -z "$(ls -A out | grep '^\.')" ] &&
			[ -z "$(ls -A "out/$1" 2>/dev/null | grep '^\.')" ] &&
			! pgrep -f "out/$1" >/dev/null && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}
# whole XLSX [DIR]: the workbook and the CSV files there read back; with
# -a, all of them are there.
whole() {
	all=0
	[ "$1" = -a ] && { all=1; shift; }
	if [ -e "$1" ]; then
		unzip -tqq "$1" >/dev/null 2>&1 || return 1
	elif [ $all -eq 1 ]; then
		return 1
	fi
	[ -z "$2" ] && return 0
	[ $all -eq 0 ] || ls "$2"/*.csv >/dev/null 2>&1 || return 1
	for f in "$2"/*.csv; do
		[ -e "$f" ] || continue
		/usr/bin/python3 -c 'import csv, sys
list(csv.reader(open(sys.argv[1], newline="")))' "$f" 2>/dev/null ||
			return 1
	done
}
# trial PROG I SIGNAL SECONDS ARGS...
trial() {
	p=$1 i=$2 sig=$3 d=$4
	shift 4
	"$@" 2>/dev/null &
	pid=$!
	sleep "$d"
	kill -s "$sig" $pid 2>/dev/null
	wait $pid
	st=$?
	if ! settle "$p$i"; then
		echo "$p $i ($sig at $d s): left:" $(ls -A tmp) $(ls -A out \
		    "out/$p$i" 2>/dev/null | grep '^\.' | sed 's/\..*//') \
		    $(pgrep -f "out/$p$i" >/dev/null && echo stages)
		bad=1
		rm -rf tmp/* out/.??*
	fi
	outs=0
	{ [ -e "out/$p$i.xlsx" ] || [ -n "$(ls "out/$p$i" 2>/dev/null)" ]; } &&
		outs=1
	# A SIGKILL between the script's first rename and its exit (a
	# few milliseconds) leaves outputs there, each whole, under status
	# 137.
	dir=
	[ "$p" != c ] && dir=out/$p$i
	if [ $st -ne 0 ] && [ $outs -eq 1 ] && { [ $st -ne 137 ] ||
	    ! whole "out/$p$i.xlsx" $dir; }
	then
		echo "$p $i ($sig at $d s): exit $st, and outputs"
		bad=1
	elif [ $st -eq 0 ] && ! whole -a "out/$p$i.xlsx" $dir; then
		echo "$p $i ($sig at $d s): exit 0, outputs not whole"
		bad=1
	fi
}
bad=0
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	set -- KILL TERM INT PIPE
	shift $((i % 4))
	trial r $i "$1" "$(awk -v i=$i 'BEGIN { print 0.02 * i }')" \
	    "$report" -o "out/r$i.xlsx" --output_csvs_dir "out/r$i" t.json.gz \
	    2>/dev/null
done
echo "12 trials of tl-report: $([ $bad -eq 0 ] && echo clean || echo NOT clean)"
bad=0
for i in 1 2 3 4 5 6 7 8; do
	set -- KILL TERM INT PIPE
	shift $((i % 4))
	trial c $i "$1" "$(awk -v i=$i 'BEGIN { print 0.08 * i }')" \
	    "$compare" -n a,b -o "out/c$i.xlsx" t.json.gz t.json.gz 2>/dev/null
done
echo "8 trials of tl-compare: $([ $bad -eq 0 ] && echo clean || echo NOT clean)"
"$report" --enable_kernel_summary --output_csvs_dir rep t.json.gz \
    2>/dev/null || exit 1
cmpreports=$TESTDATA/../../scripts/tl-compare-reports
bad=0
for i in 1 2 3 4 5 6 7 8; do
	set -- KILL TERM INT PIPE
	shift $((i % 4))
	trial p $i "$1" "$(awk -v i=$i 'BEGIN { print 0.015 * i }')" \
	    "$cmpreports" rep rep --names a b -o "out/p$i.xlsx" \
	    --output_csvs_dir "out/p$i" 2>/dev/null
done
echo "8 trials of tl-compare-reports: $([ $bad -eq 0 ] && echo clean ||
    echo NOT clean)"
