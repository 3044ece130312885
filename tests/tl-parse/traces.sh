# Every trace in $TRACES: one row with a uid per element of traceEvents
# (the lengths stored in the files), and nothing on stderr (so no error,
# no skipped event, no cleared value).
[ -d "$TRACES" ] || exit 77
cd "$TRACES" || exit 1
for f in h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz \
    h100/facebook_timesformer-base-finetuned-k400__1016002.json.gz \
    h100/gaunernst_bert-small-uncased__1016001.json.gz \
    h100/google_owlv2-large-patch14-ensemble__1016001.json.gz \
    hta/event_sync_trace.json.gz \
    hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz \
    hta/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz \
    hta/triton_example.json.gz \
    mi210/gpu_only_trace.json.gz \
    mi300/gaunernst_bert-small-uncased__1016001.json.gz \
    torch_compile_triton/trace.json.gz; do
	[ -f "$f" ] || { echo "$f: missing"; continue; }
	n=$(tl-parse "$f" |
	    awk -F'\t' 'NR > 1 && $1 != "" { n++ } END { print n + 0 }')
	echo "$f $n"
done
