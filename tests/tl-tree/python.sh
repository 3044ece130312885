# Python frames (-P) and user annotations (-A) join the tree only when
# asked; the nn.Module stack (names without their _<digits>) comes with
# -P; the launcher skips python frames; a python frame that outlasts its
# parent is left out and reported.
cols() {
	awk -F'\t' -v OFS='\t' -v want="$1" '
	NR == 1 { n = split(want, w, ","); for (i = 1; i <= NF; i++) c[$i] = i }
	{ s = $c[w[1]]; for (j = 2; j <= n; j++) s = s OFS $c[w[j]]; print s }'
}
ln -s "$TESTDATA"/*.json . || exit 1
tl-parse tree-python.json >ev || exit 1
for o in "" -P -A "-P -A"; do
	echo "== tl-tree $o"
	tl-tree $o <ev >out || exit 1
	cols uid,cat,name,parent,depth,launcher,subtree_kernel_time_ns,nn_module <out
done
echo "== tl-tree -p -P -A"
tl-tree -p -P -A <ev
