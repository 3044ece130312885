# tl-xdiff: comparison by operation and by layer, on hand-made pairs of tree
# streams: each status rule, the thresholds, the fused-row rule, layers
# and the phase filter.
#
# gen writes a tree stream from lines "cat<TAB>name<TAB>dur_ns[<TAB>op]":
# each GPU event with a cpu_op and a launch above it, one after another;
# "begin<TAB>name" and "end" put a user_annotation around what is between.
gen() {
	awk -F'\t' 'BEGIN {
		OFS = "\t"
		print "uid", "cat", "name", "ts_ns", "dur_ns", "parent", \
		    "depth", "launcher"
		u = 0; ts = 1000
	}
	$1 == "begin" { an = $2; au = u++; ats = ts; next }
	$1 == "end" {
		print au, "user_annotation", an, ats, ts - ats, "", "", ""
		next
	}
	{
		op = $4 == "" ? "aten::op" : $4
		print u, "cpu_op", op, ts, 100, "", 0, ""
		print u + 1, "cuda_runtime", "cudaLaunchKernel", ts + 10, 20, \
		    u, 1, ""
		print u + 2, $1, $2, ts + 50, $3, u + 1, 2, u
		u += 3
		ts += $3 + 100
	}'
}
t='	'
echo "== status by the 5 ms rule: slower, faster, similar, one side only"
gen >a.tsv <<EOF2
kernel${t}nvjet_tst_128x64${t}10000000${t}aten::mm
kernel${t}flash_fwd_kernel${t}10000000${t}aten::_flash_attention_forward
kernel${t}layer_norm_kernel${t}3000000${t}aten::layer_norm
kernel${t}vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl>${t}1000000${t}aten::gelu
kernel${t}direct_copy_kernel_cuda${t}2000${t}aten::copy_
EOF2
gen >b.tsv <<EOF2
kernel${t}Cijk_Alik_Bljk_MT64x64${t}8000000${t}aten::mm
kernel${t}Cijk_Alik_Bljk_MT32x32${t}8000000${t}aten::mm
kernel${t}attn_fwd${t}4000000${t}aten::_flash_attention_forward
kernel${t}layer_norm_kernel${t}7900000${t}aten::layer_norm
kernel${t}vectorized_elementwise_kernel<8, at::native::GeluCUDAKernelImpl>${t}6000000${t}aten::gelu
gpu_memset${t}Memset (Device)${t}1000${t}aten::zero_
EOF2
tl-xdiff a.tsv b.tsv
echo "exit $?"
echo "== -g 1: the 4.9 ms gap is slower"
tl-xdiff -g 1 a.tsv b.tsv | cut -f 1,2,10
echo "== the same trace: all similar, exit 0"
tl-xdiff -q a.tsv a.tsv
echo "exit $?"
echo "== kernels"
tl-xdiff -t kernels a.tsv b.tsv
echo "exit $?"

