# Count the entries of traceEvents (or of a bare top-level array) in each
# trace, independently of tl-parse: one line "NAME<TAB>COUNT" per trace,
# NAME as tl-parse names it (FILE, or ARCHIVE(MEMBER) for a zip member).
# Files are .json, .json.gz or .zip; what Python's json cannot read (a
# cut file, a member that is not JSON) is left out. Bytes that are not
# UTF-8 are read as U+FFFD, raw control characters are allowed, and NaN
# and Infinity are values, as for tl-parse.
import gzip
import json
import sys
import zipfile


def count(name, data):
	try:
		d = json.loads(data.decode('utf-8', 'replace'), strict=False)
	except (ValueError, RecursionError):
		return
	if isinstance(d, dict):
		e = d.get('traceEvents')
		n = len(e) if isinstance(e, list) else 0
	elif isinstance(d, list):
		n = len(d)
	else:
		return
	print('%s\t%d' % (name, n))


for f in sys.argv[1:]:
	if f.endswith('.zip'):
		with zipfile.ZipFile(f) as z:
			for m in z.infolist():
				if not m.is_dir():
					count('%s(%s)' % (f, m.filename), z.read(m))
	elif f.endswith('.gz'):
		with gzip.open(f) as g:
			count(f, g.read())
	else:
		with open(f, 'rb') as h:
			count(f, h.read())
