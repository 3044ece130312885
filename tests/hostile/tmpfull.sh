# A TMPDIR that fills up during a report (a file system of 100 KiB, made
# in a mount namespace of our own; skipped where there is none): the
# stage that meets it says so ("No space left on device": its messages
# have their room taken in advance, so they are not lost with the rest),
# the report exits 1, and leaves no scratch and no output. Before, it
# said only "tl-agg failed (exit 1)". The stage that meets it now is
# tl-xlsx (the CSV files are written in their own directory), whose
# message names the workbook as given, not its private file.
command -v unshare >/dev/null 2>&1 || exit 77
unshare -rm true 2>/dev/null || exit 77
cp "$TESTDATA/../../samples/bert-h100.json.gz" t.json.gz || exit 1
mkdir small
report=$TESTDATA/../../scripts/tl-report
unshare -rm sh -c 'mount -t tmpfs -o size=100k tmpfs small || exit 77
TMPDIR=$PWD/small "$1" -o x.xlsx --output_csvs_dir csv t.json.gz 2>err
echo "exit $?"
ls -A small' sh "$report"
st=$?
[ $st -eq 77 ] && exit 77
grep -q 'No space left on device' err && echo "a message says so"
grep -q 'failed (exit 1)$' err && echo "and names the stage"
grep -q '^tl-xlsx: x\.xlsx: ' err && echo "and the output by its own name"
ls -A
