# Events left out by -x or -c are passed over without being taken apart
# when they are plain; what comes out is what reading each whole gives:
# a duplicate "cat" (the last wins), a missing or non-string "ph" (skipped
# with a warning, not left out), escapes, non-ASCII and invalid UTF-8, and
# malformed JSON inside a left-out event (an error, as anywhere).
cd "$TESTDATA" || exit 1
echo '# -x a'
tl-parse -v -x a leftout.json 2>&1 | cut -f1-4
echo '# -c b'
tl-parse -v -c b leftout.json 2>&1 | cut -f1-4
echo '# -x a, a bad literal in a left-out event'
out=$(tl-parse -x a leftout-bad.json 2>&1)
echo "exit $?"
printf '%s\n' "$out" | cut -f1-4
