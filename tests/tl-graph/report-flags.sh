# tl-report --inference: its flags and its errors, on the SGLang decode
# replay of ../shared/traces/inference: the workbook with the HTA sheets
# beside TraceLens's, the unmerged replay's share of GPU time under its
# graph launch, the flags TraceLens ignores, and the usage errors.
d=$TRACES/inference/sglang_decode
[ -d "$d" ] || exit 77
report=$TESTDATA/../../scripts/tl-report
run() {
	"$report" --inference "$@" 2>err
	echo "exit $?"
	grep -v '^tl-roofline:\|^tl-tree:\|^tl-agg:\|^tl-xlsx:' err | sed "s|$d/||"
}
echo workbook, unmerged
run "$d/sglang_Qwen3-8B_decode.json.gz" -o r.xlsx --topk_ops 3 \
    --enable-origami --disable_coll_analysis
unzip -l r.xlsx | awk '$4 ~ /^xl\/worksheets\/sheet/ { n++ } END { print n " sheets" }'
unzip -p r.xlsx xl/workbook.xml | tr '<' '\n' | sed -n 's/^sheet name="\([^"]*\)".*/  \1/p'
echo merged, CSV files
run "$d/sglang_Qwen3-8B_decode.json.gz" --capture_folder "$d/capture_traces" \
    --group_by_parent_module --output_csvs_dir out
ls out
echo ignored flags
run "$d/sglang_Qwen3-8B_decode.json.gz" --output_csvs_dir out2 \
    --extension_file x.py --comparison_json_path other.json
echo errors
run "$d/sglang_Qwen3-8B_decode.json.gz" --comparison_capture_folder "$d"
run "$d/sglang_Qwen3-8B_decode.json.gz" --capture_folder nowhere
run --capture_folder
run
run --no_such_flag x
"$report" --inference --help | head -n 1
