# Bad input: one located line each, status 1. An event stream that is
# not a tree stream; tl-roofline's own output; a uid or bwd_uids that is
# not an integer; a file that is not there (the others are still read);
# an empty input; two files with different headers; two traces with -s;
# bad arch files.
ln -s "$TESTDATA"/roof-models.json "$TESTDATA"/roof-group.json . || exit 1
tl-parse roof-models.json >ev.tsv || exit 1
tl-tree <ev.tsv >tree.tsv || exit 1
tl-roofline -a none ev.tsv
echo "exit $?"
tl-roofline -a none tree.tsv | tl-roofline -a none
echo "exit $?"
# line 10 is uid 0, aten::mm
awk -F'\t' -v OFS='\t' 'NR == 10 { $1 = "0x" } { print }' tree.tsv |
    tl-roofline -a none >/dev/null
echo "exit $?"
awk -F'\t' -v OFS='\t' '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
NR == 10 { $c["bwd_uids"] = "3,x" } { print }' tree.tsv |
    tl-roofline -a none >/dev/null
echo "exit $?"
tl-roofline -a none no-such.tsv tree.tsv >out 2>err
echo "exit $?"
grep -v 'perf row' err
grep -c '^0	' out
tl-roofline </dev/null
echo "exit $?"
cut -f 1-29 tree.tsv >short.tsv
tl-roofline -a none tree.tsv short.tsv >/dev/null 2>err
echo "exit $?"
grep -v 'perf row' err
tl-parse roof-group.json roof-models.json | tl-tree >two.tsv || exit 1
tl-roofline -a none -s GEMM two.tsv >/dev/null
echo "exit $?"
tl-roofline -a none -c dir two.tsv
echo "exit $?"
printf 'key\tvalue\tsource\nname\tx\t\nmatrix_bf16\t-1\tmine\n' >neg.tsv
tl-roofline -f neg.tsv tree.tsv
echo "exit $?"
printf 'key\tvalue\tsource\nname\tx\t\ntflops\t1\tmine\n' >key.tsv
tl-roofline -f key.tsv tree.tsv
echo "exit $?"
printf 'key\tvalue\nname\tx\n' >cols.tsv
tl-roofline -f cols.tsv tree.tsv
echo "exit $?"
printf 'key\tvalue\tsource\nmem_bw_gbps\t10\t\n' >noname.tsv
tl-roofline -f noname.tsv tree.tsv
echo "exit $?"
echo '{"name": "x"}' >bad.json
tl-roofline -f bad.json tree.tsv
echo "exit $?"
tl-roofline -f no-such.tsv tree.tsv
echo "exit $?"
