# A ResNet training step that tl-replay's tests were not written from,
# with activation checkpointing: the checkpointed block's forward runs
# under no_grad in the main thread, then again in the autograd thread
# (the recompute, inside CheckpointFunctionBackward) before its
# backward. The recomputed ops have the same arguments as the first
# pass: one group each, of both passes (count and kernel times), its uid
# the first pass's. Autograd's nodes have no inputs; num_batches_tracked
# is a long int tensor; the foreach optimizer takes tensor lists;
# max_pool2d's backward an int64 tensor of indices. tracelens.py gives
# the same IR and counts.
here=$(dirname "$0")
tl-parse "$here/resnet-checkpoint.json" | tl-tree 2>/dev/null >t.tsv ||
    exit 1
tl-replay t.tsv >ir.json
echo "exit $?"
python3 "$here/compact.py" <ir.json
echo "== tracelens.py"
python3 "$here/tracelens.py" "$here/../../share/tl/replay/aten-schemas-torch-1.13.txt" \
    "$here/resnet-checkpoint.json" ir.json
