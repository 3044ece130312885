# An XPlane profile through the PyTorch pipeline: tl-tree links every GPU
# event to its launch (flow rows, and correlation ids unique across the
# GPUs of a JAX 0.8 profile), and tl-agg's tables follow; then the real
# profile of ../shared (the case is skipped without it).
[ -d "$TRACES/jax" ] || exit 77
out=$PWD
cd "$TESTDATA/xplane" || exit 1
tl-parse jax08.xplane.pb | tl-tree >"$out/tree"
cd "$out" || exit 1
tl-agg timeline tree
tl-agg ops tree
tl-parse "$TRACES/jax/jax_conv_minimal.xplane.pb" | tl-tree | tl-agg ops
