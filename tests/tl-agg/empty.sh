# Traces with nothing to aggregate give each table's header, with a note on
# stderr: an empty trace, a trace with no GPU events, one whose GPU events
# no launch reaches, and a GPU-only trace (no cpu_op: the ops tables are
# empty, -C writes only the timeline and the kernel files).
printf '{"traceEvents": []}' >empty.json
cat >host.json <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1, "ts": 1, "dur": 2}
]}
JSON
cat >unlinked.json <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1, "dur": 20},
 {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 5, "dur": 3, "args": {"correlation": 9, "stream": 7}}
]}
JSON
cat >gpuonly.json <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 1, "tid": 1, "ts": 1, "dur": 2, "args": {"correlation": 3}},
 {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 3, "pid": 1, "tid": 1, "ts": 1},
 {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 0, "ts": 4, "dur": 2, "args": {"correlation": 3, "stream": 0}},
 {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 3, "pid": 0, "tid": 0, "ts": 4, "bp": "e"}
]}
JSON
for j in empty host unlinked gpuonly; do
	echo "== $j"
	tl-parse $j.json | tl-tree 2>/dev/null >$j.tsv || exit 1
	for t in timeline ops unified kernels short_kernels collectives idle_gaps \
	    launch_delays; do
		tl-agg $t $j.tsv
		echo "exit $?"
	done
	tl-agg -d d-$j $j.tsv
	echo "exit $?"
	ls d-$j | tr '\n' ' '
	echo
	tl-agg -C c-$j $j.tsv
	echo "exit $?"
	ls c-$j | tr '\n' ' '
	echo
done
