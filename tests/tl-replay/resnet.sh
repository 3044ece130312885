# tl-replay on the ops of a ResNet training step (hand-made, one of each
# kind TraceLens's end-to-end test replays, plus ones it cannot): the
# replay IR as TraceLens's EventReplayer makes it with torch 1.13's
# schemas, with each group's count and kernel time; channels-last and
# expanded (stride 0) inputs keep their strides; fill_ and copy_'s
# destination get init null. The groups that cannot be replayed are
# counted by reason, and listed with -v.
here=$(dirname "$0")
tl-parse "$here/resnet-ops.json" | tl-tree >t.tsv 2>/dev/null || exit 1
tl-replay t.tsv
echo "exit $?"
echo "== -v"
tl-replay -v t.tsv 2>&1 >/dev/null
echo "exit $?"
echo "== the output is what python's json.dump(indent=4) writes of it"
tl-replay t.tsv 2>/dev/null >a.json
python3 -c 'import json, sys
d = json.load(open("a.json"))
sys.stdout.write(json.dumps(d, indent=4) + "\n")' >b.json
cmp a.json b.json && echo same
echo "== tracelens.py gives the same"
python3 "$here/tracelens.py" "$here/../../share/tl/replay/aten-schemas-torch-1.13.txt" \
    "$here/resnet-ops.json" a.json
