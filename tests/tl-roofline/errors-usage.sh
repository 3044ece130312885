# Usage errors print the synopsis (or one line) and exit 1 before any
# input is read: the operand does not exist, and stdin is not read.
# --help and --version answer on stdout, exit 0.
TL_SHARE=nowhere
export TL_SHARE
for args in "-x" "--bogus" "-a H100 -f x.tsv" "-s GEMM -c dir" "-s Gemm" \
    "-l x.tsv" "-l -t" "-a nosuch" "-s GEMM -p" "-l -p" "-L -t" "-L -l" \
    "-E" "-K -t"; do
	echo "# $args"
	tl-roofline $args no-such.tsv
	echo "exit $?"
done
for args in "-a" "-f" "-s" "-c" "--arch"; do
	echo "# $args"
	tl-roofline $args
	echo "exit $?"
done
[ ! -e dir ] || echo "dir made"
# --help: the synopsis on stdout; --version.
tl-roofline --help
echo "exit $?"
tl-roofline --version | sed 's/ [0-9.]*$/ VERSION/'
echo "exit $?"
