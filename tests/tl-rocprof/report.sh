# tl-report on rocprofv3 inputs, by content and by --pftrace_report: the
# default workbook names TraceLens uses (beside the input), --write_md's
# Markdown beside it, the CSV files of --output_csvs_dir (the rocprof
# report's instead of the workbook), --traceconv accepted and ignored,
# and no JSON written beside a .pftrace.
report=$TESTDATA/../../scripts/tl-report
d=$TRACES/pftrace
[ -f "$d/rocprofv3_synth_b.pftrace" ] || exit 77
cp "$TESTDATA/rocprof-small.json" run_results.json
cp "$d/rocprofv3_synth_b.pftrace" run.pftrace
"$report" run_results.json --kernel_details || echo "exit $?"
"$report" --profile_json_path run_results.json --output_csvs_dir csv \
    --short_kernel_study --tracelens || echo "exit $?"
"$report" --pftrace_report hip_activity --trace_path run.pftrace \
    --write_md --traceconv /no/traceconv 2>/dev/null || echo "exit $?"
"$report" --pftrace_report hip_api --trace_path run.pftrace \
    --output_csvs_dir api 2>/dev/null || echo "exit $?"
"$report" --pftrace_report memory_copy --trace_path=run.pftrace \
    2>/dev/null || echo "exit $?"
ls -R . | grep -v '^$'
for f in *.xlsx; do
	echo "$f: $(unzip -l "$f" | grep -c 'worksheets/sheet[0-9]*.xml')" \
	    "sheets"
done
head -n 3 run_report.md
