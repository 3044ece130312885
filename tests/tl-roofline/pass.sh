# -p: every row of the input, in input order, with the perf columns
# empty, but the rows of the modelled ops (their own pass, kernel_source
# "self"), which come at the end of their trace, before the next trace's
# rows, with their perf columns filled. An escaped field stays as it
# came. -p with -c writes the CSV files too. With -p, tl-agg finds the
# perf columns it reads (flop, bytes, compute_spec, params).
ln -s "$TESTDATA"/roof-models.json "$TESTDATA"/roof-group.json . || exit 1
tl-parse -t roof-group.json roof-models.json | tl-tree |
awk -F'\t' -v OFS='\t' '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
$c["name"] == "aten::mm" { $c["concrete_inputs"] = "[\"a\\\\\\\\b\",\"\"]" }
{ print }' >two.tsv || exit 1
tl-roofline -p two.tsv >out 2>err
echo "exit $?"
awk 'END { print NR " rows in" }' two.tsv
awk 'END { print NR " rows out" }' out
awk -F'\t' -v OFS='\t' '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{ print NR, $c["trace"], $c["uid"], $c["cat"], $c["name"], $c["pass"],
    $c["kernel_source"], $c["flop"], $c["compute_spec"] }' out |
    awk -F'\t' '$4 != "ac2g" && $4 != "python_function"'
# The input rows, without the perf columns, are the input's, reordered.
cut -f 1-"$(head -n 1 two.tsv | awk -F'\t' '{ print NF }')" out | sort >a
sort two.tsv >b
cmp -s a b && echo "same rows"
grep -F 'a\\\\b' out | cut -f 1,4,18
rm -rf csv
tl-parse roof-group.json | tl-tree | tl-roofline -p -c csv >out2 2>/dev/null
echo "exit $?"
ls csv
awk 'END { print NR " rows" }' out2
tl-roofline -p -c csv two.tsv >/dev/null
echo "exit $?"
# Every row has the header's field count, with or without an arch.
for a in "" "-t" "-a none"; do
	tl-roofline $a -p two.tsv 2>/dev/null | awk -F'\t' '{ print NF }' |
	    sort -u | tr '\n' ' '
	echo
done
