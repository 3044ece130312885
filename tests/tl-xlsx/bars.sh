# -b label=part,...: a stacked bar chart on every sheet that has the
# label column and all the part columns, a bar per row (the first 64 of
# the first sheet), the first row on top, a series per part in the order
# given, from the sheet's own cells; it takes the place of the chart the
# columns would give (a GPU timeline here). The first spec that fits a
# sheet wins. A wide sheet gets its chart on a chart sheet; a sheet
# without one of the columns gets none. A spec that is not one is an error.
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null || exit 77
printf 'rank\tidle\tcompute\tother\n0\t1\t2\t3\n1\t2\t\t1\n2\t0.5\t4\t0\n' >parts.tsv
printf 'type\ttime_ms\tq_us\n' >timeline.tsv
printf 'computation_time\t3\t1\nidle_time\t5\t2\n' >>timeline.tsv
awk 'BEGIN { printf "id"; for (i = 1; i <= 12; i++) printf "\tc%d", i
	print ""
	for (r = 0; r < 70; r++) { printf "k%d", r
		for (i = 1; i <= 12; i++) printf "\t%d", r + i
		print "" } }' >wide.tsv
printf 'rank\tidle\n0\t1\n' >some.tsv
tl-xlsx -b 'rank=compute,other,idle' -b 'type=q_us' -b 'id=c2,c1' \
    -b 'rank=idle' -o bars.xlsx parts.tsv timeline.tsv wide.tsv some.tsv
echo "exit $?"
/usr/bin/python3 - bars.xlsx <<'EOP'
import sys
import openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
print(wb.sheetnames)
for ws in list(wb.worksheets) + list(wb.chartsheets):
    for c in ws._charts:
        t = c.title.tx.rich.p[0].r[0].t if c.title else None
        print(ws.title, type(c).__name__, c.type, c.grouping, repr(t),
            "categories", c.x_axis.scaling.orientation)
        for s in c.series:
            print("  series", s.tx.strRef.f,
                (s.cat.numRef or s.cat.strRef).f, s.val.numRef.f)
EOP
tl-xlsx -b rank -o x.xlsx parts.tsv
echo "exit $?"
tl-xlsx -b 'rank=idle,,compute' -o x.xlsx parts.tsv
echo "exit $?"
tl-xlsx -b '=idle' -o x.xlsx parts.tsv
echo "exit $?"
tl-xlsx -b 'rank=' -o x.xlsx parts.tsv
echo "exit $?"
ls
