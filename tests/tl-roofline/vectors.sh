# TraceLens's perf-model test vectors (../shared/spec/perf-model-vectors.tsv:
# 466 events with the FLOPs, bytes, parameters, compute spec and sheet
# TraceLens computes for them) made into one tree stream
# (vectors-tree.awk) and run through tl-roofline -t: each vector's row
# is checked (vectors-cmp.awk), the Triton kernels' rows from -t -p; the
# vectors that differ are listed, then the count that pass, then the
# number of op names reported as "not in tl-roofline" without -p.
# One vector differs on purpose (tl-roofline(1), CAVEATS): row 218, a
# five-input moe_aiter_fused_1stage whose bfloat16 activation TraceLens
# gives as input_dtype None.
spec=$TRACES/../spec/perf-model-vectors.tsv
[ -f "$spec" ] || exit 77
here=$TESTDATA/../tl-roofline
awk -f "$here/vectors-tree.awk" "$spec" >tree.tsv || exit 1
tl-roofline -t tree.tsv >out 2>err
echo "exit $?"
# Inductor's Triton kernels have a row with -p only (and no sheet).
tl-roofline -t -p tree.tsv 2>/dev/null | awk -F'\t' '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["model"] == "triton"' >>out
awk -f "$here/vectors-cmp.awk" "$spec" out
echo "$(grep -c 'is not in tl-roofline' err) op names not in tl-roofline"
