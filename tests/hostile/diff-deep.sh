# A tree 9,999 levels deep (tl-diff takes 10,000) on each side, under a
# stack limit below what the merge's recursion needs of the main thread
# (about 4 MiB): tl-diff gives its work a stack made for the depth, so
# the limit of the caller does not matter.
gen() {
	awk -v n=9998 -v k="$1" 'BEGIN {
	printf "{\"traceEvents\":[\n"
	for (i = 0; i < n; i++)
		printf "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"op%d\"," \
		    "\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":%d},\n", i % 7, i,
		    2 * (n - i) + 10
	printf "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":" \
	    "\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":1," \
	    "\"args\":{\"correlation\":5}},\n", n
	printf "{\"ph\":\"s\",\"id\":5,\"pid\":1,\"tid\":1,\"ts\":%d," \
	    "\"cat\":\"ac2g\",\"name\":\"ac2g\"},\n", n
	printf "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"%s\",\"pid\":0," \
	    "\"tid\":7,\"ts\":%d,\"dur\":3,\"args\":{\"correlation\":5," \
	    "\"stream\":7}},\n", k, n + 5
	printf "{\"ph\":\"f\",\"id\":5,\"pid\":0,\"tid\":7,\"ts\":%d," \
	    "\"cat\":\"ac2g\",\"name\":\"ac2g\",\"bp\":\"e\"}]}\n", n + 5
	}' >"$1.json"
	tl-parse "$1.json" | tl-tree --limit levels=20000 >"$1.tsv" || exit 1
}
gen k1
gen k2
ulimit -s 3584 || exit 77
tl-diff k1.tsv k2.tsv >lca.tsv
echo "exit $?"
cut -f1-6 lca.tsv
tl-diff -t tree k1.tsv k2.tsv | awk -F'\t' 'NR > 1 { n++; d = $3 }
    END { print n " merged nodes, the deepest at " d }'
tl-diff -p k1.tsv k2.tsv | wc -l
mkdir tl
tl-diff -T -o tl k1.tsv k2.tsv
echo "exit $?"
ls tl
