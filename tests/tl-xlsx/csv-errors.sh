# Bad CSV files: one message located at the file and line, exit 1, and
# no workbook (nor a temporary file) left behind; a workbook that was
# there before is left as it was. A quoted field that does not end (the
# line it starts on), records with too few or too many fields (the line
# the record starts on, though it spans lines), a quote in an unquoted
# field, text after a closing quote (a CR, unless a LF follows it in a
# file of CR LF lines, is text), an empty or a duplicate column name, a
# record past --limit line (lines and all), and a bad CSV standard input
# with -c.
printf 'a,b\n1,2\n' >good.csv
printf 'a,b\n1,2\n3,"open\n4,5\n' >unterminated.csv
printf 'a,b\n1,2\n3\n' >short.csv
printf 'a,b\n1,2\n"x\ny",2,3\n' >long.csv
printf 'a,b\n1,x"y\n' >stray.csv
printf 'a,b\n1,"x"y\n' >after.csv
printf 'a,b\r\n1,"x"\ry\r\n' >aftercr.csv
printf 'a,b\n1,"x"\r\n' >crlf.csv
printf 'a,b\n1,"x" \n' >space.csv
printf 'a,,b\n' >noname.csv
printf 'a,"a"\n' >dup.csv
printf 'a\n"12345\n678"\n' >limit.csv
run() {
	tl-xlsx "$@"
	echo "exit $?"
}
for f in unterminated short long stray after aftercr crlf space noname \
    dup; do
	run -o x.xlsx good.csv $f.csv
done
run --limit line=8 -o x.xlsx limit.csv
run --limit line=20 -o x.xlsx limit.csv
rm -f x.xlsx
printf 'a,b\n1,"2\n' | run -c -o x.xlsx
tl-xlsx -o book.xlsx good.csv || exit 1
cp book.xlsx before
run -o book.xlsx good.csv stray.csv
cmp -s before book.xlsx && echo "book.xlsx unchanged"
rm before
ls -A
