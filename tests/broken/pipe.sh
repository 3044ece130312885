# A closed pipe (| head -1) ends every tool that writes a stream quietly:
# no message; killed by SIGPIPE (status 141 in the shell), or, when
# SIGPIPE is ignored, status 1 (tl-diff 2) without a message; head gets
# the first line. The trace is made here: 60000 ops, each with a launch,
# a kernel and their flow, so that every output is larger than a pipe
# holds (1 MiB: the tools enlarge their pipes). (A shell started with
# SIGPIPE ignored cannot restore it: skip.)
{ yes; echo $? >probe; } | head -1 >/dev/null
[ "$(cat probe)" = 141 ] || exit 77
awk 'BEGIN {
	printf "{\"traceEvents\": [\n"
	for (i = 0; i < 60000; i++) {
		t = i * 10
		printf "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", " \
		    "\"name\": \"aten::op%d\", \"pid\": 1, \"tid\": 1, " \
		    "\"ts\": %d, \"dur\": 8}\n", i ? "," : "", i, t
		printf ",{\"ph\": \"X\", \"cat\": \"cuda_runtime\", " \
		    "\"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, " \
		    "\"ts\": %d, \"dur\": 2, \"args\": {\"correlation\": %d}}\n",
		    t + 1, i
		printf ",{\"ph\": \"s\", \"cat\": \"ac2g\", \"name\": \"ac2g\", " \
		    "\"id\": %d, \"pid\": 1, \"tid\": 1, \"ts\": %d}\n", i, t + 1
		printf ",{\"ph\": \"X\", \"cat\": \"kernel\", " \
		    "\"name\": \"kernel%d\", \"pid\": 0, \"tid\": 7, " \
		    "\"ts\": %d, \"dur\": 3, \"args\": {\"correlation\": %d, " \
		    "\"stream\": 7}}\n", i, t + 4, i
		printf ",{\"ph\": \"f\", \"cat\": \"ac2g\", \"name\": \"ac2g\", " \
		    "\"id\": %d, \"pid\": 0, \"tid\": 7, \"ts\": %d, " \
		    "\"bp\": \"e\"}\n", i, t + 4
	}
	print "]}"
}' >big.json || exit 1
tl-parse big.json >ev.tsv || exit 1
tl-tree ev.tsv >tree.tsv || exit 1
# The tool's status, its stderr and the first line that head took.
run() {
	{ "$@" 2>err; echo $? >st; } | head -1 | cut -c1-40
	echo "$*: $(cat st)"
	cat err >&2
}
for ign in no yes; do
	[ $ign = yes ] && trap '' PIPE
	echo "SIGPIPE ignored: $ign"
	run tl-parse big.json
	run tl-tree ev.tsv
	run tl-tree -p ev.tsv
	run tl-agg ops tree.tsv
	run tl-agg kernels tree.tsv
	run tl-roofline -p -a none tree.tsv
	run tl-diff tree.tsv tree.tsv
	run tl-diff -p tree.tsv tree.tsv
done
trap - PIPE
# The rows that head lets through are whole.
tl-parse big.json | head -3 | cut -f1-8
