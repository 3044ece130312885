# tl-tree -c: a tree_count fact row for each name, in each trace of the
# stream, after the trace's leading fact rows and before its first event
# row: the number of event rows of that name (any kind), args holding it;
# a name with a TAB matched as the stream escapes it; a trace with no
# event gets its rows at its end; -c with -p or -u refused.
x() {	# name cat ts dur
	printf '{"ph":"X","name":"%s","cat":"%s","ts":%s,"dur":%s,"pid":1,"tid":1,"args":{}},\n' "$@"
}
{
	echo '{"schemaVersion":1,"traceEvents":['
	x aten::mm cpu_op 0 10
	x 'a\tb' cpu_op 20 10
	x aten::mm cpu_op 40 10
	x aten::mm python_function 60 10 | sed '$s/,$//'
	echo '],"deviceProperties":[]}'
} >a.json
printf '{"traceEvents":[\n{"ph":"X","name":"aten::mm","cat":"cpu_op","ts":1,"dur":1,"pid":1,"tid":1}]}\n' >b.json
echo '{"schemaVersion":1,"traceEvents":[]}' >c.json
show() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    { print NR": "$c["uid"], $c["cat"], $c["name"], $c["args"] }'
}
tl-parse a.json b.json c.json | tl-tree -c aten::mm -c 'a	b' -c none | show
echo "exit $?"
echo "== the same rows without -c"
tl-parse a.json b.json c.json | tl-tree >plain.tsv
tl-parse a.json b.json c.json | tl-tree -c aten::mm | grep -v tree_count |
    cmp - plain.tsv && echo same
echo "== with -s, the same"
tl-parse a.json | tl-tree -s -c aten::mm | show
echo "== -c with -p, -u"
tl-parse a.json | tl-tree -c aten::mm -p
echo "exit $?"
tl-parse a.json | tl-tree -c aten::mm -u 0
echo "exit $?"
