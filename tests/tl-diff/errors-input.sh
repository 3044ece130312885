# Bad input is trouble (2), with one line: a file that is not there, an
# event stream where a tree stream is needed, a stream with no cpu_op (only
# GPU events), an empty one, two traces in one stream, a bad value, parents
# that make a cycle, a parent that is not in the tree.
# Traces with nothing in common are only different (1), with a note.
a=$TESTDATA/diff-conv-a.tsv
tl-diff no-such.tsv "$a"
echo "exit $?"
cut -f1-5 "$a" >ev.tsv
tl-diff ev.tsv "$a"
echo "exit $?"
awk -F'\t' -v OFS='\t' 'NR == 1 { print } $2 == "kernel" { $6 = ""; $7 = 0;
    print }' "$a" >noop.tsv
tl-diff "$a" noop.tsv
echo "exit $?"
printf 'uid\tcat\tname\tts_ns\tdur_ns\tparent\tdepth\n' >empty.tsv
tl-diff empty.tsv "$a"
echo "exit $?"
awk -F'\t' -v OFS='\t' 'NR == 1 { print; print "", "trace_file", "one",
    "", "", "", ""; next } { print } END { print "", "trace_file", "two",
    "", "", "", "" }' "$TESTDATA/diff-roots-a.tsv" >two.tsv
tl-diff two.tsv "$a"
echo "exit $?"
awk -F'\t' -v OFS='\t' 'NR == 3 { $4 = "12x" } { print }' "$a" >bad.tsv
tl-diff bad.tsv "$a"
echo "exit $?"
awk -F'\t' -v OFS='\t' 'NR == 2 { $6 = 2 } { print }' "$a" >cycle.tsv
tl-diff cycle.tsv "$a"
echo "exit $?"
awk -F'\t' -v OFS='\t' 'NR == 3 { $6 = 99 } { print }' "$a" >orphan.tsv
tl-diff orphan.tsv "$a"
echo "exit $?"
awk -F'\t' -v OFS='\t' 'NR > 1 { $3 = "other_" $3 } { print }' \
    "$TESTDATA/diff-roots-b.tsv" >other.tsv
tl-diff -t ops "$TESTDATA/diff-roots-a.tsv" other.tsv
echo "exit $?"
