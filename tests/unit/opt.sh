# Unit tests of the command line: option numbers in and out of range
# (one line naming the option and the range, exit 1), and the options
# every tool has (--help, --version, --limit) with the caller's own.
t() {
	echo "# $*"
	${TL_VALGRIND:-} "$UNIT/t-opt" "$@"
	echo "exit $?"
}
for s in 0 9 -0 +7 " 3" "" abc 12x -1 10 99999999999999999999 \
    -99999999999999999999 0x10 "3 "; do
	t num -z "$s" 0 9
done
t num --count 9223372036854775807 0 max
t num --count 9223372036854775808 0 max
t num -n -9223372036854775808 min 0
t num -n 5 -3 max
for s in 0.5 1 0 -0 1e-3 "" abc 1.5x nan inf -inf 1e400 1.0000001 2; do
	t float -t "$s" 0 1
done
t float -w 1e300 0 huge
t float -w -1 0 huge
t float -w 0.25 -1.5 2.5e10
t getopt -a -b x --long=y --limit line=1k -- -a file
t getopt -ab1 --long y file1 file2
t getopt --help
t getopt --version
t getopt -c
t getopt -b
t getopt --long
t getopt --nope
t getopt --limit nope=1
t getopt
