# Compare two CSV files as pandas writes them (RFC 4180 quoting, fields
# may hold newlines), cell by cell: numbers, alone or inside a cell (a
# tuple, a list of dicts), must agree within a relative tolerance; all
# other text must be equal. POSIX awk.
#
#	awk -v tol=1e-6 -v skip='col,col' -v name=SHEET -f csvcmp.awk \
#	    expected.csv got.csv
#
# Prints "NAME: ok (N rows)" or up to 5 differences, one per line, and
# "NAME: N cells differ"; the exit status is 0, or 1 when they differ.
# Columns named in skip (by the expected header) are not compared.

function parse(s, out,    n, i, c, f, q) {
	n = 0
	f = ""
	q = 0
	for (i = 1; i <= length(s); i++) {
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

function isnum(s) {
	return s ~ /^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/
}

function near(a, b,    x, y, d, m) {
	x = a + 0
	y = b + 0
	if (x == y)
		return 1
	d = x - y
	if (d < 0)
		d = -d
	m = x < 0 ? -x : x
	if ((y < 0 ? -y : y) > m)
		m = y < 0 ? -y : y
	return d <= tol * m
}

# Equal, numbers within tol: split both into number and text tokens.
function same(a, b,    re, ta, tb, na, nb) {
	if (a == b)
		return 1
	if (isnum(a) && isnum(b))
		return near(a, b)
	re = "-?[0-9]+(\\.[0-9]*)?([eE][-+]?[0-9]+)?"
	while (a != "" || b != "") {
		na = match(a, re)
		ta = na ? substr(a, RSTART, RLENGTH) : ""
		pa = na ? substr(a, 1, RSTART - 1) : a
		a = na ? substr(a, RSTART + RLENGTH) : ""
		nb = match(b, re)
		tb = nb ? substr(b, RSTART, RLENGTH) : ""
		pb = nb ? substr(b, 1, RSTART - 1) : b
		b = nb ? substr(b, RSTART + RLENGTH) : ""
		if (pa != pb || (na == 0) != (nb == 0))
			return 0
		if (na && !near(ta, tb))
			return 0
	}
	return 1
}

function show(s) {
	gsub(/\n/, "\\n", s)
	return length(s) > 70 ? substr(s, 1, 67) "..." : s
}

BEGIN {
	if (tol == "")
		tol = 1e-6
	if (name == "")
		name = ARGV[2]
	fe = ARGV[1]
	fg = ARGV[2]
	ne = load(fe)
	ng = load(fg)
	bad = 0
	if (ne != ng) {
		printf "%s: %d rows expected, %d written\n", name, ne - 1,
		    ng - 1
		bad++
	}
	nh = parse(rec[fe, 1], he)
	mh = parse(rec[fg, 1], hg)
	ns = split(skip, sk, ",")
	for (i = 1; i <= ns; i++)
		skipped[sk[i]] = 1
	for (i = 1; i <= nh || i <= mh; i++)
		if (he[i] != hg[i]) {
			printf "%s: column %d: expected \"%s\", got \"%s\"\n",
			    name, i, he[i], hg[i]
			bad++
		}
	shown = 0
	for (r = 2; r <= ne && r <= ng; r++) {
		n1 = parse(rec[fe, r], e)
		n2 = parse(rec[fg, r], g)
		for (i = 1; i <= n1 || i <= n2; i++) {
			if (he[i] in skipped)
				continue
			if (same(e[i], g[i]))
				continue
			bad++
			if (shown++ < 5)
				printf "%s: row %d, \"%s\": expected \"%s\", " \
				    "got \"%s\"\n", name, r - 1, he[i],
				    show(e[i]), show(g[i])
		}
	}
	if (bad) {
		printf "%s: %d difference%s\n", name, bad, bad == 1 ? "" : "s"
		exit 1
	}
	printf "%s: ok (%d rows)\n", name, ne - 1
	exit 0
}
