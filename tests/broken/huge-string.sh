# A 100 MB string (with an escape at its end) comes through whole, and
# tl-tree reads the 100 MB field back. The input is made here, never
# stored.
{
	printf '{"traceEvents": [{"ph": "X", "name": "'
	head -c 100000000 /dev/zero | tr '\0' a
	printf '\\u00e9", "ts": 1.5, "args": {"k": "v"}}, '
	printf '{"ph": "X", "name": "after", "ts": 2}]}'
} >huge.json || exit 1
tl-parse huge.json >huge.tsv
echo "exit $?"
# The name is 100000000 a's and an e-acute (2 bytes), then LF.
cut -f4 huge.tsv | sed -n 3p | wc -c
tr -s a <huge.tsv | awk -F'\t' 'NR > 2 { print $1, $2, $4, $7, $19 }'
rm huge.json
tl-tree huge.tsv | tr -s a | cut -f1,4,21,22
echo "exit $?"
