# Times are exact integer nanoseconds: a 5.792 us kernel that starts at
# 1419247333430.849 us is 5.792 us busy. TraceLens adds start and duration
# as doubles and gets 5.7919921875; -T (and -C) do the same.
cat >t.json <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1419247333430.1, "dur": 20, "args": {"Input Dims": [[2, 3], [3, 4]], "Input type": ["float", "float"], "Input Strides": [[3, 1], [4, 1]], "Concrete Inputs": ["", ""]}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1419247333430.5, "dur": 0.3, "args": {"correlation": 5}},
 {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 5, "pid": 1, "tid": 1, "ts": 1419247333430.5},
 {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 1419247333430.849, "dur": 5.792, "args": {"correlation": 5, "stream": 7}},
 {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 5, "pid": 0, "tid": 7, "ts": 1419247333430.849, "bp": "e"}
]}
JSON
tl-parse t.json | tl-tree >tree.tsv || exit 1
tl-agg ops tree.tsv
tl-agg -T ops tree.tsv
tl-agg -C out tree.tsv && cat out/ops_summary.csv
