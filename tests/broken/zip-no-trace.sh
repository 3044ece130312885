# An archive with no trace in it: a zip whose members are a directory, a
# text file and an empty .json (each file skipped with a warning), an
# empty zip, a tar of a text file. One line says so; status 1. A zip that
# has a trace beside such members is fine (tests/tl-parse/zip.sh).
ln -s "$TESTDATA/broken/notrace.zip" "$TESTDATA/broken/empty.zip" . || exit 1
printf 'notes\n' >notes.txt
tar cf notes.tar notes.txt || exit 1
for f in notrace.zip empty.zip notes.tar; do
	tl-parse $f >out.tsv
	echo "$f: exit $?, $(($(wc -l <out.tsv) - 1)) rows"
done
