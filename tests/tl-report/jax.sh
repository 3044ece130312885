# A JAX profile: tl-report --profile_path with TraceLens's JAX flags
# (--output_csvs_dir, --kernel_metadata_keyword_filters, --enable-origami
# accepted) writes tl-jax's sheets; with --tracelens every reference CSV
# matches (tests/tl-jax/fidelity.sh has the cell comparison); the
# workbook has the sheets in TraceLens's order, then HTA's idle and
# overlap sheets.
[ -d "$TRACES/jax" ] || exit 77
report=$TESTDATA/../../scripts/tl-report
p=$TRACES/jax/jax_conv_minimal.xplane.pb
ref=$TRACES/jax/jax_conv_minimal.ref
"$report" --profile_path "$p" --output_csvs_dir csv --tracelens \
    --enable-origami || exit 1
for f in "$ref"/*.csv; do
	s=${f##*/}
	awk -v name="${s%.csv}" -f "$TESTDATA/../lib/csvcmp.awk" "$f" "csv/$s"
done
"$report" --profile_path="$p" --output_csvs_dir kw \
    --kernel_metadata_keyword_filters conv_general_dilated source_line || exit 1
cut -d, -f 1-3 kw/kernel_launchers_summary.csv | cut -c 1-40
"$report" --profile_path "$p" -o r.xlsx || exit 1
unzip -p r.xlsx xl/workbook.xml | tr '<' '\n' | sed -n 's/^sheet name="\([^"]*\)".*/\1/p'
"$report" --profile_path; echo "exit $?"
