# Constant memory: 200000 rows of 6 columns (1.2 million cells) take no
# more memory than 20 rows (GNU time's maximum resident set size).
# (A sanitized build's allocator keeps freed memory, and valgrind's is
# its own: skip there.)
command -v /usr/bin/time >/dev/null 2>&1 || exit 77
[ -n "${TL_SANITIZED:-}${TL_VALGRIND:-}" ] && exit 77
gen() {
	awk -v n="$1" 'BEGIN { print "uid\tname\tts_ns\tdur_ns\tvalue\tnote"
		for (i = 1; i <= n; i++)
			print i "\tkernel_" i % 97 "\t" 1751410836000 + i * 7 \
			    "\t" i % 1000 "\t" i / 3 "\tsome text " i }'
}
gen 200000 >big.tsv
gen 20 >small.tsv
/usr/bin/time -f %M -o big.kb tl-xlsx -o big.xlsx big.tsv || exit 1
/usr/bin/time -f %M -o small.kb tl-xlsx -o small.xlsx small.tsv || exit 1
big=$(cat big.kb) small=$(cat small.kb)
if [ "$big" -lt $((small + 4096)) ]; then
	echo "constant: within 4 MB"
else
	echo "grew: $small KB for 20 rows, $big KB for 200000"
fi
