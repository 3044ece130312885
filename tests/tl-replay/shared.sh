# tl-replay on the shared traces: per trace, one line per replayable
# group (compact.py) and the groups that cannot be replayed by reason;
# then the same trace through tracelens.py, TraceLens's rules written
# from the spec: the same IR and count for each replayable group, and
# the same groups not replayable, by reason.
here=$(dirname "$0")
s=$here/../../share/tl/replay/aten-schemas-torch-1.13.txt
t=$TRACES
[ -d "$t/h100" ] || exit 77
for f in h100/gaunernst_bert-small-uncased__1016001 \
    mi300/gaunernst_bert-small-uncased__1016001 \
    h100/Qwen_Qwen1.5-0.5B-Chat__1016005 \
    h100/facebook_timesformer-base-finetuned-k400__1016002 \
    h100/google_owlv2-large-patch14-ensemble__1016001 \
    torch_compile_triton/trace hta/mi250_minitoy_train_ROCm6_2_kineto; do
	echo "== $f"
	tl-parse "$t/$f.json.gz" 2>/dev/null | tl-tree 2>/dev/null >tree.tsv
	tl-replay tree.tsv >ir.json 2>err
	python3 "$here/compact.py" <ir.json
	sed 's/^tl-replay: tree.tsv: //' err
	echo "-- tracelens.py"
	python3 "$here/tracelens.py" "$s" "$t/$f.json.gz" ir.json
done
