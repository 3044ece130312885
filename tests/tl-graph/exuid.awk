# For each row of a TraceLens ops_unique_args.csv (ref): is its ex_UID,
# in the tree stream given second, an op of the same name that launched
# GPU work? Prints the count, and the first rows that are not.
#
#	awk -v lib=1 -f tests/lib/csvcmp.awk -f exuid.awk \
#	    ops_unique_args.csv tree.tsv

BEGIN {
	ne = load(ARGV[1])
	parse(rec[ARGV[1], 1], h)
	for (i = 1; i in h; i++)
		c[h[i]] = i
	FS = "\t"
	while ((getline line < ARGV[2]) > 0) {
		n = split(line, f, "\t")
		if (++nl == 1) {
			for (i = 1; i <= n; i++)
				t[f[i]] = i
			continue
		}
		if (f[t["gpu_kernel_time_ns"]] + 0 > 0)
			op[f[t["uid"]]] = f[t["name"]]
	}
	ok = 0
	for (r = 2; r <= ne; r++) {
		delete e
		parse(rec[ARGV[1], r], e)
		u = e[c["ex_UID"]]
		if ((u in op) && op[u] == e[c["name"]])
			ok++
		else if (bad++ < 5)
			printf "row %d: ex_UID %s %s: not there\n", r - 1, u,
			    e[c["name"]]
	}
	printf "%d of %d rows: ex_UID launches GPU work, same name\n", ok,
	    ne - 1
	exit
}
