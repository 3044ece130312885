# Ragged rows: a row with a field too few or too many, and a stream cut in
# the middle of its last line (no LF). Each reader stops at that line,
# with the counts, status 1 (tl-diff 2, as diff(1) has it).
tl-parse "$TESTDATA/broken/cut.json" >ev.tsv || exit 1
tl-tree ev.tsv >tree.tsv || exit 1
awk -F'\t' -v OFS='\t' 'NR == 4 { NF-- } { print }' ev.tsv >ev-short.tsv
awk 'NR == 4 { $0 = $0 "\textra" } { print }' ev.tsv >ev-long.tsv
head -c $(($(wc -c <ev.tsv) - 10)) ev.tsv >ev-cut.tsv
awk -F'\t' -v OFS='\t' 'NR == 3 { NF-- } { print }' tree.tsv >tree-short.tsv
awk 'NR == 3 { $0 = $0 "\textra" } { print }' tree.tsv >tree-long.tsv
head -c $(($(wc -c <tree.tsv) - 10)) tree.tsv >tree-cut.tsv
for f in ev-short ev-long ev-cut; do
	tl-tree $f.tsv >/dev/null
	echo "tl-tree $f: exit $?"
done
for f in tree-short tree-long tree-cut; do
	tl-agg ops $f.tsv >/dev/null
	echo "tl-agg $f: exit $?"
	tl-diff $f.tsv tree.tsv >/dev/null
	echo "tl-diff $f: exit $?"
done
