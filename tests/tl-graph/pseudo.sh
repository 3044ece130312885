# tl-graph -p: TraceLens's pseudo ops for the MoE ops of vLLM's Triton
# path. One vllm::moe_forward with, under a python frame, three launches:
# two matmul_ogs GEMM kernels (the first in time, gated, becomes _up; the
# other _down) and a matmul_scatter kernel (_finalize_...); a TopK op
# below gives topk from its concrete input 1. Each launch moves under its
# pseudo op (parent, depth); the kernels' launcher stays the MoE op; the
# pseudo ops come last, with the next uids, the MoE op's shapes, the
# kernel's correlation as external_id, no duration, and the args the
# perf model reads. Then: no TopK (topk 4, said), two matmul_scatter
# kernels (no finalize op, said), an extension tl does not build (said),
# and -p with -c.
f() {	# ph id ts pid tid: an ac2g flow event
	printf '{"ph":"%s","id":%s,"ts":%s,"pid":%s,"tid":%s,"cat":"ac2g","name":"ac2g","bp":"e"},\n' "$@"
}
x() {	# name cat ts dur pid tid args
	printf '{"ph":"X","name":"%s","cat":"%s","ts":%s,"dur":%s,"pid":%s,"tid":%s,"args":{%s}},\n' "$@"
}
moe() {	# topk-op-name last-kernel-name extra-op-name
	echo '{"traceEvents":['
	{
	x vllm::moe_forward cpu_op 0 100 1 1 '"Input Dims":[[64,128],[64,8]],"Input type":["c10::BFloat16","c10::BFloat16"],"Sequence number":7'
	x 'vllm/topk.py(1): topk' python_function 1 9 1 1 ''
	x "$1" cpu_op 2 5 1 1 '"Input Dims":[[64,8],[]],"Concrete Inputs":["","2"]'
	x 'triton/runtime/jit.py(574): run' python_function 10 80 1 1 ''
	x hipModuleLaunchKernel cuda_runtime 11 2 1 1 '"correlation":101'
	x hipModuleLaunchKernel cuda_runtime 30 2 1 1 '"correlation":102'
	x hipModuleLaunchKernel cuda_runtime 50 2 1 1 '"correlation":103'
	x hipModuleLaunchKernel cuda_runtime 70 2 1 1 '"correlation":104'
	x _matmul_ogs_NNT_bf16xbf16xmxfp4_swiglu kernel 20 5 0 7 '"correlation":101,"stream":7'
	x _matmul_ogs_NNT_bf16xbf16xmxfp4 kernel 40 4 0 7 '"correlation":102,"stream":7'
	x _finalize_matmul_scatter_bf16 kernel 60 3 0 7 '"correlation":103,"stream":7'
	x "$2" kernel 80 2 0 7 '"correlation":104,"stream":7'
	x "$3" cpu_op 200 5 1 1 ''
	f s 101 11 1 1; f f 101 20 0 7
	f s 102 30 1 1; f f 102 40 0 7
	f s 103 50 1 1; f f 103 60 0 7
	f s 104 70 1 1; f f 104 80 0 7
	} | sed '$s/,$//'
	echo ']}'
}
show() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["uid"] != "" && $c["cat"] != "ac2g" {
	    print $c["uid"], $c["name"], $c["ts_ns"], "dur=" $c["dur_ns"],
	    "parent=" $c["parent"], "depth=" $c["depth"],
	    "launcher=" $c["launcher"], $c["external_id"], $c["seq"],
	    $c["input_dims"], $c["args"], $c["gpu_kernel_time_ns"],
	    $c["subtree_kernel_time_ns"] }'
}
moe aten::TopK aten_copy_kernel aten::add >t.json
tl-parse t.json | tl-tree -P >tree.tsv
tl-graph -p tree.tsv >p.tsv
echo "exit $?"
show <p.tsv
echo "rows changed or added: $(diff tree.tsv p.tsv | grep -c '^[<>]')"
echo "== no TopK; two matmul_scatter kernels; MLA decode"
moe aten::add _matmul_scatter_x aiter::mla_decode_stage1_asm_fwd |
    sed 's|"name":"vllm/topk.py(1): topk"|"name":"aiter/mla.py(9): mla_decode_fwd"|' >t2.json