echo "== fused: the baseline's RMSNorm+GEMM against the variant's pair"
gen >f1.tsv <<EOF2
kernel${t}triton_red_fused_addmm_mean_mul_pow_rsqrt_0${t}1000000${t}aten::addmm
kernel${t}Cijk_Alik_Bljk_MT64x64${t}5000000${t}aten::mm
kernel${t}triton_red_fused_addmm_mean_mul_pow_rsqrt_0${t}1000000${t}aten::addmm
kernel${t}layer_norm_kernel${t}500000${t}aten::layer_norm
EOF2
gen >f2.tsv <<EOF2
kernel${t}rms_norm_kernel${t}500000${t}vllm::rms_norm
kernel${t}nvjet_tst_64x8${t}1000000${t}aten::mm
kernel${t}nvjet_tst_128x64${t}5000000${t}aten::mm
kernel${t}rms_norm_kernel${t}500000${t}vllm::rms_norm
kernel${t}nvjet_tst_64x8${t}1000000${t}aten::mm
kernel${t}layer_norm_kernel${t}500000${t}aten::layer_norm
EOF2
tl-xdiff -t ops f1.tsv f2.tsv | cut -f 1-11
tl-xdiff -t ops f2.tsv f1.tsv | cut -f 1-11
tl-xdiff -t kernels f1.tsv f2.tsv | cut -f 1-6
echo "== fused on both sides: rows of their own"
cat f1.tsv >f3.tsv
gen <<EOF2 | sed 1d | awk -F'\t' -v OFS='\t' '{ $1 += 1000; print }' >>f3.tsv
kernel${t}triton_red_fused_addmm_mean_mul_pow_rsqrt_0${t}1000000${t}aten::addmm
EOF2
tl-xdiff -t ops f3.tsv f1.tsv | cut -f 1-7
echo "== fused, but the other side has none of its parts: one side only"
gen >f4.tsv <<EOF2
kernel${t}layer_norm_kernel${t}500000${t}aten::layer_norm
EOF2
tl-xdiff -t ops f1.tsv f4.tsv | cut -f 1-7

echo "== layers, split at attention kernels: 0.1 ms and 20 %"
gen >l1.tsv <<EOF2
kernel${t}embedding_kernel${t}100000
kernel${t}flash_fwd_kernel${t}1000000
kernel${t}flash_fwd_kernel${t}1000000
kernel${t}nvjet_a${t}1000000
kernel${t}flash_fwd_kernel${t}1000000
kernel${t}nvjet_a${t}1000000
kernel${t}flash_fwd_kernel${t}1000000
kernel${t}nvjet_a${t}1000000
kernel${t}flash_fwd_kernel${t}10000
kernel${t}nvjet_a${t}10000
EOF2
gen >l2.tsv <<EOF2
kernel${t}embedding_kernel${t}100000
kernel${t}attn_fwd${t}1000000
kernel${t}Cijk_a${t}1200000
kernel${t}attn_fwd${t}1000000
kernel${t}Cijk_a${t}1500000
kernel${t}attn_fwd${t}500000
kernel${t}Cijk_a${t}500000
kernel${t}attn_fwd${t}10000
kernel${t}Cijk_a${t}30000
kernel${t}attn_fwd${t}10000
EOF2
tl-xdiff -t layers l1.tsv l2.tsv
echo "exit $?"
tl-xdiff -t layers -G 0.3 -r 30 l1.tsv l2.tsv | cut -f 1,2
echo "== -o"
tl-xdiff -o out l1.tsv l2.tsv
echo "exit $?"
ls out
tl-xdiff -t layers l1.tsv l2.tsv 2>/dev/null | cmp - out/layers.tsv &&
	echo "layers.tsv: the same"

echo "== phases from execute_context annotations"
gen >p1.tsv <<EOF2
begin${t}execute_context_1(2048)_generation_0(0)
kernel${t}flash_fwd_kernel${t}3000000
kernel${t}nvjet_a${t}2000000
end
begin${t}execute_context_0(0)_generation_1(1)
kernel${t}flash_fwd_kernel${t}100000
kernel${t}nvjet_a${t}200000
end
begin${t}execute_context_0(0)_generation_1(1)
kernel${t}flash_fwd_kernel${t}100000
kernel${t}nvjet_a${t}200000
end
EOF2
gen >p2.tsv <<EOF2
kernel${t}kernel_unified_attention_2d${t}2000000
kernel${t}Cijk_a${t}2500000
kernel${t}kernel_unified_attention_3d${t}50000
kernel${t}Cijk_a${t}300000
kernel${t}kernel_unified_attention_3d${t}50000
kernel${t}Cijk_a${t}300000
EOF2
for f in prefill decode; do
	echo "-- -f $f"
	tl-xdiff -f $f -t ops p1.tsv p2.tsv | cut -f 1-7
	tl-xdiff -f $f -t layers p1.tsv p2.tsv | cut -f 1-8
done
