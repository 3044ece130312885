# tl-xdiff on the bert traces, mi300 against h100: every GPU event is in one
# operation and one layer, so the times of the operations, and of the
# layers, add up to each side's total GPU time; layers from the
# nn.Module frames (tl-tree -P), or split at attention kernels.
t=gaunernst_bert-small-uncased__1016001.json.gz
[ -f "$TRACES/mi300/$t" ] && [ -f "$TRACES/h100/$t" ] || exit 77
tl-parse "$TRACES/mi300/$t" | tl-tree >a.tsv 2>/dev/null || exit 1
tl-parse "$TRACES/h100/$t" | tl-tree >b.tsv 2>/dev/null || exit 1
tl-parse "$TRACES/mi300/$t" | tl-tree -P >ap.tsv 2>/dev/null || exit 1
tl-parse "$TRACES/h100/$t" | tl-tree -P >bp.tsv 2>/dev/null || exit 1
total() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["cat"] ~ /^(kernel|gpu_memcpy|gpu_memset)$/ {
		n++; s += $c["dur_ns"] }
	    END { print n, s }' "$1"
}
sums() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    { n1 += $c["count_1"]; n2 += $c["count_2"]
	      s1 += $c["time_ns_1"]; s2 += $c["time_ns_2"] }
	    END { print n1, s1; print n2, s2 }' "$1"
}
echo "== the GPU events of each side: count, ns"
total a.tsv
total b.tsv
tl-xdiff -o out a.tsv b.tsv 2>err
echo "exit $?"
cat err
echo "== the operations add up"
sums out/ops.tsv
echo "== the layers add up"
sums out/layers.tsv
echo "== the kernels add up"
awk -F'\t' 'NR > 1 { n[$2] += $5; s[$2] += $6 }
    END { print n[1], s[1]; print n[2], s[2] }' out/kernels.tsv
cut -f 1-11 out/ops.tsv
cut -f 1-10 out/layers.tsv
echo "== with nn.Module frames"
tl-xdiff -t layers ap.tsv bp.tsv >layers.tsv
echo "exit $?"
sums layers.tsv
cut -f 1-10 layers.tsv
echo "== thresholds that make the gaps count"
tl-xdiff -g 0.01 a.tsv b.tsv | cut -f 1,2,10
tl-xdiff -t layers -G 0.01 -r 10 ap.tsv bp.tsv 2>/dev/null | cut -f 1,2,9,10
