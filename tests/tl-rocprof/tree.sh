# tl-tree and tl-agg on a Perfetto trace read by tl-parse: every kernel
# is linked to the hip_api call of its correlation id (through the ac2g
# flow rows tl-parse writes after it) and the call gets its kernel time;
# the memory copies, whose ids no call has, stay unlinked. tl-agg's
# kernel table by launcher and stream.
d=$TRACES/pftrace
[ -f "$d/rocprofv3_synth_a.pftrace" ] || exit 77
tl-parse "$d/rocprofv3_synth_a.pftrace" 2>/dev/null | tl-tree >tree.tsv \
    2>err || echo "exit $?"
sed "s|$d/||" err
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["ph"] == "X" && $c["cat"] != "hip_api" { print $c["uid"], $c["cat"],
    substr($c["name"], 1, 30), "launcher=" $c["launcher"] }
$c["cat"] == "hip_api" { print $c["uid"], $c["name"],
    "kernel_ns=" $c["gpu_kernel_time_ns"] }' tree.tsv
tl-agg -d agg tree.tsv 2>/dev/null || echo "tl-agg: exit $?"
cut -f1,3-6 agg/kernels.tsv
