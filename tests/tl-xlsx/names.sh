# Sheet names: the file's base name without .gz and .tsv; name=file;
# characters Excel refuses become "_"; names are cut to 31 characters,
# and a name that is taken (in any case) gets " (2)", " (3)", ... cut to
# fit. Explicit names are kept as given, so derived names avoid them.
# An operand that is a file, or whose part before "=" has a "/", is a
# path.
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null || exit 77
mkdir -p a b 'c=d'
printf 'x\n1\n' >a/ops.tsv
printf 'x\n2\n' >b/ops.tsv
printf 'x\n3\n' >OPS.tsv.gz.tmp && gzip -c OPS.tsv.gz.tmp >OPS.tsv.gz
printf 'x\n4\n' >'what:is*this?.tsv'
printf 'x\n5\n' >a_very_long_name_of_a_table_of_ops_by_shape.tsv
printf 'x\n6\n' >a_very_long_name_of_a_table_of_ops_by_name.tsv
printf 'x\n7\n' >'c=d/e.tsv'
printf 'x\n10\n' >'f=g.tsv'
printf 'x\n8\n' >"'quoted'.tsv"
printf 'x\n9\n' >history.tsv
tl-xlsx -o names.xlsx a/ops.tsv b/ops.tsv OPS.tsv.gz 'what:is*this?.tsv' \
    a_very_long_name_of_a_table_of_ops_by_shape.tsv \
    a_very_long_name_of_a_table_of_ops_by_name.tsv './c=d/e.tsv' f=g.tsv \
    "'quoted'.tsv" history.tsv 'ops (2)=a/ops.tsv' Timeline=b/ops.tsv \
    'ünïcödé names are cut by characters, not bytes=a/ops.tsv'
echo "exit $?"
/usr/bin/python3 -c '
import openpyxl
wb = openpyxl.load_workbook("names.xlsx")
for ws in wb:
    print("%-32s %d %s" % ("\"" + ws.title + "\"", len(ws.title),
        ws["A2"].value))'
# An archive gives a sheet per member, named after the member (an
# explicit name, then that name with " (2)", ...).
command -v zip >/dev/null 2>&1 || exit 0
mkdir z z/d
printf 'x\n1\n' >z/one.tsv
printf 'y\n2\n' >z/d/two.tsv
(cd z && zip -q ../a.zip one.tsv d/two.tsv) || exit 1
tl-xlsx -o zip.xlsx a.zip tables=a.zip
echo "exit $?"
/usr/bin/python3 -c '
import openpyxl
print(openpyxl.load_workbook("zip.xlsx").sheetnames)'
