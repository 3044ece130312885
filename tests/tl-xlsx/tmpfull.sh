# libxlsxwriter's temporary files in a TMPDIR that fills up (a file
# system of 100 KiB, in a mount namespace of our own; skipped where there
# is none): tl-xlsx says so and exits 1, with no workbook. (libxlsxwriter
# does not look at what its writes return; it zipped the parts cut short
# into a workbook Excel cannot open, and said nothing.) With room, the
# same stream makes a workbook.
command -v unshare >/dev/null 2>&1 || exit 77
unshare -rm true 2>/dev/null || exit 77
awk 'BEGIN { print "name\tcount"
	for (i = 0; i < 20000; i++) printf "row number %d\t%d\n", i, i }' >t.tsv
mkdir small
unshare -rm sh -c 'mount -t tmpfs -o size=100k tmpfs small || exit 77
TMPDIR=$PWD/small tl-xlsx -o x.xlsx t.tsv 2>err
echo "exit $?"
ls -A small' sh
[ $? -eq 77 ] && exit 77
sed 's/(in [^)]*)/(in DIR)/' err
ls
tl-xlsx -o y.xlsx t.tsv
echo "exit $?"
ls y.xlsx
