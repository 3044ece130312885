# A trace without flow events (HTA links GPU events by args.correlation
# alone): each launch takes the GPU events of its correlation, as a graph
# launch does, and tl-tree says so; a GPU event whose correlation no
# launch has stays unlinked. With one flow in the trace, nothing links by
# key alone: the kernel without a flow stays unlinked.
x() {	# name cat ts dur pid tid args
	printf '{"ph":"X","name":"%s","cat":"%s","ts":%s,"dur":%s,"pid":%s,"tid":%s,"args":{%s}},\n' "$@"
}
trace() {	# extra events
	echo '{"traceEvents":['
	{
	x aten::mm cpu_op 0 50 1 1 ''
	x cudaLaunchKernel cuda_runtime 10 5 1 1 '"correlation":7'
	x gemm kernel 20 9 0 7 '"correlation":7,"stream":7'
	x orphan kernel 40 2 0 7 '"correlation":9,"stream":7'
	printf '%s' "$1"
	} | sed '$s/,$//'
	echo ']}'
}
show() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["uid"] != "" && $c["cat"] != "ac2g" { print $c["uid"],
	    $c["name"], "parent=" $c["parent"], "launcher=" $c["launcher"],
	    "linked=" $c["linked"], $c["gpu_kernel_time_ns"] }'
}
trace '' >nf.json
tl-parse nf.json | tl-tree | show
trace '{"ph":"s","id":3,"ts":1,"pid":1,"tid":1,"cat":"ac2g","name":"ac2g"},
' >f.json
tl-parse f.json | tl-tree | show
