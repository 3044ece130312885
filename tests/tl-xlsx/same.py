# Read two .xlsx files back with openpyxl (not libxlsxwriter) and say
# whether they hold the same workbook: the same sheets in the same order
# and state, and in each the same cells (value, type, number format,
# bold), column widths and hidden columns, frozen pane, filter range and
# charts; and, zip part by zip part, the same XML but for the time of
# creation (docProps/core.xml). Run with the system python, which has
# Debian's python3-openpyxl:
#
#	/usr/bin/python3 same.py A.xlsx B.xlsx
#
# Prints one line per sheet of A, then "parts: same" or the parts that
# differ; exit 0 when the workbooks are the same, else 1.
import sys
import zipfile

import openpyxl
from openpyxl.utils import get_column_letter


def cells(ws):
    out = []
    for row in ws.iter_rows():
        for c in row:
            if c.value is None:
                continue
            out.append((c.coordinate, c.value, c.data_type, c.number_format,
                        bool(c.font.b)))
    return out


def columns(ws, ncol):
    out = []
    for i in range(1, ncol + 1):
        d = ws.column_dimensions[get_column_letter(i)]
        out.append((d.width, bool(d.hidden)))
    return out


def charts(ws):
    return [(type(c).__name__, len(c.series)) for c in ws._charts]


def main():
    a = openpyxl.load_workbook(sys.argv[1])
    b = openpyxl.load_workbook(sys.argv[2])
    bad = 0
    if a.sheetnames != b.sheetnames:
        print('sheets: %r against %r' % (a.sheetnames, b.sheetnames))
        return 1
    for name in a.sheetnames:
        x, y = a[name], b[name]
        what = []
        cx, cy = cells(x), cells(y)
        if cx != cy:
            diff = [p for p in zip(cx, cy) if p[0] != p[1]][:3]
            what.append('cells %r' % (diff or (len(cx), len(cy)),))
        ncol = max(x.max_column, y.max_column)
        if columns(x, ncol) != columns(y, ncol):
            what.append('columns %r against %r' % (columns(x, ncol),
                                                   columns(y, ncol)))
        for k in ('sheet_state', 'freeze_panes'):
            if getattr(x, k) != getattr(y, k):
                what.append('%s %r against %r' % (k, getattr(x, k),
                                                  getattr(y, k)))
        if x.auto_filter.ref != y.auto_filter.ref:
            what.append('filter %r against %r' % (x.auto_filter.ref,
                                                  y.auto_filter.ref))
        if charts(x) != charts(y):
            what.append('charts %r against %r' % (charts(x), charts(y)))
        if what:
            bad += 1
            print('%s: differs: %s' % (name, '; '.join(what)))
        else:
            print('%s: same, %d rows, %d cells%s' % (
                name, x.max_row, len(cx),
                ', charts ' + ' '.join(c[0] for c in charts(x))
                if charts(x) else ''))
    za, zb = zipfile.ZipFile(sys.argv[1]), zipfile.ZipFile(sys.argv[2])
    parts = [n for n in sorted(set(za.namelist()) | set(zb.namelist()))
             if n != 'docProps/core.xml' and
             (n not in za.namelist() or n not in zb.namelist() or
              za.read(n) != zb.read(n))]
    if parts:
        bad += 1
        print('parts differ: %s' % ' '.join(parts))
    else:
        print('parts: same')
    return 1 if bad else 0


sys.exit(main())
