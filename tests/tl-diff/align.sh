# Long lists: 6000 roots, each an op with a launch and a kernel, all named
# apart; the variant drops every 5th op and has a new one after every 7th.
# The roots align by edit distance (1200 on the baseline only, 857 on the
# variant only, the 4800 others matched), past the exact cost limit too;
# -T pairs them by position.
awk -v n=6000 -v OFS='\t' 'BEGIN {
	print "uid", "cat", "name", "ts_ns", "dur_ns", "parent", "depth"
	for (i = 0; i < n; i++) {
		u = 3 * i; t = 1000 * i
		print u, "cpu_op", "op" i, t, 100, "", 0
		print u + 1, "cuda_runtime", "cudaLaunchKernel", t + 10, 10, u, 1
		print u + 2, "kernel", "k" i, t + 500, 50, u + 1, 2
	}
}' >a.tsv
awk -v n=6000 -v OFS='\t' 'BEGIN {
	print "uid", "cat", "name", "ts_ns", "dur_ns", "parent", "depth"
	for (i = 0; i < n; i++) {
		if (i % 7 == 6) {
			u = 3 * m++; t = 1000 * m
			print u, "cpu_op", "new" i, t, 100, "", 0
			print u + 1, "cuda_runtime", "cudaLaunchKernel", t + 10, 10, u, 1
			print u + 2, "kernel", "knew" i, t + 500, 50, u + 1, 2
		}
		if (i % 5 == 4)
			continue
		u = 3 * m++; t = 1000 * m
		print u, "cpu_op", "op" i, t, 100, "", 0
		print u + 1, "cuda_runtime", "cudaLaunchKernel", t + 10, 10, u, 1
		print u + 2, "kernel", "k" i, t + 500, 60, u + 1, 2
	}
}' >b.tsv
tl-diff -t tree a.tsv b.tsv | awk -F'\t' '$3 == 0 { n[$4]++ }
    END { for (k in n) print k, n[k] }' | sort
tl-diff -t ops a.tsv b.tsv | awk -F'\t' 'NR > 1 && $3 > 0 && $4 > 0 { n++
    d += $7 } END { print n " ops on both sides, " d " ns longer" }'
tl-diff -T -o out a.tsv b.tsv
echo "exit $?"
grep -c '^├── combined:' out/merged_tree_output.txt
