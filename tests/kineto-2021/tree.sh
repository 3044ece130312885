# The tree of a 2021 trace: launches linked to the kernel, memset and
# memcpy they started through the async flows; whole-microsecond ties:
# aten::linear starts in the same microsecond as aten::empty, which
# the file has first, and holds it (without the tie rule, the bleed rule
# would leave aten::linear out of the tree); the op that launched each
# GPU event and the busy time under each op.
cols() {
	awk -F'\t' -v OFS='\t' -v want="$1" '
	NR == 1 { n = split(want, w, ","); for (i = 1; i <= NF; i++) c[$i] = i }
	{ s = $c[w[1]]; for (j = 2; j <= n; j++) s = s OFS $c[w[j]]; print s }'
}
cd "$TESTDATA/../kineto-2021" || exit 1
tl-parse small.json | tl-tree >"$OLDPWD/tree" || exit 1
cd "$OLDPWD" || exit 1
cols uid,cat,name,ts_ns,dur_ns,parent,depth,root,launcher,linked,gpu_kernel_time_ns,subtree_kernel_time_ns <tree
tl-agg ops tree
tl-agg timeline tree
