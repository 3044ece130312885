# -C: TraceLens's CSV files for the small trace: pandas's quoting, Python's
# float repr (100.0), argument lists as tuples, kernel details as lists of
# dicts with np.float64 values, a name with a quote in double quotes,
# integer columns with a missing value printed as floats.
ln -s "$TESTDATA/agg-small.json" . || exit 1
tl-parse agg-small.json | tl-tree 2>/dev/null >tree.tsv ||
    exit 1
tl-agg -C out tree.tsv
echo "exit $?"
for f in out/*.csv; do
	echo "== $f"
	cat "$f"
done
