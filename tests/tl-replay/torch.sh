# With PyTorch (Debian's python3-torch; the case is skipped without it):
# the replayable groups of two shared traces, rebuilt and run once each
# on the CPU by the bundle's script (--check): every tensor built with
# its profiled shape, strides and dtype, every call ran.
python3 -c 'import torch' 2>/dev/null || exit 77
t=$TRACES
[ -d "$t/h100" ] || exit 77
for f in h100/gaunernst_bert-small-uncased__1016001 \
    hta/mi250_minitoy_train_ROCm6_2_kineto; do
	echo "== $f"
	tl-parse "$t/$f.json.gz" 2>/dev/null | tl-tree 2>/dev/null >tree.tsv
	rm -rf b
	tl-replay -o b tree.tsv 2>/dev/null
	python3 b/replay.py --device cpu --check >out 2>err
	echo "exit $?"
	cut -f 2,3,8 out
	grep -v '^replay.py: .*: [0-9]* ops\{0,1\} on cpu' err
done
:
