# CSV files (RFC 4180, as pandas writes them) into sheets: the workbook
# of the CSV files reads back (openpyxl) as the tl-tsv(5) streams of the
# same tables, written by hand, and as the workbook of those streams,
# cell for cell, width for width, chart for chart. Quoted commas,
# doubled quotes, line ends (LF, CR LF) in quotes, a header name with
# quotes and a comma, backslashes and TABs, numbers in quotes, empty
# fields quoted or not; a CR unquoted (text, as pandas writes it, even
# before a LF), and CR LF line ends when the header has one; a last line
# without its LF; an empty file, a file of one empty line and one of ""
# (no columns: the note), a header alone; a gzip'd CSV file, a CSV
# member of an archive beside a TSV one, -c for the standard input and
# for a file not named .csv. With -t, the same tables as the streams
# written by hand, byte for byte: the directory made with its parent, a
# file there before replaced, no temporary file left; -o and -t
# together, or neither, a usage error.
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null || exit 77
d=$(dirname "$0")
rb=$d/readback.py
same=$d/same.py
mkdir tsv
printf 'name,count,value,note,"a ""quoted"", name"\n' >t.csv
printf '"aten::mm, fused",12,0.30719775390625,plain,x\n' >>t.csv
printf '"say ""hi""",-3,"1e-05","two\nlines",y\n' >>t.csv
printf 'back\\slash,007,"",tab\there,""\n' >>t.csv
printf ',,,,\n' >>t.csv
printf '"crlf\r\ninside",1.,.5,"_x0041_ and \302\265s",z\n' >>t.csv
printf 'last,9007199254740993,100.0,"""",cr\r\n' >>t.csv
printf 'name\tcount\tvalue\tnote\ta "quoted", name\n' >tsv/t.tsv
printf 'aten::mm, fused\t12\t0.30719775390625\tplain\tx\n' >>tsv/t.tsv
printf 'say "hi"\t-3\t1e-05\ttwo\\nlines\ty\n' >>tsv/t.tsv
printf 'back\\\\slash\t007\t\ttab\\there\t\n' >>tsv/t.tsv
printf '\t\t\t\t\n' >>tsv/t.tsv
printf 'crlf\\r\\ninside\t1.\t.5\t_x0041_ and \302\265s\tz\n' >>tsv/t.tsv
printf 'last\t9007199254740993\t100.0\t"\tcr\\r\n' >>tsv/t.tsv
printf 'type,time ms,percent\r\ncomputation_time,1.5,60\r\n"idle_time",1.0,"40"\r\n' \
    >timeline.csv
printf 'type\ttime ms\tpercent\ncomputation_time\t1.5\t60\nidle_time\t1.0\t40\n' \
    >tsv/timeline.tsv
: >empty.csv
printf '\n' >blank.csv
printf '""\n' >quoted.csv
for f in empty blank quoted; do
	printf 'note\nno rows\n' >tsv/$f.tsv
done
printf 'a,b,c\n' >head.csv
printf 'a\tb\tc\n' >tsv/head.tsv
printf 'a,b\n1,"2"' >nolf.csv
printf 'a\tb\n1\t2\n' >tsv/nolf.tsv
printf 'k,v\n"x\ny",1\n' | gzip >z.csv.gz
printf 'k\tv\nx\\ny\t1\n' >tsv/z.tsv
printf 'k,v\n"m, 1",2\n' >m.csv
printf 'k\tv\nm, 1\t2\n' >tsv/m.tsv
printf 'k\tv\nn\t3\n' >tsv/n.tsv
/usr/bin/python3 -c '
import zipfile
z = zipfile.ZipFile("both.zip", "w")
z.write("m.csv", "dir/m.csv")
z.write("tsv/n.tsv", "dir/n.tsv")'
set -- t timeline empty blank quoted head nolf
tl-xlsx -H percent -o csv.xlsx $(printf '%s.csv ' "$@") z.csv.gz both.zip
echo "exit $?"
tl-xlsx -H percent -o tsv.xlsx $(printf 'tsv/%s.tsv ' "$@" z m n)
echo "exit $?"
/usr/bin/python3 "$rb" csv.xlsx $(printf '%s=tsv/%s.tsv ' t t timeline timeline \
    empty empty blank blank quoted quoted head head nolf nolf z z m m n n)
echo "exit $?"
/usr/bin/python3 "$same" csv.xlsx tsv.xlsx
echo "exit $?"
# The standard input, as CSV with -c; a .tsv name read as CSV with -c.
tl-xlsx -c -o in.xlsx - <t.csv &&
    tl-xlsx -o tsvin.xlsx - <tsv/t.tsv &&
    /usr/bin/python3 "$same" in.xlsx tsvin.xlsx | tail -n 1
cp t.csv odd.tsv
tl-xlsx -c -o odd.xlsx odd.tsv &&
    /usr/bin/python3 "$rb" odd.xlsx odd=tsv/t.tsv
echo "exit $?"
mkdir -p out/t && echo old >out/t/t.tsv
tl-xlsx -t out/t $(printf '%s.csv ' "$@") z.csv.gz both.zip &&
    diff -r tsv out/t && echo "-t: the streams"
tl-xlsx -t out/s $(printf 'tsv/%s.tsv ' "$@" z m n) &&
    diff -r tsv out/s && echo "-t: the streams copied"
tl-xlsx -o x.xlsx -t out t.csv 2>&1 | head -n 1
tl-xlsx t.csv 2>&1 | head -n 1
rm -rf out csv.xlsx tsv.xlsx in.xlsx tsvin.xlsx odd.xlsx
ls -A
