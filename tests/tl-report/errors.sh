# Bad command lines and bad traces: a message, exit 1, and nothing left
# behind: no workbook, no CSV file, no temporary directory. A stage that
# fails in the middle of the pipeline (a gzip file cut short) is seen, as
# pipefail would, and it is the one named: not the stages before it that
# died of SIGPIPE (tl-roofline -c takes one trace, and stops at the
# second of a tar of five, while tl-parse and tl-tree are still writing),
# nor those after it that read a stream cut short. A bad arch file is
# tl-roofline's. --help and --version on stdout, exit 0.
report=$TESTDATA/../../scripts/tl-report
TMPDIR=$PWD/tmp
export TMPDIR
mkdir tmp
cp "$TESTDATA/../../samples/bert-h100.json.gz" t.json.gz || exit 1
head -c 20000 t.json.gz >cut.json.gz
run() {
	"$report" "$@"
	echo "exit $?"
}
run
run --bogus t.json.gz
run --output_csvs_dir
run a.json.gz b.json.gz
run --enable_kernel_summary=yes t.json.gz
run --short_kernel_threshold_us ten t.json.gz
run --topk_short_kernels 1.5 t.json.gz
run --short_kernel_histogram_bins 0 t.json.gz
run --gpu_arch_platform MI300X --gpu_arch_json_path x.json t.json.gz
run --gpu_arch_platform Z80 t.json.gz
run missing.json.gz
run t.json.gz --output_xlsx_path nodir/x.xlsx
run t.json.gz --output_xlsx_path tmp
run cut.json.gz --output_xlsx_path cut.xlsx --output_csvs_dir cutcsv
echo '{"name": "X",' >bad.json
run t.json.gz --gpu_arch_json_path bad.json --output_csvs_dir cutcsv
rm bad.json
for n in 1 2 3 4 5; do
	cp t.json.gz $n.json.gz
done
tar cf five.tar 1.json.gz 2.json.gz 3.json.gz 4.json.gz 5.json.gz
rm 1.json.gz 2.json.gz 3.json.gz 4.json.gz 5.json.gz
run five.tar --output_csvs_dir cutcsv
rm five.tar
run --help
run --version
ls -A . tmp cutcsv
