# -z: the level zlib deflates the workbook's parts at, set through the
# deflateInit2_ tl-xlsx defines over zlib's. A level that is not 0 to 9
# is an error, with no workbook; -z 9 and -z 1 give workbooks that read
# back the same (openpyxl), -z 9 the smaller and -z 0 (stored) the
# largest, so the level does reach zlib; without -z the level is 1.
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null || exit 77
same=$(dirname "$0")/same.py
awk 'BEGIN { print "uid\tname\tdur_us\tnote"
	for (i = 1; i <= 3000; i++)
		print i "\tkernel_" i % 97 "\t" i / 7 "\tsome text " i % 13 }' >a.tsv
for z in 10 -1 x '' 1x; do
	tl-xlsx -z "$z" -o bad.xlsx a.tsv
	echo "exit $?"
done
tl-xlsx -o bad.xlsx a.tsv -z
echo "exit $?"
for z in 0 1 9; do
	tl-xlsx -z $z -o z$z.xlsx a.tsv || exit 1
done
tl-xlsx -o default.xlsx a.tsv || exit 1
/usr/bin/python3 "$same" z1.xlsx z9.xlsx
echo "exit $?"
/usr/bin/python3 "$same" z1.xlsx z0.xlsx | tail -n 1
size() {
	wc -c <"$1"
}
[ "$(size z9.xlsx)" -lt "$(size z1.xlsx)" ] && echo "-z 9 smaller than -z 1"
[ "$(size z1.xlsx)" -lt "$(size z0.xlsx)" ] && echo "-z 1 smaller than -z 0"
# the parts' deflated sizes, less docProps/core.xml: it holds the time
# the workbook was made, which may differ between the two runs
parts() {
	unzip -v "$1" | awk 'NF == 8 && $1 ~ /^[0-9]+$/ &&
	    $8 != "docProps/core.xml" { s += $3 } END { print s }'
}
[ "$(parts default.xlsx)" -eq "$(parts z1.xlsx)" ] && echo "default: as -z 1"
rm z0.xlsx z1.xlsx z9.xlsx default.xlsx
ls -A
