# Where tl-jax corrects TraceLens (the default) on the JAX profile: the
# conv's GEMM kernel (Cijk_...) is GEMM, not Conv; the conv's FLOPs count
# the input channels (16 times TraceLens's); xla_summary strips only the
# instance number of a fusion's name; unique args group by op category.
[ -d "$TRACES/jax" ] || exit 77
tl-parse "$TRACES/jax/jax_conv_minimal.xplane.pb" | tl-jax -C out || exit 1
cat out/kernel_launchers_summary_by_category.csv out/xla_summary.csv
cat out/op_conv.csv out/op_gemm.csv
ls out
