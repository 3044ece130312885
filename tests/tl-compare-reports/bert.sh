# The bert reports of h100 and mi300, as tl-agg -C and tl-roofline -t -c
# write them, compared as TraceLens's compare_perf_reports_pytorch does:
# its files, with its names, columns and row order; the same files from
# TraceLens's own perf-report CSVs of the two traces (all but the
# unified perf summary, whose perf-model columns tl-agg leaves empty
# without a perf-model stage); and the workbook.
PATH=$TESTDATA/../../scripts:$PATH
t=gaunernst_bert-small-uncased__1016001
[ -f "$TRACES/mi300/$t.json.gz" ] && [ -f "$TRACES/h100/$t.json.gz" ] ||
	exit 77
for p in h100 mi300; do
	tl-parse "$TRACES/$p/$t.json.gz" | tl-tree >$p.tsv 2>/dev/null || exit 1
	tl-agg -C $p $p.tsv || exit 1
	tl-roofline -t -c $p $p.tsv || exit 1
done
tl-compare-reports h100 mi300 --names h100 mi300 --sheets all \
    --output_csvs_dir out -o cmp.xlsx
echo "exit $?"
for f in out/*.csv; do
	printf '%s %s %s\n' "$(wc -l <"$f")" "$(cksum <"$f")" "$f"
done
echo "== gpu_timeline.csv"
cat out/gpu_timeline.csv
echo "== ops_summary.csv"
cut -d, -f 1-5 out/ops_summary.csv
echo "== the headers"
for f in out/*.csv; do
	echo "$f: $(head -1 "$f" | cut -c 1-300)"
done
echo "== from TraceLens's CSVs"
if [ -d "$TRACES/h100/$t.ref" ] && [ -d "$TRACES/mi300/$t.ref" ]; then
	mkdir ref
	ln -s "$TRACES/h100/$t.ref" ref/h100
	ln -s "$TRACES/mi300/$t.ref" ref/mi300
	tl-compare-reports ref/h100 ref/mi300 --output_csvs_dir out2 -o ''
	echo "exit $?"
	for f in out/*.csv; do
		cmp -s "$f" "out2/${f#out/}" || echo "differs: ${f#out/}"
	done
fi
echo "== the workbook"
[ -s cmp.xlsx ] && echo "cmp.xlsx written"
