# Several traces in one stream (tl-parse writes a trace_file row before
# each): each is modelled on its own, with its own arch (roof-group.json
# is an MI300X, roof-models.json an H100); the rows pass through with
# their trace column (-t of tl-parse). -s and -c want one trace.
ln -s "$TESTDATA"/roof-models.json "$TESTDATA"/roof-group.json . || exit 1
tl-parse -t roof-group.json roof-models.json | tl-tree >two.tsv || exit 1
tl-roofline two.tsv >out 2>err
echo "exit $?"
grep -v 'perf row' err | sed 's|(/.*/arch/|(.../arch/|'
awk -F'\t' -v OFS='\t' '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{ print $c["trace"], $c["uid"], $c["name"], $c["arch"], $c["kernel_time_ns"] }
' out
