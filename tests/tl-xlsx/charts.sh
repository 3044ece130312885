# Charts, by the columns of a sheet: the GPU timeline (type, time_ms) as a
# pie of where the time goes; the ops by name (name and
# direct_kernel_time_us_sum or total_direct_kernel_time_ms, no argument
# columns) as a bar chart of the first 20; roofline numbers (flop_per_byte
# or FLOPS/Byte[_first], and tflops_per_s_mean, TFLOPS/s_mean, ...) as a
# log-log scatter, with the arch's roofline for each compute spec when -r
# gives an arch file. The points are in the hidden sheet "chart data".
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null || exit 77
printf 'type\ttime_ms\tpercent\n' >gpu_timeline.tsv
printf 'computation_time\t3\t30\nexposed_comm_time\t1\t10\n' >>gpu_timeline.tsv
printf 'exposed_memcpy_time\t0.5\t5\nbusy_time\t4.5\t45\n' >>gpu_timeline.tsv
printf 'idle_time\t5.5\t55\ntotal_time\t10\t100\n' >>gpu_timeline.tsv
awk 'BEGIN { print "name\tcount\tdirect_kernel_time_us_sum"
	for (i = 30; i >= 1; i--) print "op" i "\t1\t" i * 10 }' >ops.tsv
printf 'name\tflop_per_byte\ttflops_per_s_mean\tcompute_spec\n' >GEMM.tsv
printf 'aten::mm\t100\t300\tmatrix_bf16\naten::addmm\t20\t50\tmatrix_bf16\n' \
    >>GEMM.tsv
printf 'aten::mm\t0\t\tmatrix_fp32\naten::bmm\t5\t10\tmatrix_fp32\n' >>GEMM.tsv
printf 'key\tvalue\tsource\nname\tH100\tx\nmem_bw_gbps\t3350\tx\n' >arch.tsv
printf 'matrix_bf16\t989.5\tx\nmatrix_fp32\t67\tx\n' >>arch.tsv
tl-xlsx -r arch.tsv -o charts.xlsx gpu_timeline.tsv ops.tsv GEMM.tsv
echo "exit $?"
tl-xlsx -o noarch.xlsx GEMM.tsv
echo "exit $?"
/usr/bin/python3 -c '
import openpyxl
def ref(r):
    return r.numRef.f if r is not None and r.numRef is not None else \
        (r.strRef.f if r is not None and r.strRef is not None else None)
for book in ("charts.xlsx", "noarch.xlsx"):
    wb = openpyxl.load_workbook(book)
    print(book, wb.sheetnames, [ws.sheet_state for ws in wb])
    for ws in wb:
        for c in ws._charts:
            t = c.title.tx.rich.p[0].r[0].t if c.title else None
            print(" ", ws.title, type(c).__name__, repr(t),
                "at", c.anchor._from.col, c.anchor._from.row)
            for s in c.series:
                name = s.tx.v if s.tx is not None and s.tx.v else \
                    (s.tx.strRef.f if s.tx is not None else None)
                cat = ref(s.cat) or ref(s.xVal)
                val = ref(s.val) or ref(s.yVal)
                print("    series", repr(name), cat, val)
            if hasattr(c, "x_axis") and type(c).__name__ == "ScatterChart":
                for a in (c.x_axis, c.y_axis):
                    print("    axis", a.title.tx.rich.p[0].r[0].t,
                        "log", a.scaling.logBase, a.scaling.min,
                        a.scaling.max)
    if "chart data" in wb.sheetnames:
        for r in wb["chart data"].iter_rows(values_only=True):
            print("   ", r)
'
