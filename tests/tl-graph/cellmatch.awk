# The cells of a TraceLens CSV (ref) found equal in ours (out): columns
# by name, rows by position, numbers within tol (1e-6 relative); "-" for a
# file we did not write. Prints "NAME: M of N cells (P%)"; exit 0 when all
# match. The CSV reading and the comparison are csvcmp.awk's:
#
#	awk -v lib=1 -f tests/lib/csvcmp.awk -f cellmatch.awk ref out

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
