# Characters XML 1.0 does not allow (U+FFFE, U+FFFF) in a cell become
# Excel's escapes _xFFFE_ and _xFFFF_ (Excel shows the character), and
# in a sheet name taken from a file name '_' (an explicit name with one
# is refused): every part of the workbook parses with a strict XML
# parser.
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null || exit 77
printf 'name\tv\nop\357\277\276A\t1\nx\357\277\277\t2\n' >nc.tsv
f=$(printf 'we\357\277\277rd.tsv')
printf 'a\n1\n' >"$f"
tl-xlsx -o nc.xlsx nc.tsv "$f"
echo "exit $?"
tl-xlsx -o bad.xlsx "$(printf 'x\357\277\276y')=nc.tsv"
echo "exit $?"
/usr/bin/python3 - <<'EOP'
import xml.etree.ElementTree as ET
import zipfile
import openpyxl
with zipfile.ZipFile("nc.xlsx") as z:
    for part in z.namelist():
        if part.endswith(".xml") or part.endswith(".rels"):
            ET.fromstring(z.read(part))
wb = openpyxl.load_workbook("nc.xlsx")
print(wb.sheetnames, [c.value for c in wb["nc"]["A"]])
EOP
