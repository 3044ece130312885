# tl-graph's alignment paths on small traces made here: positional,
# greedy (a capture launch too many), group-by-name (the replay runs two
# kernels in another order), no alignment (a kernel the capture never
# launched), multi-stream, and a multi-stream capture without kernel
# names (the merge abandoned). For each: every GPU event's parent and
# launcher after the merge, and tl-graph's summary.
ev() {	# name cat ts dur pid tid args
	printf '{"ph":"X","name":"%s","cat":"%s","ts":%s,"dur":%s,"pid":%s,"tid":%s,"args":{%s}},\n' "$@"
}
trace() {	# file: the events on stdin
	{ echo '{"traceEvents":['; sed '$s/,$//'; echo ']}'; } >"$1"
}
replay() {	# k1 s1 k2 s2
	{
	ev 'execute_4_context_0(sq0sk0sqsq0sqsk0)_generation_4(sq4sk10sqsq4sqsk10)' user_annotation 0 1000 1 1 ''
	ev hipGraphLaunch cuda_runtime 100 50 1 1 '"correlation":7'
	ev "$1" kernel 200 10 0 0 "\"correlation\":7,\"stream\":$2"
	ev "$3" kernel 220 10 0 0 "\"correlation\":7,\"stream\":$4"
	} | trace replay.json
}
capture() {	# kernel of launch 1, 2, and an extra launch ("" for none)
	mkdir -p cap
	{
	ev 'run.py(1): run' python_function 0 200 5 5 ''
	ev hipStreamBeginCapture cuda_runtime 10 5 5 5 ''
	ev 'nn.Module: Linear_0' python_function 18 40 5 5 ''
	ev aten::mm cpu_op 20 30 5 5 ''
	ev hipLaunchKernel cuda_runtime 25 5 5 5 "$1"
	ev aten::add cpu_op 60 20 5 5 ''
	[ -z "$3" ] || ev hipLaunchKernel cuda_runtime 62 2 5 5 "$3"
	ev hipLaunchKernel cuda_runtime 65 5 5 5 "$2"
	ev hipStreamEndCapture cuda_runtime 100 5 5 5 ''
	} | trace cap/c.json
	echo '[{"file": "c.json", "batch_size": 8, "mode": "FULL"}]' \
	    >cap/execution_details.json
}
show() {
	tl-parse replay.json | tl-tree -P 2>/dev/null |
	    tl-graph -c cap >m.tsv 2>err || echo "exit $?"
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["uid"] != "" { n[$c["uid"]] = $c["name"]; m[$c["uid"]] = $c["nn_module"] }
	$c["cat"] == "kernel" { k[++nk] = $c["name"]; p[nk] = $c["parent"]
		l[nk] = $c["launcher"] }
	END { for (i = 1; i <= nk; i++)
		print "  " k[i] ": parent " p[i] " " n[p[i]] ", launcher " \
		    l[i] " " n[l[i]] " (" m[l[i]] ")" }' m.tsv
	sed 's/^/  /' err
}
k='"kernel":"Ka"' k2='"kernel":"Kb"' kc='"kernel":"Kc"'
echo positional
replay Ka 0 Kb 0; capture "$k" "$k2" ""; show
echo greedy
replay Ka 0 Kb 0; capture "$k" "$k2" "$kc"; show
echo by name
replay Kb 0 Ka 0; capture "$k" "$k2" ""; show
echo no alignment
replay Ka 0 Kz 0; capture "$k" "$k2" ""; show
echo multi-stream
replay Kb 1 Ka 0; capture "$k" "$k2" ""; show
echo multi-stream without kernel names
replay Kb 1 Ka 0; capture "$k" "" ""; show
