# A rocprofv3 JSON, recognised by content: metadata and agents as
# trace_key rows, one row per buffer record with its kind and operation
# named through the file's strings table, the kernel's truncated name,
# grid, block, agent, queue, registers and LDS in args, a marker named by
# its message. Bad records: a kernel_id not in kernel_symbols, an end
# before the start, a kind the table lacks: located warnings. Then the
# JSON cut in the middle (an error at its byte, exit 1), a record that is
# not valid JSON (skipped, warned), and buffer_records before the name
# tables (read at the end, names resolved).
tl-parse "$TESTDATA/rocprof-tiny.json" >out 2>err
echo "exit $?"
sed "s|$TESTDATA/||" err
cut -f1-13,19 out | sed "s|$TESTDATA/||"
head -c 1300 "$TESTDATA/rocprof-tiny.json" >cut.json
tl-parse cut.json >/dev/null
echo "exit $?"
sed 's/"kind":3,"operation":2,"thread_id":7,"correlation_id":{"internal":2/"kind":3,"operation":2,"thread_id":7 "x" ,"correlation_id":{"internal":2/' \
    "$TESTDATA/rocprof-tiny.json" >bad.json
tl-parse bad.json | cut -f1-4
echo "exit $?"
python3 - "$TESTDATA/rocprof-tiny.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
t = d['rocprofiler-sdk-tool'][0]
order = ['metadata', 'buffer_records', 'agents', 'strings', 'kernel_symbols']
d['rocprofiler-sdk-tool'][0] = {k: t[k] for k in order}
json.dump(d, open('late.json', 'w'), indent=1)
PY
tl-parse late.json 2>/dev/null | cut -f1-6 | tail -n 6
