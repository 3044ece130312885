# scripts/report.mk on two traces, two jobs at a time: per trace the tree
# stream, the tables and TraceLens's report (workbook and CSV files); the
# summary tables, each row naming its trace, and their workbook, whose
# charts compare the traces (the time line a bar per trace) or say which
# one they show (the top operations, of the first trace). A second
# run has nothing to do; a newer trace redoes its own targets and the
# summary only. A trace that fails (cut short) stops make, and leaves no
# half-written tree stream behind (pipefail, .DELETE_ON_ERROR).
mk=$TESTDATA/../../scripts/report.mk
mkdir ranks
cp "$TESTDATA/../../samples/bert-h100.json.gz" ranks/rank0.json.gz
cp "$TESTDATA/agg-small.json" ranks/rank1.json
make -s -f "$mk" -j2 TRACES='ranks/*' OUT=out
echo "exit $?"
find out -type f | sort
cut -f 1-3 out/summary/timeline.tsv
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null && /usr/bin/python3 -c '
import openpyxl
wb = openpyxl.load_workbook("out/summary.xlsx")
for ws in wb.worksheets:
    for c in ws._charts:
        print(ws.title, type(c).__name__, c.grouping,
              c.title.tx.rich.p[0].r[0].t, len(c.series), "series")
'
make -q -f "$mk" TRACES='ranks/*' OUT=out
echo "up to date: exit $?"
touch stamp
sleep 1
touch ranks/rank1.json
make -s -f "$mk" TRACES='ranks/*' OUT=out 2>/dev/null
echo "exit $?"
find out -type f -newer stamp | sort
head -c 30000 ranks/rank0.json.gz >ranks/rank2.json.gz
make -s -f "$mk" TRACES='ranks/*' OUT=out 2>err
echo "exit $?"
grep -v '^make' err
ls -A out/rank2
echo "rank2: $(ls -A out/rank2 | wc -l) files"
