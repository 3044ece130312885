# A report directory written again: the CSV files this run did not write
# (an earlier run's, of other flags) are named on the standard error and
# left as they are, by the scripts that write a directory of CSV files
# through putout (here the rocprof report); tl-report's perf report
# removes its own sheets' leftovers (tl-report/outputs).
report=$TESTDATA/../../scripts/tl-report
cp "$TESTDATA/rocprof-small.json" run_results.json
"$report" --profile_json_path run_results.json --output_csvs_dir csv \
    --short_kernel_study 2>err || echo "exit $?"
cat err
ls csv
"$report" --profile_json_path run_results.json --output_csvs_dir csv \
    2>err || echo "exit $?"
cat err
ls csv
