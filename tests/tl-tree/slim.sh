# -s leaves out the flow events and, with -P, the python frames with no
# other event below them (threading.py's wait here), but the row of the
# largest uid (the last flow event); the other rows are as without -s,
# but for nn_module, left empty, and the args of the launches.
ln -s "$TESTDATA"/*.json . || exit 1
tl-parse tree-python.json >ev || exit 1
for o in -P ""; do
	echo "== tl-tree -s $o"
	tl-tree -s $o <ev >slim || exit 1
	tl-tree $o <ev >full 2>/dev/null || exit 1
	awk -F'\t' '{ print $1 "\t" $3 "\t" $4 "\t[" $19 "]\t[" $NF "]" }' slim
	# every row written is the row without -s, but its nn_module (and
	# a launch's args)
	awk -F'\t' -v OFS='\t' '{ $NF = "" } $3 == "cuda_runtime" { $19 = "" }
	    NR == FNR { full[$0] = 1; next }
	    !($0 in full) { print "differs: " $0 }' full slim
done
tl-tree -s -p <ev || echo "exit $?"
