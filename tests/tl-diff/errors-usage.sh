# Usage errors print the synopsis and exit 2 (diff's trouble) before any
# input is read.
tl-diff
echo "exit $?"
tl-diff a
echo "exit $?"
tl-diff a b c
echo "exit $?"
tl-diff -x a b
echo "exit $?"
tl-diff --bogus a b
echo "exit $?"
tl-diff -o
echo "exit $?"
tl-diff -p -q a b
echo "exit $?"
tl-diff -T a b
echo "exit $?"
tl-diff -T -p -o d a b
echo "exit $?"
tl-diff -t nope a b
echo "exit $?"
tl-diff -e x a b
echo "exit $?"
tl-diff -e -1 a b
echo "exit $?"
tl-diff - -
echo "exit $?"
