# Where the trace comes from, and what is not a trace: standard input
# ("-", /dev/stdin, a tree stream with --tree_tsv_path -) gives the same
# report as the file (and needs an output named); a directory, a JSON
# file without trace events, an unknown arch (the known ones listed) and
# an output that cannot be written each give one message and exit 1,
# with nothing written. Notes name tl-report's flags, and the unlinked
# kernels are one note, not two. SIGINT while the stages run leaves no
# scratch directory behind: the script waits for them, then removes it.
report=$TESTDATA/../../scripts/tl-report
TMPDIR=$PWD/tmp
export TMPDIR
mkdir tmp
t=$TESTDATA/../../samples/bert-h100.json.gz
run() {
	"$report" "$@"
	echo "exit $?"
}
run --output_csvs_dir file "$t"
run --output_csvs_dir stdin - <"$t"
cat "$t" | run --output_csvs_dir devstdin /dev/stdin
tl-parse "$t" | tl-tree | run --tree_tsv_path - --output_csvs_dir tree
diff -r file stdin && diff -r file devstdin && diff -r file tree &&
	echo "the same tables"
run - <"$t"
mkdir adir
run adir
printf '{"name": "x", "values": [1, 2]}\n' >notrace.json
run --output_csvs_dir out notrace.json
printf '[{"a": 1}]\n' >objects.json
run --output_csvs_dir out objects.json
run --gpu_arch_platform MI300 "$t"
run --output_csvs_dir notrace.json/out "$t"
run --output_tsvs_dir notrace.json/a/b "$t"
run --output_xlsx_path notrace.json/x.xlsx "$t"
printf '{"traceEvents": [\n' >unlinked.json
printf '{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 5, "dur": 2, "args": {"correlation": 9}}\n' >>unlinked.json
printf ']}\n' >>unlinked.json
run --output_csvs_dir out2 unlinked.json
{ cat "$t"; sleep 3; } | timeout -s INT 1 "$report" -o x.xlsx -
echo "interrupted: exit $?"
ls -A tmp
ls out out2 x.xlsx 2>&1 | sed 's/^ls: //'
