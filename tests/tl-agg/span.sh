# A stream that spans more than 64 bits of nanoseconds (kernels at -9e18
# and +9e18 ns): times since the first event are taken in floating point
# rather than wrapped around, so the total is 1.8e13 ms, not a few
# hundred billion, and there is no signed overflow (UBSan).
printf '{"traceEvents": [\n' >span.json
printf '{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": -9000000000000000, "dur": 1, "args": {"correlation": 1}},\n' >>span.json
printf '{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 9000000000000000, "dur": 1, "args": {"correlation": 2}}\n' >>span.json
printf ']}\n' >>span.json
tl-parse span.json | tl-tree 2>/dev/null | tl-agg -a timeline | grep total_time
