# Summaries. roof-group.json has four aten::mm of one shape, with kernel
# times of 1.5, 2.5, 5.5 and 3 us (their kernels are 1 + 0.5, 2 + 0.5,
# 4 + 1.5 and 3 us), and one of another shape with 8 us. -s GEMM groups
# them by name and parameters: count 4, kernel_time_ns sum 12500, mean
# 3125, median (2500 + 3000) / 2 = 2750, sample std 1701.7..., min 1500,
# max 5500; flop 2*128*32*64 = 524288, bytes (8192 + 2048 + 4096)*2 =
# 28672; the arch is MI300X, from deviceProperties: the roofline is the
# memory time, 28672 B / 5300 GB/s = 5.4098 ns. Rows are sorted by the
# kernel time sum, largest first.
ln -s "$TESTDATA"/roof-group.json "$TESTDATA"/roof-models.json . || exit 1
tl-parse roof-group.json | tl-tree >group.tsv || exit 1
tl-roofline -s GEMM group.tsv 2>err
echo "exit $?"
sed 's|(/.*/arch/|(.../arch/|' err
# Other sheets of the models trace: the backward rows (linked, and the
# backward ops themselves), and an empty sheet (just the header).
tl-parse roof-models.json | tl-tree >models.tsv || exit 1
show() {
	awk -F'\t' -v OFS='\t' -v want="$1" '
	NR == 1 { n = split(want, w, ","); for (i = 1; i <= NF; i++) c[$i] = i }
	{ s = $c[w[1]]; for (j = 2; j <= n; j++) s = s OFS $c[w[j]]; print s }'
}
tl-roofline -a MI300X -s SDPA_bwd models.tsv 2>/dev/null |
    show name,flop,bytes,kernel_time_ns_sum,count,uid,bound
tl-roofline -a MI300X -s CONV_bwd models.tsv 2>/dev/null |
    show name,param_output_mask,flop,bytes,count,uid
tl-roofline -s Reduce_bwd models.tsv 2>/dev/null | show name,count
echo "exit $?"
