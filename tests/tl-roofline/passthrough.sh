# The per-op rows are the input rows, every column unchanged (a column
# added with awk, escapes in a field), with the perf columns appended;
# params is JSON.
ln -s "$TESTDATA"/roof-group.json . || exit 1
tl-parse roof-group.json | tl-tree | awk -F'\t' -v OFS='\t' '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print $0, "note"; next }
{ print $0, $c["uid"] == 0 ? "a\\tb\\\\c" : "" }' >tree.tsv || exit 1
tl-roofline -a MI300X tree.tsv >out
echo "exit $?"
head -n 1 out | tr '\t' '\n' | tail -n 19
awk -F'\t' 'NR == 2' out | cut -f 1-8,31-
