# The TraceLens reference: baseline = mi300 bert, variant = h100 bert. With
# -T, every file TraceLens's TraceDiff writes is the same, byte for byte.
[ -d "$TRACES/diff/bert_mi300_vs_h100.ref" ] || exit 77
ref=$TRACES/diff/bert_mi300_vs_h100.ref
t=gaunernst_bert-small-uncased__1016001.json.gz
tl-parse "$TRACES/mi300/$t" | tl-tree >a.tsv 2>/dev/null || exit 1
tl-parse "$TRACES/h100/$t" | tl-tree >b.tsv 2>/dev/null || exit 1
tl-diff -T -o out a.tsv b.tsv
echo "exit $?"
for f in merged_tree_output.txt diff_stats.csv \
    diff_stats_unique_args_summary.csv cpu_op_map.json \
    cpu_op_map_trace1.json cpu_op_map_trace2.json; do
	cmp "$ref/$f" "out/$f" && echo "same: $f"
done
ls out | wc -l
# The default mode on the same pair: the launches of the two vendors pair
# up, so most lowest common nodes are a launch or a kernel, not the op.
tl-diff -t ops a.tsv b.tsv
echo "exit $?"
tl-diff -t lca a.tsv b.tsv | awk -F'\t' '
	NR == 1 { next }
	$2 ~ /Launch/ { n["launch"]++; next }
	$2 ~ /^aten::/ { n["op"]++; next }
	{ n["kernel"]++ }
	END { for (k in n) print k, n[k] }' | sort
