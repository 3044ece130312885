# Usage errors print the synopsis (or a message) and exit 1 before any
# input is read.
tl-agg
echo "exit $?"
tl-agg nosuch
echo "exit $?"
tl-agg -x ops
echo "exit $?"
tl-agg --bogus ops
echo "exit $?"
tl-agg ops -b
echo "exit $?"
tl-agg -b 0 ops
echo "exit $?"
tl-agg -s -1 ops
echo "exit $?"
tl-agg -m x ops
echo "exit $?"
tl-agg -n 1.5 short_kernels
echo "exit $?"
tl-agg -C a -d b -L x
echo "exit $?"
tl-agg -C a -L 5
echo "exit $?"
ls
tl-agg -t idle ops
echo "exit $?"
tl-agg -d d -t idle_gaps,nosuch
echo "exit $?"
tl-agg -d d -t overlap </dev/null
echo "exit $?"
tl-agg launch_stats </dev/null
echo "exit $?"
tl-agg --help | sed 1q
tl-agg --version | sed 's/ .*//'
echo "exit $?"
