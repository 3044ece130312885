# --limit, the same option in every tool (tl(7), Limits): raised, the
# 10,000-deep args read through; lowered, each limit ends the input with
# a located message naming the option, status 1 (tl-diff 2); a bad
# argument is a usage error.
awk 'BEGIN {
	printf "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"deep\", " \
	    "\"ts\": 2, \"args\": {\"a\": "
	for (i = 0; i < 10000; i++) printf "["
	for (i = 0; i < 10000; i++) printf "]"
	print "}}, {\"ph\": \"X\", \"name\": \"after\", \"ts\": 3}]}"
}' >deep.json || exit 1
# 10,004 levels: the top-level object, traceEvents, the event, args.
tl-parse --limit depth=10004 deep.json | cut -f1-4
tl-parse --limit depth=10003 deep.json >/dev/null
echo "depth=10003: exit $?"
# An event of 1530 bytes, a kernel named with 1500 of them.
printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "%s", ' \
    "$(printf '%01500d' 0)" >long.json
printf '"ts": 1, "dur": 2, "args": {"stream": 7}}]}\n' >>long.json
tl-parse --limit value=1600 long.json | wc -l
tl-parse --limit value=1500 long.json | wc -l
# A row longer than the limit, after a header within it, for each reader.
tl-parse long.json >ev.tsv || exit 1
tl-tree --limit line=1600 ev.tsv | wc -l
tl-tree --limit line=1k ev.tsv | wc -l
tl-tree ev.tsv >tree.tsv || exit 1
tl-agg --limit line=200,line=1k kernels tree.tsv
tl-roofline --limit line=1k tree.tsv | wc -l
tl-diff --limit line=1k tree.tsv tree.tsv
echo "tl-diff: exit $?"
tl-xlsx --limit line=1k -o x.xlsx tree.tsv
ls x.xlsx 2>/dev/null
# Bad arguments.
for a in depth=0 depth=none depth=2000000 value=none value=2G line=1X \
    lines=1 ratio= =5 ratio=-1; do
	tl-parse --limit "$a" deep.json >/dev/null
done
tl-diff --limit x tree.tsv tree.tsv
echo "tl-diff: exit $?"
tl-parse --limit 2>&1 >/dev/null | head -1
