# tl-graph -n: the SGLang profiler's numbered op names lose their _<n>
# when the first event of the name is a cpu_op; other names, and a name
# first seen on another kind of event, stay.
ev() {	# name cat ts dur
	printf '{"ph":"X","name":"%s","cat":"%s","ts":%s,"dur":%s,"pid":1,"tid":1,"args":{}},\n' "$@"
}
{
	echo '{"traceEvents":['
	{
	ev sglang_profiler::attention_paged_attention_ragged_17 cpu_op 0 10
	ev sglang_profiler::attention_paged_attention_ragged_18 cpu_op 20 10
	ev sglang_profiler::step_2 python_function 40 10
	ev sglang_profiler::step_2 cpu_op 42 2
	ev sglang_profiler::_3 cpu_op 60 2
	ev sglang_profiler::a_b_1_2 cpu_op 70 2
	ev other_5 cpu_op 80 2
	} | sed '$s/,$//'
	echo ']}'
} >t.json
tl-parse t.json | tl-tree -P | tl-graph -n |
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["uid"] != "" { print $c["uid"], $c["cat"], $c["name"] }'
