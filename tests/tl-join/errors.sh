# tl-join: bad input and bad options give one located line and exit 2.
t='	'
printf 'name\tcount\tdirect_kernel_time_us_sum\tcategories\n' >ops.tsv
printf 'aten::mm\t1\t2\tGEMM\n' >>ops.tsv
mkdir a b
cp ops.tsv a/ops.tsv
cp ops.tsv b/ops.tsv
printf 'type\ttime_ms\tpercent\nbusy_time\t1\t100\n' >timeline.tsv
printf 'count\tdirect_kernel_time_us_sum\n1\t2\n' >nokey.tsv
printf 'x\ty\n1\t2\n' >unknown.tsv
printf 'name\tcount\tlaunch_delay_us_sum\nk\t1\t1\n' >launch_delay_stats.tsv
printf 'bin_start_us\tbin_end_us\tcount\n1\t2\t3\n' >hist.tsv
printf 'uid\tph\tcat\tname\tts_ns\tdur_ns\tparent\tdepth\n' >tree.tsv
printf 'name\tcount\tdirect_kernel_time_us_sum\tcategories\n' >bad.tsv
printf 'aten::mm\t1\tx2\tGEMM\n' >>bad.tsv
run() {
	tl-join "$@"
	echo "exit $?"
}
echo "== tables of different kinds"
run ops.tsv timeline.tsv
run ops.tsv launch_delay_stats.tsv
run unknown.tsv ops.tsv
echo "== a missing key column"
run ops.tsv nokey.tsv
run -k x ops.tsv unknown.tsv
echo "== no key known"
run unknown.tsv unknown.tsv
run -n h1,h2 hist.tsv hist.tsv
run -n t1,t2 tree.tsv tree.tsv
echo "== tags"
run ops.tsv ops.tsv
run -n x,x a/ops.tsv b/ops.tsv
run -n x,x_diff a/ops.tsv b/ops.tsv
run -n 'a b,c' a/ops.tsv b/ops.tsv
run -n a__b,c a/ops.tsv b/ops.tsv
run -n a, a/ops.tsv b/ops.tsv
run -n a,b,c a/ops.tsv b/ops.tsv
echo "== -m"
run -m nope a/ops.tsv b/ops.tsv
run -m name a/ops.tsv b/ops.tsv
run -m direct_kernel_time_us_sum ops.tsv bad.tsv
run -m categories a/ops.tsv b/ops.tsv
echo "== -k"
run -k name,name a/ops.tsv b/ops.tsv
run -k , a/ops.tsv b/ops.tsv
echo "== options"
run a/ops.tsv
run -t nope a/ops.tsv b/ops.tsv
run -e x a/ops.tsv b/ops.tsv
run -S all a/ops.tsv b/ops.tsv
run -p a/ops.tsv b/ops.tsv
run - - a/ops.tsv
run a/ops.tsv nosuch.tsv
echo "== tl-cmpreport"
tl-cmpreport a b
echo "exit $?"
tl-cmpreport -k name -o out a b
echo "exit $?"
tl-cmpreport -o out a/ops.tsv b
echo "exit $?"
tl-cmpreport -o out a.xlsx b
echo "exit $?"
