# A bundle (tl-replay -o DIR): the IR file and the replay script, which
# needs no file of tl beside it. The script compiles; with a stand-in
# for PyTorch (faketorch/: tensors with a shape, strides and a dtype, no
# data), --check rebuilds every op's arguments with their profiled
# shape, strides and dtype, calls the op and reports the tensor it
# returned; without --check each op is timed (the times vary: masked).
# An op whose arguments take more than --max-mb is skipped, or with
# --check checked on the meta device.
here=$(cd "$(dirname "$0")" && pwd)
tl-parse "$here/resnet-ops.json" | tl-tree >t.tsv 2>/dev/null || exit 1
tl-replay -o bundle t.tsv 2>/dev/null
echo "exit $?"
ls bundle
cmp bundle/replay.py "$here/../../share/tl/replay/replay.py" && echo "the share directory's script"
tl-replay t.tsv 2>/dev/null | head -c -1 | cmp - bundle/event_replay_ir.json &&
    echo "the IR as on stdout, without its last newline"
python3 -m py_compile bundle/replay.py && echo "compiles"
mkdir elsewhere && mv bundle elsewhere/ && cd elsewhere/bundle || exit 1
echo "== --check"
PYTHONPATH=$here/faketorch python3 replay.py --check
echo "exit $?"
echo "== timed, -op conv"
PYTHONPATH=$here/faketorch python3 replay.py --warmup 2 --repeats 3 \
    --op conv event_replay_ir.json |
    awk -F'\t' -v OFS='\t' 'NR > 1 { $6 = ($6 > 0) ? "T" : $6;
	$7 = ($7 > 0) ? "R" : $7 } { print }'
echo "exit $?"
echo "== --max-mb 1: over it, skipped when timed, on meta with --check"
PYTHONPATH=$here/faketorch python3 replay.py --warmup 0 --repeats 1 \
    --max-mb 1 --op 'conv|add_' >out
echo "exit $?"
cut -f 1-3,8 out
PYTHONPATH=$here/faketorch python3 replay.py --check --max-mb 1 \
    --op 'conv|add_' >out
echo "exit $?"
cut -f 1-3,6,8 out
