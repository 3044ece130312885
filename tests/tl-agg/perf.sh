# The perf-model columns of "unified" come from the columns flop, bytes,
# compute_spec and params that a perf-model stage adds to the rows of
# the ops it models; here awk adds them to the two aten::addmm rows (M 4,
# K 16, N 8, with bias, float: 1056 FLOP, 928 bytes). Each kernel runs
# 12.5 us: 8.448e-05 TFLOP/s (to the last bit, as TraceLens computes it)
# and 7.424e-05 TB/s. The CSV shows
# perf_params as a Python dict with tuples.
ln -s "$TESTDATA/agg-small.json" . || exit 1
tl-parse agg-small.json | tl-tree 2>/dev/null |
awk -F'\t' -v OFS='\t' '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
	print $0, "flop", "bytes", "compute_spec", "params"; next }
$c["name"] == "aten::addmm" {
	print $0, 1056, 928, "vector_fp32", "{\"M\":4,\"N\":8,\"K\":16," \
	    "\"bias\":true,\"stride_A\":[16,1],\"stride_B\":[1,16]," \
	    "\"dtype_A_B\":[\"float\",\"float\"],\"B\":1}"; next }
{ print $0, "", "", "", "" }' >tree.tsv || exit 1
tl-agg unified tree.tsv 2>/dev/null | head -2 | cut -f1,10-25,38-40
tl-agg -C out tree.tsv 2>/dev/null
head -2 out/unified_perf_summary.csv
# A value that is not a number is an error.
awk -F'\t' -v OFS='\t' 'NR > 1 && $4 == "aten::addmm" { $(NF - 3) = "lots" }
    { print }' tree.tsv | tl-agg unified >/dev/null
echo "exit $?"
