# Usage errors print the synopsis and exit 1 before any input is read.
tl-tree -x
echo "exit $?"
tl-tree --bogus
echo "exit $?"
tl-tree -p -u 3
echo "exit $?"
tl-tree -n 3
echo "exit $?"
tl-tree -p -n 3 -e 1,1,1
echo "exit $?"
tl-tree -g
echo "exit $?"
tl-tree -d 2
echo "exit $?"
tl-tree -p -d -1
echo "exit $?"
tl-tree -p -d x
echo "exit $?"
tl-tree -p -e 1,1
echo "exit $?"
tl-tree -u
echo "exit $?"
