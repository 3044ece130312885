# tl-tree -F: nesting with TraceLens's times, doubles in microseconds. A
# child that ends exactly when its parent does, in nanoseconds, ends one
# ulp later in doubles (6520488699642.63 + 59.756 < 6520488699648.697 +
# 53.689): exact, it is the parent's child; with -F it is left out of
# the tree (the bleed rule: it starts more than 1 us before the end), as
# in TraceLens. Two events one ns apart at 1.7e15 us (an epoch in us)
# are one double apart or none: with -F they sort by that double, then
# in file order.
x() {	# name ts dur
	printf '{"ph":"X","name":"%s","cat":"cpu_op","ts":%s,"dur":%s,"pid":1,"tid":1,"args":{}},\n' "$@"
}
{
	echo '{"traceEvents":['
	{
	x parent 6520488699642.630 59.756
	x child 6520488699648.697 53.689
	} | sed '$s/,$//'
	echo ']}'
} >t.json
show() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["uid"] != "" { print $c["uid"], $c["name"],
	    "parent=" $c["parent"], "depth=" $c["depth"] }'
}
tl-parse t.json | tl-tree | show
tl-parse t.json | tl-tree -F | show
{
	echo '{"traceEvents":['
	{
	x later 1700000000000000.001 0.0005
	x earlier 1700000000000000.000 5
	} | sed '$s/,$//'
	echo ']}'
} >e.json
tl-parse e.json | tl-tree | show
tl-parse e.json | tl-tree -F | show
