# Bad command lines and bad reports: a message, exit 1 (the script's
# status, as TraceLens's command's). --help and --version on stdout,
# exit 0. A report that lacks a sheet the other has is no error: its
# rows are only in the other.
PATH=$TESTDATA/../../scripts:$PATH
mkdir a b c empty
printf 'type,time ms,percent\nbusy_time,1.5,10\n' >a/gpu_timeline.csv
printf 'name,total_direct_kernel_time_sum,total_direct_kernel_time_ms,Count\n' \
    >a/ops_summary.csv
printf 'x,1,0.001,2\n' >>a/ops_summary.csv
printf 'Kernel name,Kernel duration (\302\265s)_sum,Kernel duration (\302\265s)_mean,Kernel duration (\302\265s)_count\n' \
    >a/kernel_summary.csv
printf 'k,1,1,1\n' >>a/kernel_summary.csv
cp a/*.csv b/
cp a/gpu_timeline.csv a/kernel_summary.csv c/
run() {
	tl-compare-reports "$@"
	echo "exit $?"
}
run
run a
run a b --bogus
run a b --names x
run a b --names x,y z
run a b --names x x --output_csvs_dir o -o ''
run a b --sheets nope --output_csvs_dir o -o ''
run a c --output_csvs_dir oc -o ''
run empty a --output_csvs_dir oe -o ''
run a nosuch --output_csvs_dir o -o ''
run a b.xlsx --output_csvs_dir o -o ''
run a b --output_csvs_dir
run --help
run a --version
echo "== fine: the default names, two sheet groups"
run a b --sheets gpu_timeline ops_summary --output_csvs_dir o -o ''
ls o
cat o/gpu_timeline.csv o/ops_summary.csv
