# For each row of a TraceLens ops_unique_args.csv (ref): is its ex_UID,
# in the tree stream given second, an op of the same name that launched
# GPU work? Prints the count, and the first rows that are not.
#
#	awk -f exuid.awk ops_unique_args.csv tree.tsv
function parse(s, out,    n, i, c, f, q, len) {
	n = 0
	f = ""
	q = 0
	len = length(s)
	for (i = 1; i <= len; i++) {
		c = substr(s, i, 1)
		if (q) {
			if (c == "\"") {
				if (substr(s, i + 1, 1) == "\"") {
					f = f "\""
					i++
				} else
					q = 0
			} else
				f = f c
		} else if (c == "\"")
			q = 1
		else if (c == ",") {
			out[++n] = f
			f = ""
		} else
			f = f c
	}
	out[++n] = f
	return n
}

# Read the records of file into rec[file, i]; return their number.
function load(file,    line, r, n, nq, t) {
	n = 0
	r = ""
	nq = 0
	while ((getline line < file) > 0) {
		r = (nq % 2) ? r "\n" line : line
		t = line
		nq += gsub(/"/, "", t)
		if (nq % 2)
			continue
		rec[file, ++n] = r
		nq = 0
	}
	close(file)
	return n
}

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
