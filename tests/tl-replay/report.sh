# tl-report --replay_dir: the report and, from the same run, a bundle of
# the --replay_topk replayable ops with the most direct kernel time; the
# same IR as tl-replay -t on the tree stream. tl-replay's counts by
# reason come with the report's messages.
report=$TESTDATA/../../scripts/tl-report
t=$TRACES/h100/gaunernst_bert-small-uncased__1016001.json.gz
[ -f "$t" ] || exit 77
TMPDIR=$PWD/tmp
export TMPDIR
mkdir tmp
"$report" --replay_dir rb --replay_topk 4 --output_csvs_dir csv "$t"
echo "exit $?"
ls rb
ls tmp
python3 -c 'import json
for e in json.load(open("rb/event_replay_ir.json")):
    print(e["uid"], e["op_name"], e["count"], e["direct_kernel_time_us_sum"])'
tl-parse "$t" | tl-tree 2>/dev/null | tl-replay -t 4 2>/dev/null |
    head -c -1 | cmp - rb/event_replay_ir.json && echo "as tl-replay -t 4"
echo "== --tree_tsv_path"
tl-parse "$t" | tl-tree 2>/dev/null >tree.tsv
"$report" --replay_dir rb2 --replay_topk 1 --output_csvs_dir csv2 \
    --tree_tsv_path tree.tsv 2>/dev/null
echo "exit $?"
python3 -c 'import json
print([e["op_name"] for e in json.load(open("rb2/event_replay_ir.json"))])'
echo "== a bad --replay_topk"
"$report" --replay_dir rb3 --replay_topk 0 "$t"
echo "exit $?"
