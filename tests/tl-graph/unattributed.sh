# The GPU time of a graph replay that no op is charged with: without the
# capture folder, vllm_prefilldecode_piecewise's graph kernels stay under
# their graph launches; tl-agg's timeline has one more row for them
# (not in TraceLens's CSV file, but in graph_launch_unattributed.csv
# with -C), and tl-report --inference's workbook has it in its
# gpu_timeline sheet while the CSV files stay TraceLens's. With the
# captures merged, there is none.
d=$TRACES/inference/vllm_prefilldecode_piecewise
[ -d "$d" ] || exit 77
report=$TESTDATA/../../scripts/tl-report
tl-parse "$d/graph_execution.json.gz" | tl-tree 2>/dev/null >tree.tsv
tl-agg timeline tree.tsv 2>/dev/null | grep graph_launch
tl-agg -C c tree.tsv 2>/dev/null
ls c | grep -c .
cat c/graph_launch_unattributed.csv
tl-graph -c "$d/capture_traces" tree.tsv 2>/dev/null | tl-agg timeline |
    grep -c graph_launch
"$report" --inference --profile_json_path "$d/graph_execution.json.gz" \
    --output_xlsx_path v.xlsx --output_csvs_dir csv 2>/dev/null
echo "exit $?"
ls csv | grep -c graph_launch
/usr/bin/python3 -c 'import openpyxl
ws = openpyxl.load_workbook("v.xlsx")["gpu_timeline"]
for r in ws.iter_rows(min_row=ws.max_row, values_only=True): print(r[0])'
