# Unit tests of the trace layer: event kinds, stream kinds, the reader;
# then the one message for each stream that is not the one expected.
${TL_VALGRIND:-} "$UNIT/t-trace" || exit 1
printf 'uid\tph\tcat\tname\n' >ev.tsv
printf 'uid\tph\tcat\tname\tparent\tdepth\n' >tree.tsv
printf '{\n "traceEvents": []\n}\n' >trace.json
printf 'uid,cat\n' >x.csv
printf 'name\tcount\n' >table.tsv
for f in ev.tsv tree.tsv trace.json x.csv table.tsv; do
	for k in tree event; do
		${TL_VALGRIND:-} "$UNIT/t-trace" expect $k $f
		echo "$k $f: exit $?"
	done
done
