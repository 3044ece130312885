# TE fused attention and a cuBLAS GEMM through the generic pipeline: the
# XLA op rows are named by their custom calls, tl-agg puts them in
# SDPA_fwd, SDPA_bwd and GEMM, and tl-roofline's jax_te_fused_attn(_bwd)
# and jax_gemm give the FLOPs and bytes of tl-jax's op sheets (te.sh:
# 0.134217728, 0.33554432 and 0.268435456 GFLOPS; 2, 3.5 and 1.75 MB).
tl-parse "$TESTDATA/xplane/te.xplane.pb" | tl-tree >tree 2>/dev/null
tl-agg ops tree 2>/dev/null | cut -f1,2,5
tl-roofline -a MI300X tree 2>/dev/null | awk -F'\t' '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["sheet"] != "" { print $c["name"], $c["sheet"], $c["model"], $c["flop"],
    $c["bytes"] / 1048576, $c["compute_spec"] }'
