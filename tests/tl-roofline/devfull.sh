# A write error on standard output (a full disk) is an error: status 1.
ln -s "$TESTDATA"/roof-models.json . || exit 1
tl-parse roof-models.json | tl-tree >tree.tsv || exit 1
tl-roofline -a none tree.tsv >/dev/full 2>err
echo "exit $?"
grep -v 'perf row' err
tl-roofline -a none -s GEMM tree.tsv >/dev/full 2>err
echo "exit $?"
grep -v 'perf row' err
tl-roofline -l >/dev/full
echo "exit $?"
