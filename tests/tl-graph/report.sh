# Fidelity of the inference report: tl-report --inference on the three
# cases of ../shared/traces/inference, with the flags (and the capture
# folders) TraceLens's references were made with; every sheet compared
# with TraceLens's CSV cell by cell (cellmatch.awk: columns by name, rows
# by position, numbers within 1e-6 relative), the share of cells equal
# written per sheet. The sheet left below 100% is the unified perf
# summary of xdit_sd_3.5, whose call stacks differ where TraceLens leaves
# a python frame out of its tree (see tl-tree(1), CAVEATS).
d=$TRACES/inference
[ -d "$d" ] || exit 77
report=$TESTDATA/../../scripts/tl-report
for c in sglang_decode vllm_prefilldecode_piecewise xdit_sd_3.5; do
	set -- --enable_pseudo_ops --group_by_parent_module \
	    --group_by_num_kernels --include_call_stack
	[ -d "$d/$c/capture_traces" ] &&
		set -- "$@" --capture_folder "$d/$c/capture_traces"
	"$report" --inference --profile_json_path "$d/$c"/*.json.gz \
	    --output_csvs_dir "$c" "$@" 2>/dev/null || echo "$c: exit $?"
	for f in "$d/$c/perf_csvs"/*.csv; do
		s=${f##*/}
		o=$c/$s
		[ -f "$o" ] || o=-
		awk -v name="$c ${s%.csv}" \
		    -v lib=1 -f "$TESTDATA/../lib/csvcmp.awk" \
		    -f "$TESTDATA/../tl-graph/cellmatch.awk" "$f" "$o"
	done
	for f in "$c"/*.csv; do
		[ -f "$d/$c/perf_csvs/${f##*/}" ] ||
			echo "$c ${f##*/}: written, TraceLens writes none"
	done
done
