# Excel's limit: 1048576 rows, the header and 1048575 more. One more
# row goes to a second sheet. Counted from the sheets' XML.
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null || exit 77
awk 'BEGIN { print "i"; for (i = 1; i <= 1048576; i++) print i }' >big.tsv
tl-xlsx -o big.xlsx big.tsv
echo "exit $?"
/usr/bin/python3 -c '
import re, zipfile
z = zipfile.ZipFile("big.xlsx")
wb = z.read("xl/workbook.xml").decode()
print(re.findall(r"<sheet name=\"([^\"]*)\"", wb))
for n in ("xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml"):
    x = z.read(n).decode()
    rows = re.findall(r"<row r=\"(\d+)\"", x)
    last = re.findall(r"<v>(\d+)</v></c></row>", x[-300:])
    print(n, len(rows), "rows, the last", rows[-1], "holds", last[-1])'
