# -a: the events of the categories listed have an empty args column, the
# keys of args with columns of their own still in them; the rest of
# every row, and the other events, as without -a.
cat >t.json <<'E'
{"traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 50, "args": {"External id": 3, "Record function id": 0}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 20, "dur": 5, "args": {"External id": 3, "cbid": 211, "correlation": 9}},
 {"ph": "X", "cat": "python_function", "name": "a.py(1): f", "pid": 1, "tid": 1, "ts": 5, "dur": 80, "args": {"Python parent id": null, "Python id": 1}},
 {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 30, "dur": 10, "args": {"correlation": 9, "stream": 7, "grid": [1, 1, 1]}}
]}
E
tl-parse t.json >full || exit 1
tl-parse -a cuda_runtime -a python_function t.json >noargs || exit 1
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
    { print $c["uid"], $c["cat"], $c["correlation"], $c["external_id"], "[" $c["args"] "]" }' noargs
awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "args") a = i }
    { $a = "" } NR == FNR { full[$0] = 1; next } !($0 in full) { print "differs: " $0 }' full noargs
