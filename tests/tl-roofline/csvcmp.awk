# Compare two CSV files cell by cell: the header and the number of rows
# exactly, every cell with numbers within a relative tolerance. A cell
# is split into numbers and the text between them (so the numbers inside
# "[{'name': ..., 'total_duration_us': np.float64(98.718)}]" count as
# numbers); the text must be equal, each number within tol of the other.
# Fields are RFC 4180 ("" inside quotes), one record per line.
#
#	awk -v tol=1e-6 -v name=GEMM -f csvcmp.awk ref.csv out.csv
#
# Prints "NAME: R rows, C cells, N numbers, D differ" and the first few
# differences; exits 1 if anything differs.

function csvsplit(s, f,    n, i, c, q, cur, len) {
	n = 0
	cur = ""
	q = 0
	len = length(s)
	for (i = 1; i <= len; i++) {
		c = substr(s, i, 1)
		if (q) {
			if (c == "\"") {
				if (substr(s, i + 1, 1) == "\"") {
					cur = cur "\""
					i++
				} else
					q = 0
			} else
				cur = cur c
		} else if (c == "\"")
			q = 1
		else if (c == ",") {
			f[++n] = cur
			cur = ""
		} else
			cur = cur c
	}
	f[++n] = cur
	return n
}

function abs(x) {
	return x < 0 ? -x : x
}

function numeq(a, b,    d, m) {
	if (a == b)
		return 1
	d = abs(a - b)
	m = abs(a) > abs(b) ? abs(a) : abs(b)
	return d <= tol * m
}

# Split s into tokens: t[i] numbers (k[i] = 1) and the text between.
function tokens(s, t, k,    n, re) {
	n = 0
	re = "-?[0-9]+(\\.[0-9]*)?([eE][-+]?[0-9]+)?"
	while (match(s, re)) {
		if (RSTART > 1) {
			t[++n] = substr(s, 1, RSTART - 1)
			k[n] = 0
		}
		t[++n] = substr(s, RSTART, RLENGTH)
		k[n] = 1
		s = substr(s, RSTART + RLENGTH)
	}
	if (s != "") {
		t[++n] = s
		k[n] = 0
	}
	return n
}

function cellcmp(a, b,    ta, ka, tb, kb, na, nb, i) {
	if (a == b) {
		na = tokens(a, ta, ka)
		for (i = 1; i <= na; i++)
			nnum += ka[i]
		return 1
	}
	na = tokens(a, ta, ka)
	nb = tokens(b, tb, kb)
	if (na != nb)
		return 0
	for (i = 1; i <= na; i++) {
		if (ka[i] != kb[i])
			return 0
		if (ka[i]) {
			nnum++
			if (!numeq(ta[i] + 0, tb[i] + 0))
				return 0
		} else if (ta[i] != tb[i])
			return 0
	}
	return 1
}

BEGIN {
	if (tol == "")
		tol = 1e-6
	if (ARGC != 3) {
		print "usage: awk -v tol=T -v name=N -f csvcmp.awk ref out" \
		    > "/dev/stderr"
		exit 2
	}
	ref = ARGV[1]
	out = ARGV[2]
	nr = 0
	while ((r = getline line < ref) > 0)
		R[++nr] = line
	no = 0
	while ((r = getline line < out) > 0)
		O[++no] = line
	bad = 0
	ncell = 0
	nnum = 0
	if (R[1] != O[1]) {
		printf "%s: headers differ\n  ref: %s\n  out: %s\n", name,
		    R[1], O[1]
		exit 1
	}
	nh = csvsplit(R[1], H)
	if (nr != no)
		printf "%s: %d rows in ref, %d in out\n", name, nr - 1,
		    no - 1
	n = nr < no ? nr : no
	for (i = 2; i <= n; i++) {
		delete fa
		delete fb
		ka = csvsplit(R[i], fa)
		kb = csvsplit(O[i], fb)
		if (ka != kb) {
			printf "%s: row %d: %d fields in ref, %d in out\n",
			    name, i - 1, ka, kb
			bad++
			continue
		}
		for (j = 1; j <= ka; j++) {
			ncell++
			if (cellcmp(fa[j], fb[j]))
				continue
			if (++bad <= 5)
				printf "%s: row %d, column \"%s\":\n  ref: " \
				    "%s\n  out: %s\n", name, i - 1, H[j],
				    substr(fa[j], 1, 300), substr(fb[j], 1, 300)
		}
	}
	printf "%s: %d rows, %d cells, %d numbers, %d differ\n", name,
	    nr - 1, ncell, nnum, bad + (nr != no)
	exit bad > 0 || nr != no
}
