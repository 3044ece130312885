# An output that is a device or a FIFO is written into, not replaced by a
# rename: /dev/stdout into a pipe, a FIFO. A symbolic link, to a file or
# to nothing, is replaced by the workbook, and what it names is left as
# it is (a link planted in a shared directory cannot make tl-xlsx
# overwrite another file). The workbook is that of a plain output
# (the same members, but the time it was made), and no temporary file is
# left in TMPDIR. (/dev/full: tests/broken/devfull.sh.)
command -v python3 >/dev/null 2>&1 || exit 77
printf 'a\tb\n1\t2\n' >t.tsv
# Two workbooks are the same: the same members, with the same bytes, but
# for the times they hold.
samebook() {
	python3 - "$@" <<'PY'
import re, sys, zipfile
def members(f):
	with zipfile.ZipFile(f) as z:
		return {n: re.sub(rb'<dcterms:(created|modified)[^<]*<',
		    b'', z.read(n)) for n in z.namelist()}
sys.exit(members(sys.argv[1]) != members(sys.argv[2]))
PY
}
mkdir tmp
TMPDIR=$PWD/tmp
export TMPDIR
tl-xlsx -o plain.xlsx t.tsv || exit 1
{ tl-xlsx -o /dev/stdout t.tsv; echo $? >st; } | cat >piped.xlsx
echo "stdout: exit $(cat st)"
samebook plain.xlsx piped.xlsx && echo "stdout: same workbook"
mkfifo fifo
cat fifo >fromfifo.xlsx &
tl-xlsx -o fifo t.tsv
echo "fifo: exit $?"
wait
samebook plain.xlsx fromfifo.xlsx && echo "fifo: same workbook"
: >target.xlsx
ln -s target.xlsx link.xlsx
ln -s new.xlsx dangling.xlsx
tl-xlsx -o link.xlsx t.tsv
echo "link: exit $?"
tl-xlsx -o dangling.xlsx t.tsv
echo "dangling: exit $?"
for f in link dangling; do
	[ -L $f.xlsx ] && echo "$f.xlsx is still a link"
	samebook plain.xlsx $f.xlsx && echo "$f.xlsx: same workbook"
done
echo "target.xlsx: $(wc -c <target.xlsx) bytes"
[ -e new.xlsx ] || echo "new.xlsx: not made"
ls tmp
