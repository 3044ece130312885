# Bad input, bad names, bad output paths: one located message, exit 1,
# and no workbook (nor a temporary file) left behind; a workbook that was
# there before a failed run is left as it was.
printf 'a\tb\n1\t2\n' >good.tsv
printf 'a\tb\n1\t2\n3\n' >ragged.tsv
: >empty.tsv
printf 'a\ta\n1\t2\n' >dup.tsv
printf 'a\tb\r\n1\t2\r\n' >crlf.tsv
printf 'key\tvalue\nmatrix_bf16\t100\n' >noroof.tsv
printf 'key\tvalue\nmem_bw_gbps\tfast\n' >badroof.tsv
mkdir sub
run() {
	tl-xlsx "$@"
	echo "exit $?"
}
tl-xlsx -o book.xlsx good.tsv || exit 1
cp book.xlsx before
run -o book.xlsx good.tsv ragged.tsv
cmp -s before book.xlsx && echo "book.xlsx unchanged"
run -o x.xlsx empty.tsv
run -o x.xlsx dup.tsv
run -o x.xlsx crlf.tsv
run -o x.xlsx good.tsv missing.tsv
run -o x.xlsx t=good.tsv T=good.tsv
run -o x.xlsx 'a:b=good.tsv'
run -o x.xlsx "'a=good.tsv"
run -o x.xlsx History=good.tsv
run -o x.xlsx =good.tsv
run -o nodir/x.xlsx good.tsv
run -o sub good.tsv
run -o x.xlsx - -
run -n 0 -o x.xlsx good.tsv
run -n 1048576 -o x.xlsx good.tsv
run -r noroof.tsv -o x.xlsx good.tsv
run -r badroof.tsv -o x.xlsx good.tsv
run good.tsv
run -x -o x.xlsx good.tsv
# A signal while the input is read: the temporary file goes too.
mkfifo fifo
tl-xlsx -o sig.xlsx fifo 2>/dev/null &
pid=$!
sleep 0.3
kill -TERM $pid
wait $pid
echo "killed: exit $?"
rm fifo before
ls -A . sub
# --help and --version, on stdout, exit 0.
tl-xlsx --help; echo "exit $?"
tl-xlsx --version | sed 's/ [0-9][0-9.]*$/ VERSION/'
