# A sheet that one report has and the other lacks (a model with and
# without convolutions, eager vs SDPA attention): its rows are all
# only-baseline or only-variant, as an outer merge has them, with a note
# naming the report by its tag; the rest of the comparison is written
# as before. A sheet no report has is not compared; ops_summary, which
# the comparison needs, is an error when no report has it.
t=$TESTDATA/../../samples/bert-h100.json.gz
tl-parse "$t" | tl-tree | tl-roofline -t -p -c a | tl-agg -C a || exit 1
cp -R a b
rm b/GEMM.csv a/BinaryElementwise.csv
tl-cmpreport -n base,var -o out a b
echo "exit $?"
tl-cmpreport -n base,var -o rev b a
echo "exit $?"
for d in out rev; do
	for f in "$d"/GEMM* "$d"/bin_eltwise*; do
		[ -f "$f" ] && echo "$f: $(wc -l <"$f") lines"
	done
done
mkdir c d
tl-cmpreport -o out2 c d
echo "exit $?"
