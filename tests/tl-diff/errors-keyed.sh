# -K: bad input and bad options give one located line and exit 2.
t='	'
printf 'name\tcount\tdirect_kernel_time_us_sum\tcategories\n' >ops.tsv
printf 'aten::mm\t1\t2\tGEMM\n' >>ops.tsv
mkdir a b
cp ops.tsv a/ops.tsv
cp ops.tsv b/ops.tsv
printf 'type\ttime_ms\tpercent\nbusy_time\t1\t100\n' >timeline.tsv
printf 'count\tdirect_kernel_time_us_sum\n1\t2\n' >nokey.tsv
printf 'x\ty\n1\t2\n' >unknown.tsv
printf 'name\tcount\tlaunch_delay_us_sum\nk\t1\t1\n' >launch_stats.tsv
printf 'bin_start_us\tbin_end_us\tcount\n1\t2\t3\n' >hist.tsv
printf 'uid\tph\tcat\tname\tts_ns\tdur_ns\tparent\tdepth\n' >tree.tsv
printf 'name\tcount\tdirect_kernel_time_us_sum\tcategories\n' >bad.tsv
printf 'aten::mm\t1\tx2\tGEMM\n' >>bad.tsv
run() {
	tl-diff "$@"
	echo "exit $?"
}
echo "== tables of different kinds"
run -K ops.tsv timeline.tsv
run -K ops.tsv launch_stats.tsv
run -K unknown.tsv ops.tsv
echo "== a missing key column"
run -K ops.tsv nokey.tsv
run -K -k x ops.tsv unknown.tsv
echo "== no key known"
run -K unknown.tsv unknown.tsv
run -K -n h1,h2 hist.tsv hist.tsv
run -K -n t1,t2 tree.tsv tree.tsv
echo "== tags"
run -K ops.tsv ops.tsv
run -K -n x,x a/ops.tsv b/ops.tsv
run -K -n x,x_diff a/ops.tsv b/ops.tsv
run -K -n 'a b,c' a/ops.tsv b/ops.tsv
run -K -n a__b,c a/ops.tsv b/ops.tsv
run -K -n a, a/ops.tsv b/ops.tsv
run -K -n a,b,c a/ops.tsv b/ops.tsv
echo "== -m"
run -K -m nope a/ops.tsv b/ops.tsv
run -K -m name a/ops.tsv b/ops.tsv
run -K -m direct_kernel_time_us_sum ops.tsv bad.tsv
run -K -m categories a/ops.tsv b/ops.tsv
echo "== -k"
run -K -k name,name a/ops.tsv b/ops.tsv
run -K -k , a/ops.tsv b/ops.tsv
echo "== options"
run -K a/ops.tsv
run -K -t nope a/ops.tsv b/ops.tsv
run -K -e x a/ops.tsv b/ops.tsv
run -K -S all a/ops.tsv b/ops.tsv
run -K -p a/ops.tsv b/ops.tsv
run -K -X a b
run -k name a b
run -m count a b
run -n a,b a b
run -S all a b
run -K - - a/ops.tsv
run -K a/ops.tsv nosuch.tsv
echo "== -K -T"
run -K -T a b
run -K -T -k name -o out a b
run -K -T -o out a/ops.tsv b
run -K -T -o out a.xlsx b
