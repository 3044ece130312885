# The limits on what a program keeps and reads (tl(7), Limits), on by
# default, each a located message (or one naming the limit) and status 1
# (2 for tl-diff):
# - ratio, from the first 64 MiB out, over all of it and over each
#   stretch of 64 MiB: 1 MB of ordinary events, then 70 MiB of blanks,
#   628 times the file's size, which the old limit (1000 times, checked
#   past 1 GiB) let by; none lets it by;
# - events: the events of one trace a program holds (tl-roofline too),
#   and the rows of one table tl-xlsx writes;
# - string and kept: the longest string, and the bytes of the distinct
#   strings, a program keeps.
awk 'BEGIN { printf "{\"traceEvents\": [\n"
	for (i = 0; i < 6000; i++)
		printf "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": " \
		    "\"aten::op%d\", \"pid\": 1, \"tid\": %d, \"ts\": %d, " \
		    "\"dur\": %d},\n", i * 7919 % 1000, i % 13, i * 37, i % 31
	printf "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"last\", " \
	    "\"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 1}" }' >head.json
{
	cat head.json
	head -c 73400320 /dev/zero | tr '\0' ' '
	echo ']}'
} | gzip -9 >bomb.json.gz
echo "$(($(gzip -dc bomb.json.gz | wc -c) / $(wc -c <bomb.json.gz))) times"
tl-parse bomb.json.gz >ev1.tsv
echo "exit $?"
tl-parse --limit ratio=none bomb.json.gz >ev2.tsv
echo "exit $?"
tail -n 1 ev2.tsv | cut -f1-4
cp "$TESTDATA/tree-gpu.json" . || exit 1
tl-parse tree-gpu.json >ev.tsv || exit 1
tl-tree <ev.tsv 2>/dev/null >tree.tsv || exit 1
tl-tree --limit events=3 ev.tsv >/dev/null
echo "exit $?"
tl-agg --limit events=3 ops tree.tsv >/dev/null
echo "exit $?"
tl-diff --limit events=3 tree.tsv tree.tsv >/dev/null
echo "exit $?"
tl-roofline --limit events=3 tree.tsv 2>&1 >/dev/null | head -n 1 >&2
tl-roofline --limit events=3 tree.tsv >/dev/null 2>&1
echo "exit $?"
tl-xlsx --limit events=3 -o x.xlsx tree.tsv
echo "exit $?"; [ ! -e x.xlsx ] || echo "x.xlsx left"
tl-tree --limit string=8 ev.tsv >/dev/null
echo "exit $?"
tl-agg --limit kept=64 ops tree.tsv >/dev/null
echo "exit $?"
tl-tree --limit events=none,string=none,kept=none ev.tsv 2>/dev/null | wc -l
