# Usage errors print one line (a bad option also the synopsis) and exit 1
# before any input is read.
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
tl-tree -p -n 99999999999999999999
echo "exit $?"
# --help: the synopsis on stdout, exit 0; --version: the name and the
# version.
tl-tree --help
echo "exit $?"
tl-tree --version | sed 's/ [0-9][0-9.]*$/ VERSION/'
