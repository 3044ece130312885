# Which ops: -n REGEX on the name, -u UID,... (each event its own entry,
# count 1), -t N (the N replayable groups of most direct kernel time,
# most first). Only uid, op_name and count are shown here.
here=$(dirname "$0")
tl-parse "$here/resnet-ops.json" | tl-tree >t.tsv 2>/dev/null || exit 1
show() {
	python3 -c 'import json, sys
for e in json.load(sys.stdin):
    print(e["uid"], e["op_name"], e["count"],
          e.get("direct_kernel_time_us_sum", "-"))'
}
echo "== -n 'batch_norm|^aten::mm$'"
tl-replay -n 'batch_norm|^aten::mm$' t.tsv | show
echo "== -u 0,5,10,46,78,5 (78: a view, not replayable; 5 twice)"
tl-replay -u 0,5 -u 10,46,78,5 t.tsv | show
echo "== -t 3"
tl-replay -t 3 t.tsv 2>/dev/null | show
echo "== -t 3 -n add"
tl-replay -t 3 -n add t.tsv | show
echo "== -u of an op that is not there"
tl-replay -u 1,9999 t.tsv | show
echo "== -u 0 -n mm: uid 0 is a convolution"
tl-replay -u 0 -n mm t.tsv | show
echo "== an event stream has no kernel times: -t cannot rank"
tl-parse "$here/resnet-ops.json" | tl-replay -t 1
echo "exit $?"
