# Two makes of scripts/report.mk at once in one OUT, four jobs each (as
# two users, or a make -j8 run twice): every target of one trace is made
# under a name of its own and renamed into place, so both end well and
# leave the outputs of a make run alone, whole, and no file of their own
# (once, both wrote tables.tmp/ and one removed it under the other).
mk=$TESTDATA/../../scripts/report.mk
mkdir ranks
cp "$TESTDATA/../../samples/bert-h100.json.gz" ranks/rank0.json.gz
cp "$TESTDATA/agg-small.json" ranks/rank1.json
make -s -f "$mk" -j2 TRACES='ranks/*' OUT=ref >/dev/null 2>&1 || exit 1
for i in 1 2 3; do
	rm -rf out
	make -s -f "$mk" -j4 TRACES='ranks/*' OUT=out >/dev/null 2>err1 &
	make -s -f "$mk" -j4 TRACES='ranks/*' OUT=out >/dev/null 2>err2 &
	wait %1
	s1=$?
	wait %2
	s2=$?
	echo "round $i: exit $s1 $s2"

	for r in rank0 rank1; do
		cmp -s ref/$r/tree.tsv out/$r/tree.tsv ||
			echo "round $i: $r/tree.tsv differs"
		diff -r ref/$r/tables out/$r/tables >/dev/null ||
			echo "round $i: $r/tables differ"
		diff -r ref/$r/csv out/$r/csv >/dev/null ||
			echo "round $i: $r/csv differ"
		unzip -tqq out/$r/${r}_perf_report.xlsx >/dev/null 2>&1 ||
			echo "round $i: ${r}_perf_report.xlsx not whole"
	done
	diff -r ref/summary out/summary >/dev/null ||
		echo "round $i: summary differs"
	unzip -tqq out/summary.xlsx >/dev/null 2>&1 ||
		echo "round $i: summary.xlsx not whole"
	(cd out && find . -mindepth 1 -name '.*' -o -name '*.??????' -o \
	    -name '*.tmp') | sed "s/^/round $i: left: /"
done
