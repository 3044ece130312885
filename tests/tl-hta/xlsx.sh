# --output_xlsx_path: the CSV files as the sheets of one workbook (through
# tl-xlsx), with the pandas index column named "index" and the two-line
# header of a describe() table flattened; without --output_csvs_dir no
# file is left behind.
command -v unzip >/dev/null 2>&1 || exit 77
[ -d "$TRACES/hta" ] || exit 77
mkdir -p in tmp
ln -sf "$TRACES/hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz" in/
TMPDIR=$PWD/tmp tl-hta --trace_dir in --output_xlsx_path w.xlsx 2>/dev/null
echo "exit $?"
echo "left in TMPDIR: $(ls tmp | wc -l)"
unzip -p w.xlsx xl/workbook.xml | tr '<' '\n' | sed -n 's/^sheet name="\([^"]*\)".*/\1/p'
unzip -p w.xlsx 'xl/worksheets/*.xml' | grep -o 'memory_bw_gbps_[a-z0-9%]*' |
    tr '\n' ' '
echo
