# Read an .xlsx back with openpyxl (not libxlsxwriter) and compare it with
# the tl-tsv(5) streams it was made from: every sheet in order, every row,
# every cell. Run with the system python, which has Debian's
# python3-openpyxl:
#
#	/usr/bin/python3 readback.py BOOK.xlsx SHEET=FILE.tsv ...
#
# SHEET=FILE says that FILE went to the sheet SHEET and its continuation
# sheets "SHEET (2)", ... (given as SHEET=FILE:SHEET2:SHEET3 when they
# have other names). The worksheets of the book must be those, in that
# order, plus at most a hidden "chart data" sheet at the end; a chart
# sheet "SHEET chart" holds the charts of a wide SHEET.
#
# Every XML part must parse with a strict parser (expat).
#
# Cells: an empty field is an empty cell; a number (the grammar tl-xlsx
# uses) in a column whose first 1000 rows hold numbers only is a number
# cell, equal to the double the text reads as, or,
# when the text needs 17 significant digits, to that double rounded to
# the 16 that libxlsxwriter writes; any other field (a number in a text
# column included) is a text cell equal to the decoded field (Excel's _xHHHH_ escapes undone). For each sheet
# it prints one line: rows, numbers, numbers rounded, text cells, the
# frozen pane, the filter range, hidden columns and charts. Exit 0 when
# everything matches, else 1 after the first few differences.
import re
import sys
import xml.etree.ElementTree as ET
import zipfile

import openpyxl

NUM = re.compile(r'-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?\Z')
XESC = re.compile(r'_x([0-9A-Fa-f]{4})_')


def unescape(s):
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == '\\' and i + 1 < len(s):
            out.append({'\\': '\\', 't': '\t', 'n': '\n', 'r': '\r'}
                       [s[i + 1]])
            i += 2
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def expected(field):
    """(kind, value, rounded) for one raw field."""
    if field == '':
        return ('empty', None, False)
    m = NUM.match(field)
    if m:
        v = float(field)
        isint = m.group(2) is None and m.group(3) is None
        if v not in (float('inf'), float('-inf')) and not (
                isint and abs(v) >= 2 ** 53):
            r = float('%.16G' % v)
            return ('number', r, r != v)
    t = unescape(field)
    if len(t) > 32767:      # what a cell holds (BMP text)
        t = t[:32767]
    return ('text', t, False)


def xldecode(s):
    return XESC.sub(lambda m: chr(int(m.group(1), 16)), s)


def main():
    book = sys.argv[1]
    # Every part is XML 1.0 a strict parser (expat) takes.
    with zipfile.ZipFile(book) as z:
        for part in z.namelist():
            if part.endswith('.xml') or part.endswith('.rels'):
                try:
                    ET.fromstring(z.read(part))
                except ET.ParseError as e:
                    print('%s: %s: not well-formed XML: %s' % (book, part, e))
                    return 1
    wb = openpyxl.load_workbook(book)
    want = []
    for arg in sys.argv[2:]:
        name, path = arg.split('=', 1)
        parts = path.split(':')
        want.append((name, parts[0], parts[1:]))
    names = [ws.title for ws in wb.worksheets]
    bad = 0
    k = 0
    for name, path, more in want:
        with open(path, 'rb') as f:
            lines = f.read().decode('utf-8', 'replace').split('\n')
        assert lines[-1] == ''
        lines = [ln.split('\t') for ln in lines[:-1]]
        head, rows = lines[0], lines[1:]
        sheets = []
        while k < len(names):
            n = names[k]
            if not sheets:
                if n != name:
                    print('%s: sheet %d is "%s"' % (name, k + 1, n))
                    return 1
            elif more:
                if n != more[len(sheets) - 1]:
                    break
            elif n != '%s (%d)' % (name, len(sheets) + 1):
                break
            sheets.append(wb[n])
            k += 1
        got = []
        for ws in sheets:
            it = ws.iter_rows(values_only=True)
            h = list(next(it))
            if h[:len(head)] != head or any(
                    c is not None for c in h[len(head):]):
                print('%s: header of "%s": %r' % (name, ws.title, h))
                return 1
            got.extend(list(r) for r in it)
        nnum = nround = ntext = 0
        if len(got) != len(rows):
            print('%s: %d rows, the stream has %d' % (name, len(got),
                                                      len(rows)))
            bad += 1
        # A column with a field that is not a number in its first 1000
        # rows is text all the way down.
        textcol = set(j for r in rows[:1000] for j, field in enumerate(r)
                      if expected(field)[0] == 'text' and not re.match(
                          r'[+-]?(inf|infinity|nan)\Z', field, re.I))
        for i, (g, r) in enumerate(zip(got, rows)):
            g = g + [None] * (len(r) - len(g))
            for j, field in enumerate(r):
                kind, v, rounded = expected(field)
                if kind == 'number' and j in textcol:
                    kind, v, rounded = 'text', unescape(field), False
                c = g[j]
                ok = False
                if kind == 'empty':
                    ok = c is None
                elif kind == 'number':
                    ok = isinstance(c, (int, float)) and \
                        not isinstance(c, bool) and float(c) == v
                    nnum += 1
                    nround += rounded
                else:
                    ok = isinstance(c, str) and xldecode(c) == v
                    ntext += 1
                if not ok:
                    bad += 1
                    if bad <= 5:
                        print('%s: row %d, column "%s": expected %s %r, '
                              'got %r' % (name, i + 1, head[j], kind, v, c))
            if any(c is not None for c in g[len(r):]):
                bad += 1
                print('%s: row %d: cells beyond the header' % (name, i + 1))
        ws = sheets[0]
        hid = [head[i] for i in range(len(head))
               if ws.column_dimensions[
                   openpyxl.utils.get_column_letter(i + 1)].hidden]
        charts = [type(c).__name__ for c in ws._charts]
        charts += [type(c).__name__ + ' (sheet "%s")' % cs.title
                   for cs in wb.chartsheets if cs.title == name + ' chart'
                   for c in cs._charts]
        print('%s: %d sheet%s, %d rows, %d numbers (%d rounded to 16 '
              'digits), %d texts; frozen %s, filter %s%s%s' % (
                  name, len(sheets), '' if len(sheets) == 1 else 's',
                  len(got), nnum, nround, ntext, ws.freeze_panes,
                  ws.auto_filter.ref,
                  ', hidden ' + ' '.join(hid) if hid else '',
                  ', charts ' + ' '.join(charts) if charts else ''))
    rest = names[k:]
    if rest and (rest != ['chart data'] or
                 wb['chart data'].sheet_state != 'hidden'):
        print('sheets left over: %s' % rest)
        bad += 1
    if bad:
        print('%d difference%s' % (bad, '' if bad == 1 else 's'))
        return 1
    return 0


sys.exit(main())
