# Perf models need the input types: an op of the 2021 generation without
# them ("Input type" absent, or empty beside its input dims) is counted
# as without a perf row by that reason, and no dtype is guessed. The
# ResNet-50 trace of the autograd profiler API gives no types; that of
# the profiler API does, and its GEMM ops are modelled in their dtype.
cd "$TESTDATA/../kineto-2021" || exit 1
tl-parse small.json | tl-tree | tl-roofline -a H100 -s GEMM
echo "exit $?"
cd "$OLDPWD" || exit 1
t=$TRACES/kineto-2021/resnet50_autograd_api_num_workers_0.pt.trace.json.gz
[ -f "$t" ] || exit 77
tl-parse "$t" | tl-tree | tl-roofline -a H100 -s GEMM 2>err
echo "exit $?"
sed 's/^[^:]*: [^:]*: //' err
t=$TRACES/kineto-2021/resnet50_num_workers_0.pt.trace.json.gz
tl-parse "$t" | tl-tree | tl-roofline -a H100 -s GEMM 2>err |
    cut -f1-4,8,10,26,36,45
echo "exit $?"
sed 's/^[^:]*: [^:]*: //' err
