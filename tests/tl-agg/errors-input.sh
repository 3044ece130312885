# Bad input: a missing column that the table needs (named), a time that is
# not an integer, a second file with another header, a file that is not
# there (the others are still read), a duplicate uid, a line with CR; each
# a located message and status 1.
ln -s "$TESTDATA/agg-small.json" . || exit 1
tl-parse agg-small.json | tl-tree 2>/dev/null >tree.tsv ||
    exit 1
drop() {	# a copy of tree.tsv without column $1
	awk -F'\t' -v OFS='\t' -v name="$1" '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) k = i }
	{ s = ""; for (i = 1; i <= NF; i++) if (i != k) s = s (s == "" &&
	    i == 1 ? "" : OFS) $i; print s }' tree.tsv
}
drop launcher | tl-agg ops
echo "exit $?"
drop launcher | tl-agg timeline >/dev/null
echo "exit $?"
drop args | tl-agg collectives
echo "exit $?"
awk -F'\t' -v OFS='\t' '$3 == "kernel" && !done { $7 = "12x"; done = 1 }
    { print }' tree.tsv | tl-agg timeline
echo "exit $?"
cut -f1-29 tree.tsv >short.tsv
tl-agg timeline tree.tsv short.tsv
echo "exit $?"
tl-agg timeline nosuch.tsv tree.tsv >out
echo "exit $?"
head -2 out
awk -F'\t' '$3 == "kernel" && !done { print; done = 1 } { print }' tree.tsv |
    tl-agg ops
echo "exit $?"
sed '12s/$/\r/' tree.tsv | tl-agg ops
echo "exit $?"
