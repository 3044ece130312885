# Bad command lines, operands and traces: a message, exit 1, and nothing
# left behind: no workbook (one that was there is left as it was), no
# temporary directory. A stage that fails (a gzip file cut short, a
# report without ops_summary.csv) stops the script with its message.
# --help and --version on stdout, exit 0.
compare=$TESTDATA/../../scripts/tl-compare
TMPDIR=$PWD/tmp
export TMPDIR
mkdir tmp rep rep/a rep/b
cp "$TESTDATA/../../samples/bert-h100.json.gz" t.json.gz || exit 1
head -c 20000 t.json.gz >cut.json.gz
printf 'type,time ms,percent\nbusy_time,1.5,10\n' >rep/a/gpu_timeline.csv
cp rep/a/gpu_timeline.csv rep/b/
echo old >old.xlsx
run() {
	"$compare" "$@"
	echo "exit $?"
}
run
run t.json.gz
run t.json.gz t.json.gz t.json.gz
run -x t.json.gz t.json.gz
run t.json.gz t.json.gz -n
run missing.json.gz t.json.gz
run rep t.json.gz
run t.json.gz t.json.gz
run -n a t.json.gz t.json.gz
run -n a,b,c t.json.gz t.json.gz
run -n a,a t.json.gz t.json.gz
run -n a/b,c t.json.gz t.json.gz
run -n ,c t.json.gz t.json.gz
run -n a,b -o nodir/x.xlsx t.json.gz t.json.gz
run -n a,b -o tmp t.json.gz t.json.gz
run -o old.xlsx cut.json.gz t.json.gz
run -o old.xlsx rep/a rep/b
cat old.xlsx
run --help
run --version
ls -A . tmp
