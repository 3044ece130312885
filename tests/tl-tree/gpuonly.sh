# GPU-only traces (no cpu_op): runtime launches are the launchers and the
# roots; a kernel that no launch reaches, and a trace of kernels alone,
# are kept with linked 0 and counted.
cols() {
	awk -F'\t' -v OFS='\t' -v want="$1" '
	NR == 1 { n = split(want, w, ","); for (i = 1; i <= NF; i++) c[$i] = i }
	{ s = $c[w[1]]; for (j = 2; j <= n; j++) s = s OFS $c[w[j]]; print s }'
}
ln -s "$TESTDATA"/*.json . || exit 1
tl-parse tree-gpuonly.json | tl-tree >out || exit 1
cols uid,cat,name,parent,depth,root,launcher,linked,gpu_kernel_time_ns <out
tl-parse tree-kernels.json | tl-tree >out || exit 1
cols uid,cat,name,parent,depth,root,launcher,linked <out
tl-parse tree-kernels.json | tl-tree -p
echo "exit $?"
