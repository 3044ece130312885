# A full disk (/dev/full) as the output of every tool: one line naming the
# output, status 1 (tl-diff 2, as diff(1) has it). tl-xlsx writes into a
# device instead of renaming over it; it is given a symbolic link to
# /dev/full (which the old rename would only have replaced), and leaves
# neither a temporary file (in TMPDIR) nor a changed link behind. The
# output directory forms are in tests/tl-agg/devfull.sh,
# tests/tl-diff/devfull*.sh and tests/tl-roofline/devfull.sh.
ln -s "$TESTDATA/agg-small.json" . || exit 1
tl-parse agg-small.json >ev.tsv || exit 1
tl-tree ev.tsv >tree.tsv 2>/dev/null || exit 1
ln -s /dev/full full.xlsx
mkdir tmp
run() {	# the status, and the messages but the note on an unlinked kernel
	"$@" >/dev/full 2>err
	echo "$*: exit $?"
	grep -v 'not linked' err >&2
}
run tl-parse agg-small.json
run tl-tree ev.tsv
run tl-tree -p ev.tsv
run tl-agg ops tree.tsv
run tl-roofline -a none tree.tsv
run tl-diff tree.tsv tree.tsv
TMPDIR=$PWD/tmp
export TMPDIR
run tl-xlsx -o full.xlsx tree.tsv
ls -l full.xlsx | sed 's/.* full.xlsx/full.xlsx/'
ls tmp
