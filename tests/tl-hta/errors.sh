# Usage errors and bad input: one line each and exit status 1, no crash.
mkdir -p e/empty e/bad e/meta e/cut
printf '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": ' >e/bad/t.json
printf '{"traceEvents": [{"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "ts": 0, "args": {"name": "p"}}]}\n' >e/meta/t.json
run() {
	"$@" >/dev/null 2>e/err
	echo "exit $?: $(head -3 e/err | sed 's/^usage:.*/usage.../' | tr '\n' '|')"
}
run tl-hta
run tl-hta --trace_dir e/empty
run tl-hta --output_csvs_dir e/o --only nosuch --trace_dir e/empty
run tl-hta --output_csvs_dir e/o --trace_dir e/none
run tl-hta --output_csvs_dir e/o --trace_dir e/empty
run tl-hta --output_csvs_dir e/o --trace_dir e/bad
run tl-hta --output_csvs_dir e/o --trace_dir e/meta
# a cut gzip file: tl-parse says so, once (the rank scan is quiet)
gzip -c "$TESTDATA/../tl-hta/data/nccl/t.json" | head -c 300 >e/cut/t.json.gz
run tl-hta --output_csvs_dir e/o --trace_dir e/cut
run tl-hta --output_csvs_dir e/o --num_kernels -1 --trace_dir e/meta
run tl-hta --output_csvs_dir e/o --duration_ratio 2 --trace_dir e/meta
tl-parse e/meta/t.json >e/ev.tsv
run tl-hta --output_csvs_dir e/o e/ev.tsv
