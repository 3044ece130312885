# The JAX profile through the generic pipeline: tl-tree's tree has the
# XLA op rows between the module's execution and the launches; tl-agg's
# ops carry the JAX categories; tl-roofline models the conv from the op
# row's HLO facts (with -t, TraceLens's spatial-only filter: the 2.288
# GFLOPS of its op_conv sheet); tl-diff -X compares the profile with a
# PyTorch conv model by kernel class (the conv's GEMM is Convolution).
[ -d "$TRACES/jax" ] || exit 77
tl-parse "$TRACES/jax/jax_conv_minimal.xplane.pb" >ev
tl-tree ev >tree
tl-tree -p ev 2>/dev/null | grep -B1 -A4 'cudnn\$convForward' | head -6 |
    cut -c1-100
tl-agg ops tree
tl-agg ops_summary_by_category tree 2>/dev/null | cut -f1-3
tl-roofline -a MI300X -s CONV_fwd tree | cut -f1-11
tl-roofline -t -a MI300X -s CONV_fwd tree | cut -f1,4,9,10
tl-parse "$TRACES/h100/facebook_timesformer-base-finetuned-k400__1016002.json.gz" |
    tl-tree >pt 2>/dev/null
tl-diff -X tree pt 2>/dev/null | cut -f1-6,19,20 | grep -E '^(operation|Convolution|Copy)'
echo "status $?"
