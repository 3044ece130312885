# tl-replay on the shared traces: per trace, the groups that cannot be
# replayed by reason, and one line per replayable group: its first uid,
# name, count, median kernel time (us) and its arguments as the IR has
# them (a tensor as dtype[shape]/[strides], ~ for init null).
t=$TRACES
[ -d "$t/h100" ] || exit 77
compact() {
	python3 -c 'import json, sys
def v(x):
    if isinstance(x, dict):
        return "%s%s/%s%s" % (x["dtype"], x["shape"], x["strides"],
                              "" if x["init"] == "normal" else "~")
    return json.dumps(x)
for e in json.load(sys.stdin):
    ir = e["replay_ir"]
    a = ["%s:%s=%s" % (x["arg_name"], x["arg_type"], v(x["value"]))
         for x in ir["list_pos_args"]]
    k = ["%s:%s=%s" % (x["arg_name"], x["arg_type"], v(x["value"]))
         for x in ir["list_kwargs"]]
    print(e["uid"], e["op_name"], e["count"], e["kernel_time_us_median"],
          " ".join(a), "*", " ".join(k))'
}
for f in h100/gaunernst_bert-small-uncased__1016001 \
    mi300/gaunernst_bert-small-uncased__1016001 \
    h100/Qwen_Qwen1.5-0.5B-Chat__1016005 \
    h100/facebook_timesformer-base-finetuned-k400__1016002 \
    h100/google_owlv2-large-patch14-ensemble__1016001 \
    torch_compile_triton/trace hta/mi250_minitoy_train_ROCm6_2_kineto; do
	echo "== $f"
	tl-parse "$t/$f.json.gz" 2>/dev/null | tl-tree 2>/dev/null >tree.tsv
	tl-replay tree.tsv 2>err | compact
	sed 's/^tl-replay: tree.tsv: //' err
done
