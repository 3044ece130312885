# Decompression bombs in gzip and in zip (the only member), about 1 MB
# each (made here by tests/lib/bomb.py, never stored): 1025 MiB of spaces,
# which passes the limit on the ratio of decompressed to compressed bytes
# (--limit ratio, see tl(7)) in its first 64 MiB; and 1 GiB of "[" (in gzip
# with a trailer that claims 1 MiB), which ends at the nesting limit.
# Each a located message, status 1, in little time and memory (GNU time's
# maximum resident set).
command -v python3 >/dev/null 2>&1 || exit 77
b=$TESTDATA/../lib/bomb.py
python3 "$b" gz ' ' 1025 spaces.json.gz || exit 1
python3 "$b" gz '[' 1024 brackets.json.gz '' 1048576 || exit 1
python3 "$b" zip '[' 1024 brackets.zip || exit 1
python3 "$b" zip ' ' 1025 spaces.zip || exit 1
# tl-parse FILE >FILE.tsv, saying whether it stayed under 64 MB (not
# measured under the sanitizers or valgrind, whose memory it would be),
# then the columns COLS of its rows.
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
	cut -f"$2" "$1.tsv"
}
parse spaces.json.gz 1-4
parse brackets.json.gz 1-4
parse brackets.zip 1-4,21
parse spaces.zip 1-4,21
