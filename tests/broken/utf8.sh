# Invalid UTF-8 (a stray continuation byte, a cut sequence, an overlong
# form, a surrogate, Latin-1 bytes in a key, a value and a top-level key):
# each bad sequence becomes U+FFFD, the rows stay, a warning counts the
# repairs per event. Everything downstream is then valid UTF-8: the
# event stream, the tree, a table. (tests/tl-parse/repairs.sh has the
# other kinds of repair.)
cd "$TESTDATA/broken" || exit 1
tl-parse utf8.json >"$OLDPWD/ev.tsv"
echo "exit $?"
cd "$OLDPWD" || exit 1
cut -f1,4,19 ev.tsv
tl-tree ev.tsv >tree.tsv 2>/dev/null
tl-agg -a kernels tree.tsv >kernels.tsv
cut -f3 kernels.tsv
for f in ev.tsv tree.tsv kernels.tsv; do
	iconv -f UTF-8 -t UTF-8 $f >/dev/null && echo "$f: valid UTF-8"
done
