# -p and TorchInductor's Triton kernels: the fused ops from the name,
# xnumel (and rnumel for a reduction) from the last integer concrete
# inputs, FLOPs and bytes; a kernel with an op outside the table of
# FLOPs per element, or without xnumel, gets no perf columns and is
# counted on the standard error. With -t, TraceLens's model from the
# trace's args: an op outside its table is 0 FLOPs, Kineto's float 0
# bytes, a reduction with one integer has rnumel 1. Without -p they are
# counted as kernels with no sheet.
h='uid\tph\tcat\tname\tpid\ttid\tts_ns\tdur_ns\tstream\targs'
h="$h\tinput_dims\tinput_types\tinput_strides\tconcrete_inputs\tparent"
h="$h\tdepth\tbwd_uids"
{
printf "$h\n"
printf '1\tX\tcpu_op\ttriton_poi_fused__unsafe_view_mul_silu_2\t1\t1\t0\t9\t\t{}\t[[8,4096,8192],[32768,8192],[]]\t["c10::BFloat16","c10::BFloat16","Scalar"]\t\t["","","268435456"]\t\t0\t\n'
printf '2\tX\tcpu_op\ttriton_red_fused_add_mean_mul_pow_rsqrt_0\t1\t1\t10\t9\t\t{}\t[[8,4096,2048],[2048],[8,4096,2048],[],[]]\t["c10::BFloat16","c10::BFloat16","c10::BFloat16","Scalar","Scalar"]\t\t["","","","32768","2048"]\t\t0\t\n'
printf '3\tX\tcpu_op\ttriton_poi_fused_gelu_0\t1\t1\t20\t9\t\t{}\t[[4,4]]\t["float"]\t\t["16"]\t\t0\t\n'
printf '4\tX\tcpu_op\ttriton_per_fused_add_1\t1\t1\t30\t9\t\t{}\t[[4,4]]\t["float"]\t\t["","16"]\t\t0\t\n'
printf '5\tX\tcpu_op\ttriton_poi_fused_cos_0\t1\t1\t40\t9\t\t{}\t[[4,4]]\t["c10::BFloat16"]\t\t["16"]\t\t0\t\n'
} >tree.tsv
for o in "-p -a none" "-t -p"; do
	echo "tl-roofline $o"
	tl-roofline $o tree.tsv >out 2>err
	echo "exit $?"
	awk -F'\t' -v OFS='\t' '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["uid"], $c["model"], $c["params"], $c["flop"], $c["bytes"],
	    $c["compute_spec"] }' out
	cat err
done
tl-roofline -t tree.tsv 2>&1 >/dev/null
