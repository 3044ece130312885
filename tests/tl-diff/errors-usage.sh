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
echo "== the modes that are programs now"
tl-diff -k name a b
echo "exit $?"
tl-diff -n a,b a b
echo "exit $?"
tl-diff -g 1 a b
echo "exit $?"
tl-diff -K -X a b
echo "exit $?"
tl-diff -K -p a b
echo "exit $?"
tl-diff -K -T -q -o d a b
echo "exit $?"
tl-diff -X -e 1 a b
echo "exit $?"
echo "== --help"
for p in tl-diff tl-join tl-cmpreport tl-xdiff; do
	$p --help
	echo "exit $?"
done
