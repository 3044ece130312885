# CSV (RFC 4180, as pandas writes it) to a tl-tsv(5) stream: fields may
# hold newlines inside quotes; \ TAB CR LF are escaped. POSIX awk.
# s with each c (one character) written as w: no gsub, whose
# replacement text treats backslashes differently in each awk.
function rep(s, c, w,    out, k) {
	out = ""
	while ((k = index(s, c)) > 0) {
		out = out substr(s, 1, k - 1) w
		s = substr(s, k + 1)
	}
	return out s
}
function emit(f) {
	f = rep(f, "\\", "\\\\")
	f = rep(f, "\t", "\\t")
	f = rep(f, "\r", "\\r")
	f = rep(f, "\n", "\\n")
	rec = rec (nf++ ? "\t" : "") f
}
{
	line = $0
	if (inq)
		field = field "\n"
	else {
		rec = ""
		nf = 0
		field = ""
	}
	i = 1
	n = length(line)
	while (i <= n) {
		c = substr(line, i, 1)
		if (inq) {
			if (c == "\"") {
				if (substr(line, i + 1, 1) == "\"") {
					field = field "\""
					i += 2
					continue
				}
				inq = 0
				i++
				continue
			}
			j = index(substr(line, i), "\"")
			if (j == 0) {
				field = field substr(line, i)
				i = n + 1
			} else {
				field = field substr(line, i, j - 1)
				i += j - 1
			}
			continue
		}
		if (c == "\"") {
			inq = 1
			i++
			continue
		}
		if (c == ",") {
			emit(field)
			field = ""
			i++
			continue
		}
		field = field c
		i++
	}
	if (!inq) {
		emit(field)
		print rec
	}
}
END {
	if (inq) {
		print FILENAME ": a quoted field does not end" > "/dev/stderr"
		exit 1
	}
}
