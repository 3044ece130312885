# Fidelity: the two graph cases of ../shared/traces/inference merged with
# their capture folders. TraceLens's ops_unique_args.csv names, for each
# op, the uid of its first instance (ex_UID); for a captured op that is
# the uid the merge gives its spliced copy. Every such uid must be, in
# tl-graph's output, an op of the same name that launched GPU work; and
# the number of events after the merge is TraceLens's (the first pseudo
# op's uid, 125345, in vllm_prefilldecode_piecewise). One sglang_decode
# row differs on purpose: TraceLens renames
# sglang_profiler::attention_paged_attention_ragged_<n> with its pseudo
# ops, which tl-graph does not (tl-graph -n does). With -g, fewer events
# are copied, with the same uids and the same last uid.
d=$TRACES/inference
[ -d "$d" ] || exit 77
for c in sglang_decode vllm_prefilldecode_piecewise; do
	echo "$c"
	tl-parse "$d/$c"/*.json.gz | tl-tree -P 2>/dev/null |
	    tl-graph -c "$d/$c/capture_traces" 2>err >m.tsv
	echo "  exit $?"
	sed -e 's/^/  /' -e "s|$d/||" err | grep -v 'tl-tree:'
	awk -F'\t' 'NR > 1 && $1 != "" { n++ } END { print "  " n " events" }' m.tsv
	awk -v lib=1 -f "$TESTDATA/../lib/csvcmp.awk" \
	    -f "$TESTDATA/../tl-graph/exuid.awk" \
	    "$d/$c/perf_csvs/ops_unique_args.csv" m.tsv | sed 's/^/  /'
	echo "  -g:"
	tl-parse "$d/$c"/*.json.gz | tl-tree -P 2>/dev/null |
	    tl-graph -g -c "$d/$c/capture_traces" 2>/dev/null >g.tsv
	awk -F'\t' 'NR > 1 && $1 != "" { n++; if ($1 + 0 > m) m = $1 + 0 }
	    END { print "  " n " events, the last uid " m }' g.tsv
	awk -v lib=1 -f "$TESTDATA/../lib/csvcmp.awk" \
	    -f "$TESTDATA/../tl-graph/exuid.awk" \
	    "$d/$c/perf_csvs/ops_unique_args.csv" g.tsv | sed 's/^/  /'
done
