# GPU linking (spec 2.2, 2.5): ac2g flows s/f and the correlation, a flow
# with no "f" (the memset stays unlinked), "execute" passed through on the
# way to the launcher, a launch with no cpu_op above it (the launch is the
# launcher), a graph launch owning every kernel with its correlation, a
# stray "f" on the CPU thread, a flow leading back to a CPU event (refused),
# one kernel reached by two launches (the last kept), a zero-duration
# kernel, nested launchers (direct against subtree time, as interval
# unions), and a kernel that no launch reaches.
cols() {
	awk -F'\t' -v OFS='\t' -v want="$1" '
	NR == 1 { n = split(want, w, ","); for (i = 1; i <= NF; i++) c[$i] = i }
	{ s = $c[w[1]]; for (j = 2; j <= n; j++) s = s OFS $c[w[j]]; print s }'
}
ln -s "$TESTDATA"/*.json . || exit 1
tl-parse tree-gpu.json | tl-tree >out || exit 1
cols uid,cat,name,parent,depth,root,launcher,linked,gpu_kernel_time_ns,subtree_kernel_time_ns <out