tl-parse t2.json | tl-tree -P | tl-graph -p | show
echo "== -p reads a merged tree"
tl-graph -p -c . tree.tsv
echo "exit $?"
echo "== -u: the merge without -c and -p in one, as tl-graph | tl-graph -p"
{
	moe aten::TopK aten_copy_kernel aten::add | sed '$d'
	echo ','
	x cudaGraphLaunch cuda_runtime 900 5 1 1 '"correlation":90'
	x sglang_profiler::layer_3 cpu_op 950 5 1 1 ''
	x Kg kernel 910 10 0 7 '"correlation":90,"stream":7' | sed '$s/,$//'
	echo ']}'
} >t3.json
tl-parse t3.json | tl-tree -P >tree3.tsv 2>/dev/null
tl-graph -n tree3.tsv 2>e1 | tl-graph -p >p1.tsv 2>>e1
tl-graph -u -n -p tree3.tsv >p2.tsv 2>e2
cmp p1.tsv p2.tsv && echo "the same rows"
sed 's/<stdin>/tree3.tsv/' e1 | awk '!seen[$0]++' | diff - e2 && echo "the same messages"
cat e2
tl-graph -u tree3.tsv
echo "exit $?"
echo "== an op before the MoE op: its rows written at once, the rest as before"
{
	echo '{"traceEvents":['
	x aten::mm cpu_op -50 20 1 1 ''
	x cudaLaunchKernel cuda_runtime -45 2 1 1 '"correlation":90'
	x gemm_kernel kernel -40 5 0 7 '"correlation":90,"stream":7'
	f s 90 -45 1 1
	f f 90 -40 0 7
	moe aten::TopK aten_copy_kernel aten::add | sed 1d
} >t4.json
tl-parse t4.json | tl-tree -P >tree4.tsv
tl-graph -p tree4.tsv | show
echo "== tl-tree -c counts the MoE ops: with none, the rows as they come"
# (a python frame after its children: without the count, -p would hold
# every row from the first; the output is the same either way)
{
	echo '{"traceEvents":['
	x aten::mm cpu_op 10 20 1 1 ''
	x cudaLaunchKernel cuda_runtime 15 2 1 1 '"correlation":90'
	x gemm_kernel kernel 40 5 0 7 '"correlation":90,"stream":7'
	x 'model.py(3): forward' python_function 0 100 1 1 ''
	f s 90 15 1 1
	f f 90 40 0 7 | sed '$s/,$//'
	echo ']}'
} >t5.json
tl-parse t5.json | tl-tree -P >tree5.tsv
tl-parse t5.json | tl-tree -P -c vllm::moe_forward >tree5c.tsv
awk -F'\t' '$3 == "tree_count" { print "fact:", $4, $19 }' tree5c.tsv
tl-graph -u -p tree5.tsv >p5.tsv 2>e5
tl-graph -u -p tree5c.tsv >p5c.tsv 2>e5c
cmp p5.tsv p5c.tsv && cmp e5 e5c && echo "the same rows and messages, the fact row taken"
echo "== a count of some: the rows wait as before"
tl-parse t.json | tl-tree -P -c vllm::moe_forward >tree6c.tsv
awk -F'\t' '$3 == "tree_count" { print "fact:", $4, $19 }' tree6c.tsv
tl-graph -p tree6c.tsv | cmp - p.tsv && echo "the same rows"
echo "== a count of none, then a MoE op: the stream was changed"
tl-parse t.json | tl-tree -P -c vllm::moe_forward |
    awk -F'\t' -v OFS='\t' '$3 == "tree_count" { $19 = 0 } { print }' |
    tl-graph -p >/dev/null
echo "exit $?"
echo "== a count that is not one"
awk -F'\t' -v OFS='\t' '$3 == "tree_count" { $19 = "x" } { print }' \
    tree5c.tsv | tl-graph -p >/dev/null
echo "exit $?"
awk -F'\t' -v OFS='\t' '$3 == "tree_count" { $19 = -1 } { print }' \
    tree5c.tsv | tl-graph -p >/dev/null
echo "exit $?"
