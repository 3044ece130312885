# The workbook: TraceLens's sheets in TraceLens's order, then the HTA
# sheets, each read back with openpyxl and compared with the streams
# --output_tsvs_dir writes (every row and cell); the secondary columns
# hidden; charts on the timeline, the ops and the roofline sheets, with
# the H100's roofline drawn (--gpu_arch_platform).
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null || exit 77
report=$TESTDATA/../../scripts/tl-report
rb=$TESTDATA/../tl-xlsx/readback.py
"$report" --profile_json_path "$TESTDATA/../../samples/bert-h100.json.gz" \
    --output_xlsx_path bert.xlsx --output_tsvs_dir tsv \
    --enable_kernel_summary --short_kernel_study --gpu_arch_platform H100
echo "exit $?"
set --
for s in gpu_timeline ops_summary_by_category ops_summary ops_unique_args \
    unified_perf_summary GEMM SDPA_fwd BinaryElementwise Normalization \
    kernel_summary short_kernel_histogram short_kernels_summary \
    hta_temporal_breakdown hta_idle_time_breakdown hta_idle_interval_stats \
    hta_comm_comp_overlap hta_cuda_kernel_launch_stats streams; do
	set -- "$@" "$s=tsv/$s.tsv"
done
/usr/bin/python3 "$rb" bert.xlsx "$@"
echo "exit $?"
/usr/bin/python3 -c '
import openpyxl
wb = openpyxl.load_workbook("bert.xlsx")
for c in wb["GEMM chart"]._charts:
    print("GEMM:", [s.tx.v for s in c.series])'
# Nasty text: names with a comma, quotes, a backslash, a TAB and a LF go
# through the CSV files (quoted) into the streams (escaped) and the
# workbook unchanged.
sed 's/"aten::gelu"/"aten::ge,\\"l\\"u\\\\x\\ty\\nz"/; s/"gelu_kernel_µ"/"k,\\"\\"\\""/' \
    "$TESTDATA/agg-small.json" >nasty.json
"$report" nasty.json --output_csvs_dir ncsv --output_tsvs_dir ntsv \
    --output_xlsx_path nasty.xlsx --enable_kernel_summary
echo "exit $?"
/usr/bin/python3 -c '
import csv, glob, os, sys
def unesc(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\":
            out.append({"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}[s[i+1]])
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)
bad = 0
for f in sorted(glob.glob("ncsv/*.csv")):
    name = os.path.basename(f)[:-4]
    rows = list(csv.reader(open(f, newline="", encoding="utf-8")))
    tsv = [[unesc(x) for x in l.split("\t")] for l in
        open("ntsv/" + name + ".tsv", encoding="utf-8").read().split("\n")[:-1]]
    if rows != tsv:
        bad += 1
        print(name, "differs")
print("csv = tsv:", "ok" if not bad else "%d differ" % bad)
' 
grep -h 'ge,' ntsv/ops_summary.tsv ntsv/kernel_summary.tsv | cut -f 1-3
set --
for s in gpu_timeline ops_summary_by_category ops_summary ops_unique_args \
    unified_perf_summary GEMM SDPA_fwd BinaryElementwise UnaryElementwise \
    Normalization kernel_summary coll_analysis hta_temporal_breakdown \
    hta_idle_time_breakdown hta_idle_interval_stats hta_comm_comp_overlap \
    hta_cuda_kernel_launch_stats streams; do
	[ -f ntsv/$s.tsv ] && set -- "$@" "$s=ntsv/$s.tsv"
done
/usr/bin/python3 "$rb" nasty.xlsx "$@" >rb.out
echo "readback: exit $?"
tail -n 1 rb.out
# TraceLens's arch JSON: the roofline columns, and the roofline drawn.
cat >mi300x.json <<'EOJ'
{
  "name": "MI300X",
  "mem_bw_gbps": 5300,
  "max_achievable_tflops": {
    "matrix_bf16": 708,
    "vector_bf16": 163
  }
}
EOJ
"$report" "$TESTDATA/../../samples/bert-h100.json.gz" \
    --gpu_arch_json_path mi300x.json -o j.xlsx --output_tsvs_dir jt
echo "exit $?"
head -n 1 jt/GEMM.tsv | tr '\t' '\n' | grep Roofline
/usr/bin/python3 -c '
import openpyxl
wb = openpyxl.load_workbook("j.xlsx")
print("GEMM:", [s.tx.v for c in wb["GEMM chart"]._charts for s in c.series])'
