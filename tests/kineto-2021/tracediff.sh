# TraceDiff between a 2021 trace and a trace of today's generation of the
# same run: the ResNet-50 trace of the profiler API, and the same events
# written as today's Kineto writes them (to-today.py: today's categories,
# ac2g flows, args spelled as today, times in fractional microseconds from
# a base). tl-tree builds the same tree of both, column for column, and
# tl-diff finds them the same (exit 0), TraceDiff's files included. Then
# the two 2021 traces, which differ (exit 1).
command -v python3 >/dev/null 2>&1 || exit 77
a=$TRACES/kineto-2021/resnet50_num_workers_0.pt.trace.json.gz
b=$TRACES/kineto-2021/resnet50_autograd_api_num_workers_0.pt.trace.json.gz
[ -f "$a" ] && [ -f "$b" ] || exit 77
python3 "$TESTDATA/../kineto-2021/to-today.py" "$a" today.json || exit 1
tl-parse "$a" | tl-tree >old.tsv || exit 1
tl-parse today.json | tl-tree >new.tsv || exit 1
tl-parse "$b" | tl-tree >api.tsv || exit 1
# The tree columns of the event rows, by uid, and the categories.
treecols() {
	awk -F'\t' -v OFS='\t' '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["uid"] != "" { print $c["uid"], $c["cat"], $c["parent"],
	    $c["depth"], $c["root"], $c["launcher"], $c["linked"],
	    $c["gpu_kernel_time_ns"], $c["subtree_kernel_time_ns"],
	    $c["fwd_uid"], $c["bwd_uids"], $c["nn_module"] }' "$1"
}
treecols old.tsv >old.cols
treecols new.tsv >new.cols
cmp old.cols new.cols && echo "the same tree: $(wc -l <old.cols) rows"
tl-diff -q old.tsv new.tsv
echo "tl-diff -q exit $?"
tl-diff -T -o td old.tsv new.tsv
echo "tl-diff -T exit $?"
ls td
tl-diff -q api.tsv old.tsv >/dev/null
echo "tl-diff -q, the two 2021 traces: exit $?"
