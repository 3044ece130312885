# Transformer Engine fused attention and a cuBLAS GEMM (JAX 0.8 layout,
# one GPU): the CK flash-attention kernels keep FA FWD / FA BWD, the
# other kernels of the TE custom calls are TE; the op sheets use the
# jax_te_fused_attn model (forward and backward) and jax_gemm.
tl-parse "$TESTDATA/xplane/te.xplane.pb" | tl-jax -C out || exit 1
ls out
cat out/kernel_launchers_summary_by_category.csv out/op_fa_fwd.csv \
    out/op_fa_bwd.csv out/op_te.csv out/op_gemm.csv
