# The bert traces of h100 and mi300: one workbook with TraceLens's report
# comparison, the TraceDiff tables and the by-operation / by-layer tables,
# read back with openpyxl. Its sheets are those tl-compare-reports writes
# from tl-report's CSV files, and those tl-diff and tl-xdiff write from
# the tree streams, cell for cell, in the words of the report comparison
# (the sides by their tags, TAG::col for col_1 and col_2, times in ms to
# the nanosecond); the largest gaps by operation as a chart. Then the two
# report directories alone, and tags set with -n.
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null || exit 77
t=gaunernst_bert-small-uncased__1016001.json.gz
[ -f "$TRACES/mi300/$t" ] && [ -f "$TRACES/h100/$t" ] || exit 77
PATH=$TESTDATA/../../scripts:$PATH
mkdir h100 mi300 ref reports tmp
TMPDIR=$PWD/tmp
export TMPDIR
for p in h100 mi300; do
	ln -s "$TRACES/$p/$t" $p/$t
done
tl-compare h100/$t mi300/$t
echo "exit $?"
ls *.xlsx
ls -A tmp
# What the sheets should hold: the report comparison, the tree streams'
# tables.
for p in h100 mi300; do
	tl-report --enable_kernel_summary --output_csvs_dir reports/$p $p/$t ||
		exit 1
	tl-parse $p/$t | tl-tree -P >ref/$p.tsv || exit 1
done
tl-compare-reports reports/h100 reports/mi300 -o ref/cmp.xlsx || exit 1
(cd ref && tl-diff -o diff h100.tsv mi300.tsv; tl-xdiff -o cross \
    h100.tsv mi300.tsv) 2>/dev/null
cat >check.py <<'EOP'
import sys
import openpyxl
book = openpyxl.load_workbook(sys.argv[1])
ref = openpyxl.load_workbook("ref/cmp.xlsx")
print(sys.argv[1] + ":", ", ".join(book.sheetnames))
for cs in book.chartsheets:
    for c in cs._charts:
        print(cs.title + ":", type(c).__name__,
              c.title.tx.rich.p[0].r[0].t)
def unesc(s):
    return s.replace("\\t", "\t").replace("\\n", "\n").replace("\\\\", "\\")
def rows(ws):
    return [list(r) for r in ws.iter_rows(values_only=True)]
bad = 0
for name in [ws.title for ws in book.worksheets]:
    got = rows(book[name])
    if name in ref.sheetnames:
        want = rows(ref[name])
        what = "the report comparison"
    else:
        f = {"tracediff_lca": "diff/lca", "tracediff_ops": "diff/ops",
             "tracediff_args": "diff/args", "tracediff_names": "diff/names",
             "by_operation": "cross/ops", "by_layer": "cross/layers",
             "by_operation_kernels": "cross/kernels"}.get(name)
        if f is None:
            print(name, "unexpected")
            bad += 1
            continue
        what = f + ".tsv"
        want = []
        for line in open("ref/" + f + ".tsv", encoding="utf-8"):
            want.append([unesc(x) for x in line.rstrip("\n").split("\t")])
        # tl-compare's words: tags for sides, ms for ns.
        tags = ("h100", "mi300")
        ms = [c.endswith("_ns") or "_ns_" in c for c in want[0]]
        side = [c == "side" for c in want[0]]
        for i, c in enumerate(want[0]):
            c = c.replace("_ns", "_ms", 1) if ms[i] else c
            if c.endswith("_1") or c.endswith("_2"):
                c = tags[int(c[-1]) - 1] + "::" + c[:-2]
            want[0][i] = c
        for r in want[1:]:
            for i in range(len(r)):
                if ms[i] and r[i] != "":
                    r[i] = "%.6f" % (float(r[i]) / 1e6)
                elif side[i] and r[i] in ("1", "2"):
                    r[i] = tags[int(r[i]) - 1]
        got = [["" if c is None else c for c in r] for r in got]
        for r in range(len(want)):
            for c in range(len(want[r])):
                if r < len(got) and c < len(got[r]) and \
                   isinstance(got[r][c], (int, float)):
                    # libxlsxwriter writes 16 significant digits.
                    x = float(want[r][c])
                    if got[r][c] in (x, float("%.16g" % x)):
                        want[r][c] = got[r][c]
    if got != want:
        print(name, "differs from", what)
        bad += 1
print("sheets equal:", "ok" if not bad else "%d differ" % bad)
def cells(name, *cols, n=3):
    ws = book[name]
    head = [c.value for c in ws[1]]
    ix = [head.index(c) for c in cols]
    for r in ws.iter_rows(min_row=1, max_row=n + 1, values_only=True):
        print(name + ":", " | ".join(str(r[i]) for i in ix))
if "gpu_timeline" in book.sheetnames:
    cells("gpu_timeline", "type", "h100::time ms", "mi300::time ms", n=1)
if "tracediff_ops" in book.sheetnames:
    cells("tracediff_ops", "op", "h100::kernel_time_ms",
          "mi300::kernel_time_ms")
    cells("by_operation", "operation", "status", "h100::time_ms",
          "mi300::time_ms")
    cells("by_layer", "layer", "h100::module", "mi300::module", "ratio",
          n=2)
EOP
/usr/bin/python3 check.py h100_vs_mi300_comparison.xlsx
echo "== the report directories"
tl-compare reports/h100 reports/mi300 -o dirs.xlsx
echo "exit $?"
/usr/bin/python3 check.py dirs.xlsx
echo "== tags"
tl-compare -n nv,amd -o tags.xlsx reports/h100 reports/mi300
echo "exit $?"
/usr/bin/python3 -c '
import openpyxl
book = openpyxl.load_workbook("tags.xlsx")
print(", ".join(book.sheetnames))
print([c.value for c in book["gpu_timeline"][1]])'
