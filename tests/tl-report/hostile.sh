# A closed standard error (SIGPIPE) ends the report with its scratch
# directory removed; a trace whose name starts with "-" is a trace to
# every stage (tl-report, tl-compare and report.mk pass "--"); a stage's
# exit status comes from the job itself, not from a file in TMPDIR; out
# of file descriptors, tl-xlsx says so.
root=$TESTDATA/../..
PATH=$root/scripts:$PATH
TMPDIR=$PWD/tmp
export TMPDIR
mkdir tmp
printf '{"traceEvents": [{"ph": "X", "name": ' >bad.json
tl-report -o x.xlsx bad.json 2>&1 | head -c 10 >/dev/null
echo "closed stderr: left in TMPDIR: $(ls -A tmp | wc -l)"
cp "$root/samples/bert-h100.json.gz" ./-x.json.gz
tl-report --output_csvs_dir o -- -x.json.gz
echo "tl-report -- -x.json.gz: exit $?, $(ls o | wc -l) files"
tl-compare -n a,b -o c.xlsx -- -x.json.gz -x.json.gz
echo "tl-compare -- -x.json.gz: exit $?"
make -s -f "$root/scripts/report.mk" TRACES=-x.json.gz OUT=mk >/dev/null 2>&1
echo "report.mk: exit $?"
ls -A tmp
printf 'a\n1\n' >t.tsv
set --
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24; do
	set -- "$@" "s$i=t.tsv"
done
(ulimit -n 16 && tl-xlsx -o fd.xlsx "$@") 2>&1 |
    sed -n 's/^tl-xlsx: sheet "s[0-9]*": /tl-xlsx: sheet "sN": /p'
# --safe-csv: a name that starts as a formula does gets an apostrophe in
# the CSV files; by default the files are TraceLens's, as they are.
{
	printf '{"traceEvents": [\n'
	printf '{"ph": "X", "cat": "kernel", "name": "=cmd|x", "pid": 0, "tid": 7, "ts": 2, "dur": 2, "args": {"correlation": 9}}\n'
	printf ']}\n'
} >f.json
for s in '' --safe-csv; do
	tl-report $s --enable_kernel_summary --include_unlinked_kernels \
	    --output_csvs_dir f$s f.json 2>/dev/null
	echo "${s:-default}: $(grep -o "[^,]*cmd|x" f$s/kernel_summary.csv)"
done
