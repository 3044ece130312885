# Decompression bombs in gzip, about 1 MB each (made here by
# tests/lib/bomb.py, never stored): 1025 MiB of spaces, which passes the
# limit on the ratio of decompressed to compressed bytes (--limit ratio,
# see tl(7)) once past 1 GiB; and 1 GiB of "[", whose trailer claims
# 1 MiB, which ends at the nesting limit. Each a located message, status
# 1, in little time and memory (GNU time's maximum resident set).
command -v python3 >/dev/null 2>&1 || exit 77
b=$TESTDATA/../lib/bomb.py
python3 "$b" gz ' ' 1025 spaces.json.gz || exit 1
python3 "$b" gz '[' 1024 brackets.json.gz '' 1048576 || exit 1
# tl-parse FILE >FILE.tsv, saying whether it stayed under 64 MB (not
# measured under the sanitizers or valgrind, whose memory it would be).
parse() {
	if command -v /usr/bin/time >/dev/null 2>&1 &&
	    [ -z "${TL_SANITIZED:-}${TL_VALGRIND:-}" ]; then
		/usr/bin/time -f %M -o kb tl-parse "$1" >"$1.tsv"
		st=$?
		kb=$(tail -n 1 kb)
		[ "$kb" -lt 65536 ] && kb="under 64 MB" || kb="$kb KB"
	else
		tl-parse "$1" >"$1.tsv"
		st=$?
		kb="under 64 MB"	# not measured
	fi
	echo "$1: $(($(wc -c <"$1") / 1024)) KB, exit $st, $kb"
	cut -f1-4 "$1.tsv"
}
for f in spaces brackets; do
	parse $f.json.gz
done
