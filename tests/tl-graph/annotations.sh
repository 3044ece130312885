# tl-graph -v: the iteration annotations of vLLM (detailed and native),
# SGLang (detailed and native), ATOM and xDiT, the batch size each names,
# and the capture chosen for it: the smallest batch size at least as
# large, PIECEWISE when both modes exist unless the iteration has one
# graph launch; a detailed annotation makes the native ones no roots.
ev() {	# name cat ts dur pid tid args
	printf '{"ph":"X","name":"%s","cat":"%s","ts":%s,"dur":%s,"pid":%s,"tid":%s,"args":{%s}},\n' "$@"
}
trace() {
	{ echo '{"traceEvents":['; sed '$s/,$//'; echo ']}'; } >"$1"
}
mkdir cap
for f in c8 c64 c64p c512; do
	{
	ev 'run.py(1): run' python_function 0 200 5 5 ''
	ev hipStreamBeginCapture cuda_runtime 10 5 5 5 ''
	ev aten::mm cpu_op 20 30 5 5 ''
	ev hipLaunchKernel cuda_runtime 25 5 5 5 '"kernel":"Ka"'
	ev hipStreamEndCapture cuda_runtime 100 5 5 5 ''
	} | trace cap/$f.json
done
cat >cap/execution_details.json <<'J'
[{"file": "c8.json", "batch_size": 8, "mode": "FULL"},
 {"file": "c64.json", "batch_size": 64, "mode": "FULL"},
 {"file": "c64p.json", "batch_size": 64, "mode": "PIECEWISE"},
 {"file": "c512.json", "batch_size": 512, "mode": "FULL"}]
J
launches=1
run() {	# annotation names, enclosing $launches graph launches
	{
	for a; do
		ev "$a" user_annotation 0 1000 1 1 ''
	done
	ev hipGraphLaunch cuda_runtime 100 50 1 1 '"correlation":7'
	ev Ka kernel 200 10 0 0 '"correlation":7,"stream":0'
	[ $launches -eq 1 ] || {
	ev hipGraphLaunch cuda_runtime 300 50 1 1 '"correlation":8'
	ev Ka kernel 400 10 0 0 '"correlation":8,"stream":0'
	}
	} | trace r.json
	tl-parse r.json | tl-tree -P 2>/dev/null | tl-graph -v -c cap \
	    2>&1 >/dev/null | grep 'iteration\|attributed' |
	    sed 's/^tl-graph: <stdin>: /  /'
}
run 'execute_4_context_0(sq0sk0sqsq0sqsk0)_generation_4(sq4sk10sqsq4sqsk10)'
run 'execute_100_context_9(sq50sk80sqsq1sqsk2)_generation_3(sq3sk9sqsq3sqsk9)'
run 'execute_context_2(100)_generation_3(3)'
run 'step[DECODE bs=32]'
run 'step[EXTEND bs=2 toks=300]'
run 'step[DECODE bs=16 c_sq=0 g_sq=16 sqsq=16 sqsk=400]'
run 'decode[tok=7 sqsq=7 sqsk=100]'
run 'execute_diffusion_2_1024x1024'
run 'step[DECODE bs=1000]'
run 'step[MIXED x]'
run 'step[DECODE bs=32]' \
    'execute_4_context_0(sq0sk0sqsq0sqsk0)_generation_4(sq4sk10sqsq4sqsk10)'
launches=2
run 'execute_100_context_9(sq50sk80sqsq1sqsk2)_generation_3(sq3sk9sqsq3sqsk9)'
