# -c and -x on a rocprofv3 JSON and a Perfetto trace, as on Kineto's:
# the rows of the categories left out are not written (their uids are
# not given to others), the trace_file and trace_key rows always are.
for f in "$TESTDATA/rocprof-tiny.json" \
    "$TRACES/pftrace/rocprofv3_synth_b.pftrace"; do
	[ -f "$f" ] || continue
	echo "${f##*/}: all"
	tl-parse "$f" 2>/dev/null | cut -f3 | sort | uniq -c
	echo "-x ac2g"
	tl-parse -x ac2g "$f" 2>/dev/null | cut -f3 | sort | uniq -c
	echo "-c kernel_dispatch"
	tl-parse -c kernel_dispatch "$f" 2>/dev/null | cut -f1,3 | tail -n 2
	tl-parse "$f" 2>/dev/null | awk -F'\t' '$3 != "ac2g"' >want
	tl-parse -x ac2g "$f" 2>/dev/null | cmp - want && echo "-x ac2g: the other rows as they were"
done
# With -v, the rows left out are counted.
tl-parse -v -x ac2g "$TESTDATA/rocprof-tiny.json" 2>&1 >/dev/null |
    sed "s|$TESTDATA/||" | tail -n 1
