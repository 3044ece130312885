# Drawing the tree (-p): the whole trace, only the GPU paths (-g), a depth
# limit (-d), one subtree by uid (-n) or by External id, pid and tid (-e),
# and the chain of parents of one node (-u), with and without a limit.
ln -s "$TESTDATA"/*.json . || exit 1
tl-parse tree-gpu.json >ev || exit 1
echo "== -p"
tl-tree -p <ev 2>/dev/null
echo "== -p -g -d 1"
tl-tree -p -g -d 1 <ev 2>/dev/null
echo "== -p -n 43"
tl-tree -p -n 43 <ev 2>/dev/null
echo "== -p -d 0 -n 43"
tl-tree -p -d 0 -n 43 <ev 2>/dev/null
echo "== -p -e 11,1,1"
tl-tree --print --external-id 11,1,1 <ev 2>/dev/null
echo "== -u 50"
tl-tree -u 50 <ev 2>/dev/null
echo "== -u 50 -d 1"
tl-tree --up 50 --depth 1 <ev 2>/dev/null
echo "== -u 53"
tl-tree -u 53 <ev 2>/dev/null
