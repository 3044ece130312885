# The CSV of -T shows values as Python does: argument lists as tuples,
# 1-tuples with a comma, strings in the quotes repr() picks, floats in
# repr()'s shortest form (1e-05, 1e+16, -0.0), big integers whole,
# true/false/null as True/False/None, non-printable characters escaped;
# CSV quoting where a cell holds a comma or a quote. "(digits)" leaves the
# lowest common ancestor's name; the module of the op stands in for two
# op names that have nothing else in common (TraceLens's rename map).
tl-diff -T -o out "$TESTDATA/diff-pyrepr-a.tsv" "$TESTDATA/diff-pyrepr-b.tsv"
echo "exit $?"
cat out/diff_stats.csv
cat out/diff_stats_unique_args_summary.csv
cat out/cpu_op_map.json; echo
