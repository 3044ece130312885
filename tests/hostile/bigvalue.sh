# Memory in proportion to what a stage keeps (tl(7), Limits): an event
# whose args hold one string of 48 MiB costs each stage one copy of it
# (and what its buffers grow by), under ulimit -v 100 MiB; a tool alone
# takes 5 to 11 MiB. Before, tl-parse held it twice (the event, then its
# row whole in the output buffer), tl-tree three times (the row read, the
# spool's buffer grown to it, the spool read back whole), tl-roofline
# twice (a copy of every row as read), tl-xlsx more (a copy of the rows
# read ahead, and a cell buffer of three times the field for the 32767
# characters a cell keeps).
# (A sanitized build reserves terabytes of address space, and valgrind's
# is its own: skip there.)
[ -n "${TL_SANITIZED:-}${TL_VALGRIND:-}" ] && exit 77
size=50331648
{
	printf '{"traceEvents": [\n{"ph": "X", "cat": "cpu_op", "name": '
	printf '"aten::mm", "pid": 1, "tid": 1, "ts": 0, "dur": 5, "args": '
	printf '{"Input Dims": [[2, 3], [3, 4]]}},\n{"ph": "X", "cat": '
	printf '"cpu_op", "name": "x", "pid": 1, "tid": 1, "ts": 1, "dur": '
	printf '2, "args": {"junk": "'
	head -c $size /dev/zero | tr '\0' a
	printf '"}}]}\n'
} >big.json
# under CMD...: CMD with at most 100 MiB of address space.
under() {
	(ulimit -v 102400 && exec "$@")
}
# Each stage under the bound, on the input made without it.
tl-parse - <big.json >ev.tsv || exit 1
tl-tree ev.tsv >tree.tsv || exit 1
# From a pipe: a regular file would be mapped whole.
cat big.json | under tl-parse - >ev2.tsv
echo "tl-parse $? $(cmp -s ev.tsv ev2.tsv && echo same)"
under tl-tree ev.tsv >tree2.tsv
echo "tl-tree $? $(cmp -s tree.tsv tree2.tsv && echo same)"
under tl-roofline -p tree.tsv >pass.tsv 2>/dev/null
echo "tl-roofline -p $?"
under tl-agg ops tree.tsv >/dev/null 2>&1
echo "tl-agg $?"
under tl-xlsx -o x.xlsx tree.tsv 2>/dev/null
echo "tl-xlsx $?"
# each whole: the string, and the rows as they came
for f in ev.tsv tree.tsv pass.tsv; do
	echo "$f: $(wc -l <$f) lines, $(sed -n 4p $f | cut -f 19 | wc -c)" \
	    "bytes of args"
done
/usr/bin/python3 -c 'import openpyxl, sys
ws = openpyxl.load_workbook(sys.argv[1]).worksheets[0]
print("x.xlsx:", ws.max_row, "rows,", len(ws.cell(4, 19).value), "characters")' x.xlsx
