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

BEGIN {
	if (ARGC != 3) {
		print "usage: awk [-v tol=T] [-v name=N] -f cellmatch.awk " \
		    "ref out" > "/dev/stderr"
		exit 2
	}
	if (tol == "")
		tol = 1e-6
	if (name == "")
		name = ARGV[2]
	fe = ARGV[1]
	fg = ARGV[2]
	ne = load(fe)
	ng = (fg == "-") ? 0 : load(fg)
	nh = parse(rec[fe, 1], he)
	mh = ng ? parse(rec[fg, 1], hg) : 0
	for (i = 1; i <= mh; i++)
		col[hg[i]] = i
	total = 0
	ok = 0
	for (r = 2; r <= ne; r++) {
		delete e
		delete g
		parse(rec[fe, r], e)
		if (r <= ng)
			parse(rec[fg, r], g)
		for (i = 1; i <= nh; i++) {
			total++
			if (r > ng || !(he[i] in col))
				continue
			if (same(e[i], g[col[he[i]]]))
				ok++
		}
	}
	printf "%s: %d of %d cells (%.1f%%)\n", name, ok, total,
	    total ? 100 * ok / total : 100
	exit ok == total ? 0 : 1
}
