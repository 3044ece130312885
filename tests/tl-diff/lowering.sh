# A convolution lowered differently on the two sides (miopen on the
# baseline, cudnn on the variant; TraceLens's example): the lowest common
# node is aten::_convolution, and aten::add_ pairs up under it.
# With -T: the launch APIs of the two vendors never match, so aten::relu's
# kernels are compared at the op, and miopen_convolution leaves the merged
# tree (it is still the cpu_op of its rows). By default, hipLaunchKernel
# and cudaLaunchKernel are the same node, and the kernels pair up.
a=$TESTDATA/diff-conv-a.tsv
b=$TESTDATA/diff-conv-b.tsv
tl-diff -T -o out "$a" "$b"
echo "exit $?"
cat out/merged_tree_output.txt
cat out/diff_stats.csv
cat out/diff_stats_unique_args_summary.csv
cat out/cpu_op_map_trace1.json; echo
cat out/cpu_op_map_trace2.json; echo
cat out/cpu_op_map.json; echo
echo "== default"
tl-diff -p "$a" "$b"
echo "exit $?"
tl-diff "$a" "$b"
echo "exit $?"
