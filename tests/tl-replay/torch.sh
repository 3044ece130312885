# With PyTorch (Debian's python3-torch, which scripts/deps installs; the
# case is skipped without it): the replayable groups of the shared
# traces and of checkpoint.sh's ResNet, rebuilt and run once each by the
# bundle's script in one process (--check), on the CPU, with nothing of
# tl beside it or in PATH:
# every tensor built with its profiled shape, strides and dtype, every
# call run, and the shape and dtype of what it returned. The groups whose
# tensor arguments take more than 64 MB run on the meta device (shapes
# and dtypes without data): the CPU would take minutes and gigabytes for
# them. aten::cudnn_convolution has no CPU kernel. Then the ResNet's
# ops timed (the times vary: masked).
py=/usr/bin/python3
$py -c 'import torch' 2>/dev/null || exit 77
here=$(dirname "$0")
# The installed schema table is this torch's, in its registry order (the
# order TraceLens tries the overloads of a name in).
$py -c 'import torch
print(*map(str, torch._C._jit_get_all_schemas()), sep="\n")' |
    cmp - "$here/../../share/tl/replay/aten-schemas-torch-1.13.txt" &&
    echo "the schema table is this torch's"
t=$TRACES
[ -d "$t/h100" ] || exit 77
n=0
for f in h100/gaunernst_bert-small-uncased__1016001 \
    mi300/gaunernst_bert-small-uncased__1016001 \
    h100/Qwen_Qwen1.5-0.5B-Chat__1016005 \
    h100/facebook_timesformer-base-finetuned-k400__1016002 \
    h100/google_owlv2-large-patch14-ensemble__1016001 \
    torch_compile_triton/trace hta/mi250_minitoy_train_ROCm6_2_kineto \
    resnet-checkpoint; do
	n=$((n + 1))
	p=$t/$f.json.gz
	[ -f "$p" ] || p=$here/$f.json
	tl-parse "$p" 2>/dev/null | tl-tree 2>/dev/null |
	    tl-replay -o b$n 2>/dev/null || echo "tl-replay $f: exit $?"
	echo "$f b$n/event_replay_ir.json"
done >list
# One IR file of them all; the entries of each trace, by index.
$py -c 'import json, sys
a = []
for l in sys.stdin:
    f, p = l.split()
    d = json.load(open(p))
    print("== %s: entries %d-%d" % (f, len(a), len(a) + len(d) - 1))
    a += d
json.dump(a, open("all.json", "w"), indent=4)' <list
mkdir alone
cp b1/replay.py all.json alone/
cd alone
env -i PATH=/usr/bin:/bin HOME="$PWD" PYTHONNOUSERSITE=1 \
    $py replay.py --device cpu --check --max-mb 64 all.json >out 2>err
echo "exit $?"
cut -f 1-3,6,8 out
grep -v '^replay.py: all.json: 339 ops on cpu, PyTorch 1\.13\.' err
echo "== timed: the checkpointed ResNet's ops, on the CPU"
cp ../b8/event_replay_ir.json resnet.json
env -i PATH=/usr/bin:/bin HOME="$PWD" PYTHONNOUSERSITE=1 \
    $py replay.py --device cpu --warmup 1 --repeats 2 resnet.json >out 2>err
echo "exit $?"
awk -F'\t' -v OFS='\t' 'NR > 1 { $6 = ($6 > 0) ? "T" : $6;
	$7 = ($7 > 0) ? "R" : $7 } { print $1, $3, $6, $7, $8 }' out
grep -v '^replay.py: resnet.json: 32 ops on cpu, PyTorch 1\.13\.' err
