# An event whose ts + dur passes the largest time (2^63-1 ns) ends
# there, counted and reported as the other repaired values are, in
# tl-tree and in tl-agg after it; the rest of the trace is as it was.
cat >clip.json <<'END'
{"traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 100, "dur": 50},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 110, "dur": 5, "args": {"correlation": 1000}},
  {"ph": "s", "id": 1000, "pid": 1, "tid": 1, "ts": 110, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel", "name": "K1", "pid": 0, "tid": 7, "ts": 120, "dur": 10, "args": {"correlation": 1000, "stream": 7}},
  {"ph": "f", "id": 1000, "pid": 0, "tid": 7, "ts": 120, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cpu_op", "name": "aten::huge", "pid": 1, "tid": 1, "ts": 200, "dur": 9223372036854775.807}
]}
END
tl-parse clip.json >ev.tsv || exit 1
tl-tree ev.tsv >tree.tsv
echo "exit $?"
tl-tree -p ev.tsv 2>/dev/null
tl-agg ops tree.tsv
echo "exit $?"
