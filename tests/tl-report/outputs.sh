# Outputs in a shared directory: a link planted at an output's name (the
# default workbook beside the trace, a CSV file) is replaced, and the
# file it names is untouched; every CSV file is whole or absent (written
# in a private directory, then renamed into place); CSV files of sheets
# an earlier report wrote there, and this one does not, are removed with
# a note, so that the directory holds one report.
report=$TESTDATA/../../scripts/tl-report
TMPDIR=$PWD/tmp
export TMPDIR
mkdir tmp out
cp "$TESTDATA/../../samples/bert-h100.json.gz" t.json.gz
echo precious >precious.txt
ln -s precious.txt t_perf_report.xlsx
ln -s ../precious.txt out/GEMM.csv
echo 'stale' >out/CONV_fwd.csv
echo 'mine' >out/notes.txt
"$report" --output_csvs_dir out t.json.gz 2>err
echo "exit $?"
cat err
"$report" t.json.gz
echo "exit $?"
cat precious.txt
for f in t_perf_report.xlsx out/GEMM.csv; do
	[ -f "$f" ] && [ ! -L "$f" ] && echo "$f: a file of its own"
done
ls -A out | tr '\n' ' '
echo
ls -A tmp
