# tl-graph on bad capture folders and replays it cannot place: each gets
# its one line, the GPU events left are counted by reason, the exit
# status is defined.
ev() {	# name cat ts dur pid tid args
	printf '{"ph":"X","name":"%s","cat":"%s","ts":%s,"dur":%s,"pid":%s,"tid":%s,"args":{%s}},\n' "$@"
}
trace() {
	{ echo '{"traceEvents":['; sed '$s/,$//'; echo ']}'; } >"$1"
}
replay() {	# the annotation's name
	{
	[ -z "$1" ] || ev "$1" user_annotation 0 1000 1 1 ''
	ev hipGraphLaunch cuda_runtime 100 50 1 1 '"correlation":7'
	ev Ka kernel 200 10 0 0 '"correlation":7,"stream":0'
	} | trace replay.json
	tl-parse replay.json | tl-tree -P >r.tsv 2>/dev/null
}
mkdir cap
{
	ev 'run.py(1): run' python_function 0 200 5 5 ''
	ev hipStreamBeginCapture cuda_runtime 10 5 5 5 ''
	ev aten::mm cpu_op 20 30 5 5 ''
	ev hipLaunchKernel cuda_runtime 25 5 5 5 '"kernel":"Ka"'
	ev hipStreamEndCapture cuda_runtime 100 5 5 5 ''
} | trace cap/c.json
run() {
	tl-graph "$@" r.tsv >/dev/null 2>err
	echo "exit $?"
	sed 's/^/  /' err
}
replay 'execute_4_context_0(sq0sk0sqsq0sqsk0)_generation_4(sq4sk10sqsq4sqsk10)'
echo no execution_details.json
run -c cap
echo not a list
echo '{"file": "c.json"}' >cap/execution_details.json
run -c cap
echo bad entries, a missing file
cat >cap/execution_details.json <<'J'
[{"file": "c.json", "batch_size": "8", "mode": "FULL"},
 {"file": "c.json", "batch_size": 8, "mode": "decode"},
 {"file": "gone.json", "batch_size": 16, "mode": "FULL"}]
J
run -c cap
echo batch size above every capture
echo '[{"file": "c.json", "batch_size": 2, "mode": "FULL"}]' >cap/execution_details.json
run -c cap
echo no iteration annotation
replay ''
echo '[{"file": "c.json", "batch_size": 8, "mode": "FULL"}]' >cap/execution_details.json
run -c cap
echo no batch size in the annotation
replay 'step[MIXED x]'
run -c cap
echo the batch size from the name, -e
replay 'step[MIXED x_8_y]'
cp cap/execution_details.json d.json
rm cap/execution_details.json
run -c cap -e d.json
echo no capture folder: the share of GPU time left
tl-graph r.tsv >/dev/null
echo "exit $?"
echo -e without -c
tl-graph -e d.json r.tsv
echo "exit $?"
echo usage
tl-graph -x r.tsv
echo "exit $?"
echo a tree whose parent links make a cycle: said, exit 1
awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
    NR > 1 && $c["uid"] != "" { $c["parent"] = $c["uid"] } { print }' \
    r.tsv | tl-graph >/dev/null
echo "exit $?"
