# -H hides the columns whose names match one of its shell patterns
# (fnmatch(3)), in every sheet: hidden, not deleted, so they read back.
# Widths fit the longest text of a column (its header with room for the
# filter button), up to 60 characters; integers show every digit.
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null || exit 77
rb=$(dirname "$0")/readback.py
printf 'name\tuid\tts_ns\tdur_ns_std\tnote\n' >a.tsv
printf 'aten::mm\t1\t1751410836123456\t0.5\tshort\n' >>a.tsv
awk 'BEGIN { printf "aten::x\t2\t3\t\t"; for (i = 0; i < 80; i++)
	printf "y"; print "" }' >>a.tsv
printf 'uid\tvalue\n7\t8\n' >b.tsv
tl-xlsx -H '*_std,uid' -H nosuch -o hide.xlsx a.tsv b.tsv
echo "exit $?"
/usr/bin/python3 "$rb" hide.xlsx a=a.tsv b=b.tsv
/usr/bin/python3 -c '
import openpyxl
wb = openpyxl.load_workbook("hide.xlsx")
for ws in wb:
    for c in ws[1]:
        d = ws.column_dimensions[c.column_letter]
        print(ws.title, c.value, "width", d.width, "hidden" if d.hidden
            else "", c.font.b and "bold" or "",
            ws.cell(2, c.column).number_format)'
