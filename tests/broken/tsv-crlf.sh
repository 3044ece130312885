# A stream with CRLF line ends (it went through a Windows editor): the
# readers stop at the first line that ends in CR, with its number and a
# hint, status 1 (tl-diff 2, as diff(1) has it): the header of an event
# stream given to tl-tree, a row of it, and the same for a tree stream
# given to tl-agg (and tl-roofline and tl-diff, the same reader).
tl-parse "$TESTDATA/broken/cut.json" >ev.tsv || exit 1
tl-tree ev.tsv >tree.tsv || exit 1
sed 's/$/\r/' ev.tsv >ev-crlf.tsv
sed '4s/$/\r/' ev.tsv >ev-row.tsv
sed 's/$/\r/' tree.tsv >tree-crlf.tsv
sed '4s/$/\r/' tree.tsv >tree-row.tsv
for f in ev-crlf ev-row; do
	tl-tree $f.tsv >/dev/null
	echo "tl-tree $f: exit $?"
done
for f in tree-crlf tree-row; do
	tl-agg ops $f.tsv >/dev/null
	echo "tl-agg $f: exit $?"
	tl-roofline -a none $f.tsv >/dev/null
	echo "tl-roofline $f: exit $?"
	tl-diff $f.tsv tree.tsv >/dev/null
	echo "tl-diff $f: exit $?"
done
