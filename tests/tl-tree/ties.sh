# Host nesting (spec 2.4): stable sort by ts, pop when ts >= the top's end,
# the bleed rule (less than 1 us past the top at depth >= 2: pop once;
# otherwise left out and reported), zero durations, threads, and events
# whose file order is not their time order.
cols() {
	awk -F'\t' -v OFS='\t' -v want="$1" '
	NR == 1 { n = split(want, w, ","); for (i = 1; i <= NF; i++) c[$i] = i }
	{ s = $c[w[1]]; for (j = 2; j <= n; j++) s = s OFS $c[w[j]]; print s }'
}
ln -s "$TESTDATA"/*.json . || exit 1
tl-parse tree-ties.json | tl-tree >out || exit 1
cols uid,ph,name,tid,ts_ns,dur_ns,parent,depth,root,gpu_kernel_time_ns <out
