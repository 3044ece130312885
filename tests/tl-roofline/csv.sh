# TraceLens's CSV files (-c): the same groups as -s, in TraceLens's
# layout and number format: params as Python reprs, the first input
# args as Python lists, kernel statistics per position (numpy pairwise
# sums, population std; the instance with a different number of kernels
# is left out), sorted by total with the largest last; a kernel name
# with quotes, a comma and a TAB is quoted as CSV and as Python does;
# names longer than 64 characters are cut in trunc_kernel_details.
# Times are TraceLens's doubles (us). Only sheets with rows are written.
ln -s "$TESTDATA"/roof-group.json "$TESTDATA"/roof-models.json . || exit 1
tl-parse roof-group.json | tl-tree >group.tsv || exit 1
tl-roofline -t -c out group.tsv
echo "exit $?"
ls out
cat out/GEMM.csv
# With an arch, the roofline columns; the per-sheet files of the models
# trace.
tl-parse roof-models.json | tl-tree >models.tsv || exit 1
tl-roofline -a H100 -c out2 models.tsv 2>/dev/null
echo "exit $?"
ls out2
cat out2/Reduce_fwd.csv
# an existing directory is fine; a file in the way is not
tl-roofline -a H100 -c out2 models.tsv 2>/dev/null
echo "exit $?"
: >afile
tl-roofline -c afile models.tsv
echo "exit $?"
# A kernel name with U+00AD and U+2028, which Python's repr writes as
# \xad and \u2028 (str.isprintable is false for both).
sed 's/cutlass_80_tensorop/cutlass\\u00ad80\\u2028tensorop/g' \
    roof-group.json >shy.json
tl-parse shy.json | tl-tree >shy.tsv || exit 1
tl-roofline -t -c out3 shy.tsv
grep -o "'name': '[^']*80[^']*tensorop" out3/GEMM.csv | sort -u
