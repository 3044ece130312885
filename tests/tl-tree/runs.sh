# Host events by start (spec 2.4) whatever runs in order the file holds
# them in: merged from up to 256 runs, sorted beyond. The same events in
# 1, 200 and 300 runs make the same tree; equal starts in different runs
# keep their file order.
gen() {		# runs: 3000 events in that many runs, the last run first
	awk -v runs="$1" 'BEGIN {
		printf "uid\tph\tcat\tname\tpid\ttid\tts_ns\tdur_ns\tid\t"
		printf "correlation\texternal_id\tseq\n"
		n = 3000
		per = n / runs
		for (r = runs - 1; r >= 0; r--)
			for (k = r * per; k < (r + 1) * per; k++) {
				cat = k % 4 == 3 ? "cuda_runtime" : "cpu_op"
				printf "%d\tX\t%s\top\t1\t%d\t%d\t%d\t\t%s\t\t\n",
				    2 * k, cat, k % 3, 1000 * k,
				    k % 5 == 0 ? 9500 : 400,
				    cat == "cpu_op" ? "" : k
				if (cat == "cpu_op")
					continue
				printf "%d\tX\tkernel\tk\t0\t7\t%d\t300\t\t%d\t\t\n",
				    2 * k + 1, 1000 * k + 100, k
			}
	}'
}
tree() {	# the tree columns by uid
	tl-tree 2>/dev/null | awk -F'\t' -v OFS='\t' 'NR > 1 {
		print $1, $13, $14, $15, $16, $17, $18, $19 }' | sort -n
}
gen 1 | tree >one
gen 200 | tree >merged
gen 300 | tree >sorted
cmp one merged && cmp one sorted && echo "1, 200, 300 runs: the same tree"
awk -F'\t' '$3 != "" { d[$3]++ } END { for (k in d) print "depth", k, d[k] }' \
    one | sort
# Equal starts in two runs, on one thread: the earlier in the file first.
printf 'uid\tph\tcat\tname\tpid\ttid\tts_ns\tdur_ns\tid\tcorrelation\t' >ties
printf 'external_id\tseq\n' >>ties
printf '%d\tX\tcpu_op\tb%d\t1\t1\t%d\t%d\t\t\t\t\n' 0 0 50 10 1 1 100 50 \
    2 2 100 20 3 3 10 5 4 4 100 50 5 5 100 20 >>ties
tl-tree <ties | cut -f 1,4,7,8,13,14,15
