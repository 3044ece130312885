# Twenty interruptions at moments spread over a report's run (SIGTERM,
# SIGINT, SIGHUP, SIGPIPE in turn, from 0.05 s to 1 s): whatever the
# moment, no scratch directory is left in TMPDIR; a run that did not
# exit 0 leaves no workbook under its final name; a workbook that is
# there is whole (every member reads back), and so is every CSV file
# that is there. The same for tl-compare. (SIGKILL, which cannot be
# caught, in tests/hostile/kill.sh.)
report=$TESTDATA/../../scripts/tl-report
TMPDIR=$PWD/tmp
export TMPDIR
mkdir tmp
cp "$TESTDATA/../../samples/bert-h100.json.gz" t.json.gz
bad=0
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	set -- TERM INT HUP PIPE
	shift $((i % 4))
	d=$(awk -v i=$i 'BEGIN { print 0.05 * i }')
	timeout --preserve-status -s "$1" "$d" "$report" -o "b$i.xlsx" --output_csvs_dir "c$i" \
	    t.json.gz 2>/dev/null
	st=$?
	if [ -n "$(ls -A tmp)" ]; then
		echo "trial $i ($1 at $d s): scratch left"
		bad=1
		rm -rf tmp/*
	fi
	if [ $st -ne 0 ] && [ -e "b$i.xlsx" ]; then
		echo "trial $i ($1 at $d s): exit $st, and a workbook"
		bad=1
	fi
	if [ -e "b$i.xlsx" ] && ! unzip -tqq "b$i.xlsx" >/dev/null 2>&1; then
		echo "trial $i ($1 at $d s): a broken workbook"
		bad=1
	fi
	for f in "c$i"/*.csv; do
		[ -f "$f" ] || continue
		/usr/bin/python3 -c 'import csv, sys
list(csv.reader(open(sys.argv[1], newline="")))' "$f" 2>/dev/null || {
			echo "trial $i: $f cut"
			bad=1
		}
	done
done
echo "20 trials: $([ $bad -eq 0 ] && echo clean || echo NOT clean)"
# And eight of tl-compare's run, from 0.2 s to 1.6 s.
compare=$TESTDATA/../../scripts/tl-compare
bad=0
for i in 1 2 3 4 5 6 7 8; do
	set -- TERM INT HUP PIPE
	shift $((i % 4))
	d=$(awk -v i=$i 'BEGIN { print 0.2 * i }')
	timeout --preserve-status -s "$1" "$d" "$compare" -n a,b \
	    -o "cmp$i.xlsx" t.json.gz t.json.gz 2>/dev/null
	st=$?
	[ -z "$(ls -A tmp)" ] || { echo "compare $i: scratch left: $(ls -A tmp | sed "s/\..*//")"; bad=1; }
	if [ $st -ne 0 ] && [ -e "cmp$i.xlsx" ]; then
		echo "compare $i ($1 at $d s): exit $st, and a workbook"
		bad=1
	fi
	rm -rf tmp/*
done
echo "8 trials of tl-compare: $([ $bad -eq 0 ] && echo clean || echo NOT clean)"
