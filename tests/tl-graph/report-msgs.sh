# The inference report's messages are in its own words: a note that
# names tl-agg's flag names the report's (--include_unlinked_kernels),
# and the kernels no launch reaches are told once (tl-agg's note, not
# tl-tree's as well). xdit_sd_3.5 has one such kernel.
t=$TRACES/inference/xdit_sd_3.5/profile_trace_rank_0.json.gz
[ -f "$t" ] || exit 77
"$TESTDATA/../../scripts/tl-report" --inference --profile_json_path "$t" \
    --output_csvs_dir c 2>err
echo "exit $?"
grep -c . err | sed 's/^/lines: /'
grep 'not linked' err | sed 's/^[^:]*: [^:]*: //'
