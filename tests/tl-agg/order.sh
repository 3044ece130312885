# Events out of time order in the stream (tl-parse's uids are their
# order in the trace file; tl-roofline -p moves the ops it models to the
# end): the children of aten::linear and the roots come by uid out of
# time order, and every table has them by time as with a stream in order.
cat >order.json <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "kernel", "name": "gemm_b", "pid": 0, "tid": 7, "ts": 160, "dur": 30, "args": {"correlation": 8, "stream": 7}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 150, "dur": 2, "args": {"correlation": 8}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 140, "dur": 20, "args": {"Input Dims": [[64, 128], [128, 256]], "Input type": ["float", "float"], "Input Strides": [[128, 1], [256, 1]], "Concrete Inputs": ["", ""]}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 110, "dur": 10, "args": {"Input Dims": [[64], [64]], "Input type": ["float", "float"], "Input Strides": [[1], [1]], "Concrete Inputs": ["", ""]}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 112, "dur": 2, "args": {"correlation": 6}},
 {"ph": "X", "cat": "kernel", "name": "add_k", "pid": 0, "tid": 7, "ts": 120, "dur": 4, "args": {"correlation": 6, "stream": 7}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 100, "dur": 70, "args": {"Input Dims": [[64, 128], [256, 128]], "Input type": ["float", "float"], "Input Strides": [[128, 1], [128, 1]], "Concrete Inputs": ["", ""]}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 20, "args": {"Input Dims": [[64, 128], [128, 256]], "Input type": ["float", "float"], "Input Strides": [[128, 1], [256, 1]], "Concrete Inputs": ["", ""]}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 12, "dur": 2, "args": {"correlation": 4}},
 {"ph": "X", "cat": "kernel", "name": "gemm_a", "pid": 0, "tid": 7, "ts": 40, "dur": 25, "args": {"correlation": 4, "stream": 7}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::copy_", "pid": 1, "tid": 2, "ts": 50, "dur": 5, "args": {"Input Dims": [[64], [64]], "Input type": ["float", "float"], "Input Strides": [[1], [1]], "Concrete Inputs": ["", "False"]}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 2, "ts": 51, "dur": 3, "args": {"correlation": 9}},
 {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoD (Device -> Device)", "pid": 0, "tid": 8, "ts": 70, "dur": 6, "args": {"correlation": 9, "stream": 8}}
]}
JSON
tl-parse order.json | tl-tree 2>/dev/null | tl-roofline -t -p >perf.tsv ||
	exit 1
tl-agg unified perf.tsv
tl-agg ops perf.tsv
tl-agg timeline perf.tsv
tl-agg kernels perf.tsv
tl-agg -C out perf.tsv && cat out/unified_perf_summary.csv out/ops_unique_args.csv
# flop written otherwise than as an integer: the same numbers.
awk -F '\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "flop") f = i }
    $1 == 2 { $f = "4.194304e6" } $1 == 3 { $f = "64.0" } { print }' \
    perf.tsv >perf2.tsv
tl-agg unified perf.tsv >u1.tsv && tl-agg unified perf2.tsv >u2.tsv &&
	! cmp -s perf.tsv perf2.tsv && cmp u1.tsv u2.tsv && echo "flop: the same"
