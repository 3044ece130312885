# TraceLens's command line: which files each flag makes. Without an
# output flag, the workbook goes beside the trace, named after it (the
# part before the last ".json", then "_perf_report.xlsx"); with
# --output_csvs_dir alone, only CSV files. kernel_summary.csv with
# --enable_kernel_summary, the short-kernel files with
# --short_kernel_study, coll_analysis.csv unless --disable_coll_analysis
# (bert has no collectives). --flag=value works too. Flags TraceLens has
# and tl-report does not are accepted with a warning.
report=$TESTDATA/../../scripts/tl-report
cp "$TESTDATA/../../samples/bert-h100.json.gz" my.trace.json.gz || exit 1
"$report" my.trace.json.gz
echo "exit $?"
ls
"$report" --profile_json_path my.trace.json.gz --output_csvs_dir a
echo "exit $?"
ls a
"$report" --profile_json_path=my.trace.json.gz --output_csvs_dir=b \
    --enable_kernel_summary --short_kernel_study \
    --short_kernel_threshold_us=5 --short_kernel_histogram_bins 4 \
    --topk_short_kernels 2 --topk_ops 3 --disable_coll_analysis \
    --include_unlinked_kernels --micro_idle_thresh_us 20 \
    --detect_recompute --python_path /usr/bin/python3
echo "exit $?"
ls b
cat b/short_kernel_histogram.csv
awk 'END { print NR - 1 " short kernel rows" }' b/short_kernels_summary.csv
cut -d, -f1,2 b/gpu_timeline.csv
"$report" my.trace.json.gz --output_tsvs_dir t --gpu_arch_platform h100
echo "exit $?"
ls t
head -n 3 t/GEMM.tsv | cut -f 1,2,10,26-29
