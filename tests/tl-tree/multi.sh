# Several traces in one stream (tl-parse a b): each has a tree of its own,
# so equal uids in two traces do not mix; -p heads each with its name.
# Several operands: each is a stream, and they must share one header.
ln -s "$TESTDATA"/*.json . || exit 1
tl-parse tree-gpuonly.json tree-kernels.json >ev || exit 1
tl-tree <ev | awk -F'\t' -v OFS='\t' '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
	{ print $c["uid"], $c["cat"], $c["trace"], $c["parent"], $c["linked"] }'
echo "== -p"
tl-tree -p <ev
echo "== -p -n 2"
tl-tree -p -n 2 <ev 2>/dev/null
echo "== two operands"
tl-parse tree-gpuonly.json >a.tsv
tl-parse tree-kernels.json >b.tsv
tl-tree a.tsv b.tsv | cut -f1,3,21,25
echo "exit $?"
awk -F'\t' -v OFS='\t' '{ print $0, NR == 1 ? "note" : "" }' b.tsv >c.tsv
tl-tree a.tsv c.tsv >/dev/null
echo "exit $?"
