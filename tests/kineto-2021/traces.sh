# On every trace of the 2021 generation under $TRACES/kineto-2021 (two
# ResNet-50 traces of the TensorBoard plugin's samples, and any other put
# there): what tl must reach, each figure computed independently from the
# raw JSON by python3 (see ./check): tl-report exits 0; at least 99% of
# the kernels linked; the ops table holds at least 95% of the GPU time;
# the timeline's computation time is the union of the Kernel and Memset
# intervals; no op without input types gets a perf row. The figures of
# the two given traces, and a FAIL line for anything not reached.
command -v python3 >/dev/null 2>&1 || exit 77
set -- "$TRACES"/kineto-2021/*.json.gz
[ -f "$1" ] || exit 77
"$TESTDATA"/../kineto-2021/check "$@" >out
echo "exit $?"
grep -E '^resnet50_(autograd_api_)?num_workers_0\.pt\.trace\.json\.gz: ' out
grep '^FAIL' out
exit 0
