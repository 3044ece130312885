# What a person reading the workbook sees: numbers shown by their
# column's kind (times, rates and sizes with three decimals, percentages
# with two, counts whole; every digit kept in the cell); sheets printed
# landscape, one page wide, the header on every page; the chart of a
# wide sheet on a chart sheet of its own right after it ("SHEET chart"),
# that of a narrow one beside it; -r takes an arch by name, as
# tl-roofline -a does.
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null || exit 77
printf 'type\ttime_ms\tpercent\ncomputation_time\t3.14159\t30.123\n' >gpu_timeline.tsv
printf 'idle_time\t5.5\t55\ntotal_time\t10\t100\n' >>gpu_timeline.tsv
{
	printf 'name\tcount\tKernel Time (\302\265s)_sum\tTFLOPS/s_mean\tflop_per_byte'
	printf '\ttflops_per_s_mean\tcompute_spec\tp1\tp2\tp3\tp4\tp5\n'
	printf 'aten::mm\t3\t12.5\t250.25\t100\t300\tmatrix_bf16\t1\t2\t3\t4\t5\n'
} >GEMM.tsv
tl-xlsx -r H100 -o b.xlsx gpu_timeline.tsv GEMM.tsv
echo "exit $?"
tl-xlsx -r Z80 -o z.xlsx GEMM.tsv 2>&1 | sed 's,in /.*/arch ,in SHARE/arch ,'
/usr/bin/python3 -c '
import openpyxl
wb = openpyxl.load_workbook("b.xlsx")
print(wb.sheetnames)
for ws in wb.worksheets[:2]:
    print(ws.title, [(c.value, ws.cell(2, c.column).number_format,
        ws.cell(2, c.column).value) for c in ws[1]][:6])
    print(" ", ws.page_setup.orientation, ws.sheet_properties.pageSetUpPr.fitToPage,
        ws.page_setup.fitToHeight, ws.print_title_rows, len(ws._charts), "charts")
for cs in wb.chartsheets:
    for c in cs._charts:
        print(cs.title, type(c).__name__, [s.tx.v for s in c.series])
'
