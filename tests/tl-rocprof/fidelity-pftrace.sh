# TraceLens's three pftrace reports on both rocprofv3-shaped Perfetto
# traces (newer and older writer), with the five flag sets of the
# references: every CSV cell for cell at 1e-6 relative, read from the
# protobuf and from the traceconv JSON of the same trace; the Markdown of
# the newer writer's activity report byte for byte.
d=$TRACES/pftrace
[ -f "$d/rocprofv3_synth_a.pftrace" ] || exit 77
run() {	# out-dir input
	tl-rocprof activity -o "$1/hip_activity" --md "$1/report.md" "$2"
	tl-rocprof activity --min_event_ns 0 --kernel_summary_group name \
	    --kernel_summary_include_rccl --hip_summary_group name+stream+op \
	    --merge_kernels -o "$1/hip_activity_min0_name" "$2"
	tl-rocprof api -o "$1/hip_api" "$2"
	tl-rocprof api --include_nonlaunch_apis --allow_multi_kernel_per_api \
	    --exclude_kernel_regex '' -o "$1/hip_api_all" "$2"
	tl-rocprof memcpy -o "$1/memory_copy" "$2"
}
for v in a b; do
	tl-parse "$d/rocprofv3_synth_$v.pftrace" >pf.$v 2>/dev/null
	tl-parse "$d/rocprofv3_synth_$v.json" >js.$v
	run pf-$v pf.$v
	run js-$v js.$v
	(cd "$d/rocprofv3_synth_$v.ref" && find . -name '*.csv' | sort) |
	while read -r f; do
		f=${f#./}
		for o in pf js; do
			awk -v tol=1e-6 -v name="$v $o $f" \
			    -f "$TESTDATA/../lib/csvcmp.awk" \
			    "$d/rocprofv3_synth_$v.ref/$f" "$o-$v/$f"
		done
	done
done
cmp "$d/rocprofv3_synth_a.ref/hip_activity/report.md" pf-a/report.md &&
	echo "a: report.md the same"
# The older writer's integer agents: TraceLens's Markdown step fails on
# them; tl prints them.
grep Agents pf-b/report.md
