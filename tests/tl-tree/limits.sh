# Limits on what a stream can make tl-tree do. Host events nest at most
# 1000 deep per thread: 1000 levels are fine, 1001 a located error
# (status 1), unless --limit levels says otherwise. Graph launches that share a key each reach every GPU event
# of the key: the last launch keeps them, the warnings show the first 10,
# and the count is of all the links made again, without the work growing
# as launches times events; a flow after them takes its event over.
hdr='uid\tph\tcat\tname\tpid\ttid\tts_ns\tdur_ns\tid\tcorrelation\t'
hdr=$hdr'external_id\tseq\n'
nest() {	# levels
	awk -v n="$1" -v h="$hdr" 'BEGIN {
		printf "%s", h
		for (i = 0; i < n; i++)
			printf "%d\tX\tcpu_op\top\t1\t1\t%d\t%d\t\t\t\t\n",
			    i, i, 4 * n - 2 * i }'
}
nest 1000 | tl-tree | awk -F'\t' 'NR > 1 && $14 > d { d = $14 }
    END { print "rows", NR - 1, "depth", d }'
echo "exit $?"
nest 1001 | tl-tree >/dev/null
echo "exit $?"
nest 1001 | tl-tree --limit levels=1001 | wc -l
nest 1001 | tl-tree --limit levels=500 >/dev/null
echo "exit $?"
awk -v h="$hdr" 'BEGIN {
	printf "%s", h
	for (i = 0; i < 3; i++)		# uids 0 1 2
		printf "%d\tX\tcuda_runtime\tcudaGraphLaunch\t1\t1\t%d\t5" \
		    "\t\t7\t\t\n", i, 10 * i
	for (i = 0; i < 6; i++)		# uids 3 to 8
		printf "%d\tX\tkernel\tk\t0\t7\t%d\t5\t\t7\t\t\n", 3 + i,
		    100 + 10 * i
	printf "9\tX\tcuda_runtime\tcudaLaunchKernel\t1\t1\t50\t5\t\t7\t\t\n"
	printf "10\ts\tac2g\tac2g\t1\t1\t50\t\t7\t\t\t\n"
	printf "11\tf\tac2g\tac2g\t0\t7\t150\t\t7\t\t\t\n"
	}' | tl-tree 2>&1 | cut -f 1,4,13
echo "exit $?"
