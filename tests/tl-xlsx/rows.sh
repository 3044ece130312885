# A stream longer than a sheet goes on over continuation sheets, each
# with the header, and a warning says where; -n sets the rows per sheet
# (at most Excel's 1048575 below the header). Nothing is cut.
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null || exit 77
rb=$(dirname "$0")/readback.py
awk 'BEGIN { print "n\tsquare"; for (i = 1; i <= 8; i++) print i "\t" i * i }' \
    >t.tsv
printf 'n\n1\n2\n3\n' >u.tsv
tl-xlsx -n 3 -o rows.xlsx t.tsv u.tsv
echo "exit $?"
/usr/bin/python3 "$rb" rows.xlsx t=t.tsv u=u.tsv
/usr/bin/python3 -c '
import openpyxl
print(openpyxl.load_workbook("rows.xlsx").sheetnames)'
