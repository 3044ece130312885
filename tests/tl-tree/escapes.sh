# Names with escaped bytes and string pids: the stream keeps the escapes,
# -p prints them as the stream has them, and -e matches pid and tid as the
# stream writes them. An empty trace gives the header and its fact rows.
cat >t.json <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "tab\there\\back", "pid": "Spans", "tid": "a b", "ts": 1, "dur": 10, "args": {"External id": 7}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": "Spans", "tid": "a b", "ts": 2, "dur": 1, "args": {"correlation": 9}},
 {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 9, "pid": "Spans", "tid": "a b", "ts": 2},
 {"ph": "X", "cat": "kernel", "name": "new\nline", "pid": 0, "tid": 7, "ts": 3, "dur": 2, "args": {"correlation": 9}},
 {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 9, "pid": 0, "tid": 7, "ts": 3, "bp": "e"}
]}
JSON
tl-parse t.json | tl-tree | cut -f1,4,5,6,21-25
tl-parse t.json | tl-tree -p
tl-parse t.json | tl-tree -p -e 7,Spans,'a b'
printf '{"traceEvents": []}' >empty.json
tl-parse empty.json | tl-tree
echo "exit $?"
