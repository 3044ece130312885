# The linking key (spec 2.2): when the first launch has no correlation,
# External id links launches, flows and GPU events.
cols() {
	awk -F'\t' -v OFS='\t' -v want="$1" '
	NR == 1 { n = split(want, w, ","); for (i = 1; i <= NF; i++) c[$i] = i }
	{ s = $c[w[1]]; for (j = 2; j <= n; j++) s = s OFS $c[w[j]]; print s }'
}
ln -s "$TESTDATA"/*.json . || exit 1
tl-parse tree-extid.json | tl-tree >out || exit 1
cols uid,cat,correlation,external_id,parent,launcher,linked,gpu_kernel_time_ns <out
