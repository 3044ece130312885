# tl-report --pftrace_report hip_api: the workbook has the latency
# breakdown T = A + Q + K of each (API, kernel) row as a stacked bar on a
# chart sheet: the means of the API time, the queue wait and the kernel
# time, in that order, one bar per row named by its kernel.
report=$TESTDATA/../../scripts/tl-report
d=$TRACES/pftrace
[ -f "$d/rocprofv3_synth_a.pftrace" ] || exit 77
cp "$d/rocprofv3_synth_a.pftrace" run.pftrace
"$report" --pftrace_report hip_api --trace_path run.pftrace 2>/dev/null ||
    echo "exit $?"
unzip -l run_pftrace_hip_api_report.xlsx | awk '{ print $4 }' |
    grep -E '^xl/(worksheets|chartsheets|charts)/[a-z]*[0-9]*\.xml$' | sort
unzip -p run_pftrace_hip_api_report.xlsx xl/charts/chart1.xml |
    grep -o '<c:grouping val="[a-z]*"/>\|<c:tx><c:strRef><c:f>[^<]*</c:f>'
