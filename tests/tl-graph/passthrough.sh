# Rows that nothing changes go through as they are, byte for byte: with
# and without -p and -n, rows with escapes (a TAB, a backslash, in names
# and args) among them, SGLang's names renamed in the same rows (-n) when
# the name is the last column as when it is not.
ev() {	# name cat ts dur
	printf '{"ph":"X","name":"%s","cat":"%s","ts":%s,"dur":%s,"pid":1,"tid":1,"args":{"k":"x\\\\y"}},\n' "$@"
}
{
	echo '{"traceEvents":['
	{
	ev 'sglang_profiler::a\\tb_17' cpu_op 0 10
	ev 'aten::x\\\\y' cpu_op 1 2
	ev sglang_profiler::plain_3 cpu_op 20 10
	ev 'py\\tframe' python_function 19 20
	ev sglang_profiler::plain_4 cpu_op 30 2
	} | sed '$s/,$//'
	echo ']}'
} >t.json
tl-parse t.json | tl-tree -P >tree.tsv
# the same stream, its name column moved last
awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "name")
    n = i } { s = ""; for (i = 1; i <= NF; i++) if (i != n) s = s $i OFS
    print s $n }' tree.tsv >last.tsv
for f in tree.tsv last.tsv; do
	for o in "" -n "-u -p" "-u -n -p" "-p -n"; do
		tl-graph $o <$f >out.tsv 2>err
		echo "$f ${o:-(none)}: exit $?"
		if cmp -s out.tsv $f; then
			echo "  the same"
		else
			awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
			    NR > 1 && $c["uid"] != "" { print "  " $c["uid"],
			    $c["name"] }' out.tsv
			# the rest of each row unchanged
			awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF;
			    i++) if ($i == "name") n = i } { $n = ""; print }' \
			    out.tsv >a
			awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF;
			    i++) if ($i == "name") n = i } { $n = ""; print }' \
			    $f >b
			cmp -s a b && echo "  the other fields the same"
		fi
		sed 's/^/  /' err
	done
done
