# Compare two CSV files as pandas writes them (RFC 4180 quoting, "" inside
# quotes, fields may hold newlines), cell by cell, for the fidelity tests.
# A cell is split into numbers and the text between them (so the numbers
# inside "[{'name': ..., 'total_duration_us': np.float64(98.718)}]" count
# as numbers); the text must be equal, each number within a relative
# tolerance of the other. Columns named in skip (by the expected header)
# are not compared. POSIX awk.
#
#	awk -v tol=1e-6 -v skip='col,col' -v name=SHEET [-v report=cells] \
#	    -f csvcmp.awk expected.csv got.csv
#
# The report, by default: "NAME: ok (N rows)", or up to 5 differences,
# one per line, and "NAME: N differences". With report=cells: the first
# 5 differences, ref and out on lines of their own, then "NAME: R rows,
# C cells, N numbers, D differ"; a different header is reported alone.
# The exit status is 0, or 1 when the files differ, 2 on a usage error.
# With -v lib=1 it only defines its functions (parse, load, same, ...) for
# the script that follows it: awk -v lib=1 -f csvcmp.awk -f other.awk.

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

function abs(x) {
	return x < 0 ? -x : x
}

function near(a, b,    d, m) {
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

# Equal, numbers within tol; counts the numbers seen in nnum.
function same(a, b,    ta, ka, tb, kb, na, nb, i) {
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
			if (!near(ta[i] + 0, tb[i] + 0))
				return 0
		} else if (ta[i] != tb[i])
			return 0
	}
	return 1
}

function show(s) {
	gsub(/\n/, "\\n", s)
	return length(s) > 70 ? substr(s, 1, 67) "..." : s
}

function csvcmp() {
	if (ARGC != 3) {
		print "usage: awk [-v tol=T] [-v skip=C,C] [-v name=N] " \
		    "[-v report=cells] -f csvcmp.awk ref out" > "/dev/stderr"
		exit 2
	}
	cells = report == "cells"
	if (tol == "")
		tol = 1e-6
	if (name == "")
		name = ARGV[2]
	fe = ARGV[1]
	fg = ARGV[2]
	ne = load(fe)
	ng = load(fg)
	bad = 0
	ncell = 0
	nnum = 0
	if (cells && rec[fe, 1] != rec[fg, 1]) {
		printf "%s: headers differ\n  ref: %s\n  out: %s\n", name,
		    rec[fe, 1], rec[fg, 1]
		exit 1
	}
	if (ne != ng) {
		if (cells)
			printf "%s: %d rows in ref, %d in out\n", name,
			    ne - 1, ng - 1
		else
			printf "%s: %d rows expected, %d written\n", name,
			    ne - 1, ng - 1
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
		delete e
		delete g
		n1 = parse(rec[fe, r], e)
		n2 = parse(rec[fg, r], g)
		if (cells && n1 != n2) {
			printf "%s: row %d: %d fields in ref, %d in out\n",
			    name, r - 1, n1, n2
			bad++
			shown++
			continue
		}
		for (i = 1; i <= n1 || i <= n2; i++) {
			if (he[i] in skipped)
				continue
			ncell++
			if (same(e[i], g[i]))
				continue
			bad++
			if (shown++ >= 5)
				continue
			if (cells)
				printf "%s: row %d, column \"%s\":\n  ref: " \
				    "%s\n  out: %s\n", name, r - 1, he[i],
				    substr(e[i], 1, 300), substr(g[i], 1, 300)
			else
				printf "%s: row %d, \"%s\": expected \"%s\", " \
				    "got \"%s\"\n", name, r - 1, he[i],
				    show(e[i]), show(g[i])
		}
	}
	if (cells) {
		printf "%s: %d rows, %d cells, %d numbers, %d differ\n", name,
		    ne - 1, ncell, nnum, bad
		exit bad > 0
	}
	if (bad) {
		printf "%s: %d difference%s\n", name, bad, bad == 1 ? "" : "s"
		exit 1
	}
	printf "%s: ok (%d rows)\n", name, ne - 1
	exit 0
}

BEGIN {
	if (lib == "")
		csvcmp()
}
