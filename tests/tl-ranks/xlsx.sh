# The workbook: TraceLens's sheets in its order (the names it gives them),
# HTA's tables, and a sheet per rank of where its GPU time goes with a pie
# (computation, non-computation, idle); a stacked bar per rank of the same
# on hta_temporal_breakdown, and per collective of its skew in start time
# and comm_latency (on a chart sheet: nccl_implicit_sync is wide); the
# cells of the tables as the
# streams have them (tests/tl-xlsx/readback.py checks those of tl-xlsx).
# With no output option, the workbook goes beside the traces, named as
# TraceLens names it.
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null || exit 77
rep=$TESTDATA/../../scripts/tl-collective-report
mkdir ranks
cp "$TESTDATA"/../tl-ranks/data/meta/rank*.json ranks/
"$rep" --world_size 4 --trace_pattern 'ranks/rank*.json' \
    --output_xlsx_path book.xlsx --output_tsvs_dir tsv
echo "exit $?"
/usr/bin/python3 - book.xlsx <<'EOP'
import sys
import openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
for ws in wb.worksheets:
    print(ws.title, ws.sheet_state, ws.max_row, ws.max_column,
          len(ws._charts))
print("chart sheets", [cs.title for cs in wb.chartsheets])
for ws in list(wb.worksheets) + list(wb.chartsheets):
    for c in ws._charts:
        if type(c).__name__ != "BarChart":
            continue
        print(ws.title, c.grouping, repr(c.title.tx.rich.p[0].r[0].t))
        for s in c.series:
            print("  series", s.tx.strRef.f, s.cat.numRef.f, s.val.numRef.f)
ws = wb["rank 2 time"]
for row in ws.iter_rows(values_only=True):
    print(*row)
ws = wb["straggler_summary"]
print(*[c.value for c in ws[2]])
EOP
"$rep" --world_size 4 --trace_pattern "$PWD/ranks/rank*.json"
echo "exit $?"
ls ranks
