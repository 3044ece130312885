# The fuzz targets' regression driver replays every corpus: each input of
# tests/fuzz/corpus/NAME/ through tests/fuzz/replay-NAME (built by make
# check with the normal compiler), one line per target with the count.
cd "$TESTDATA/../fuzz" || exit 1
for d in corpus/*/; do
	d=${d%/}
	./replay-"${d#corpus/}" "$d" || echo "$d: replay failed: $?"
done
