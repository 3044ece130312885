# Errors: a schema file with a line that does not parse (located), a
# schema file that is not there, a trace file given as it is, a table,
# two traces in one stream, bad options, and a write error.
here=$(dirname "$0")
tl-parse "$here/resnet-ops.json" | tl-tree >t.tsv 2>/dev/null || exit 1
run() {
	"$@" >out 2>err
	echo "exit $?"
	cat err
	[ -s out ] && echo "(output: $(wc -c <out) bytes)"
}
printf 'aten::mm(Tensor self, Tensor mat2) -> Tensor\n\naten::mm.out\n' >s1
printf 'aten::x(Tensor self -> Tensor\n' >s2
printf 'aten::x(Tensor self)\n' >s3
printf '(Tensor self) -> Tensor\n' >s4
echo "== schema files"
run tl-replay -s s1 t.tsv
run tl-replay -s s2 t.tsv
run tl-replay -s s3 t.tsv
run tl-replay -s s4 t.tsv
run tl-replay -s nonesuch t.tsv
echo "== not a tree or event stream"
cp "$here/resnet-ops.json" trace.json
run tl-replay trace.json
printf 'name\tcount\naten::mm\t3\n' >table.tsv
run tl-replay table.tsv
echo "== two traces in one stream"
tl-parse "$here/resnet-ops.json" "$here/bad-ops.json" | tl-tree 2>/dev/null >two.tsv
run tl-replay two.tsv
echo "== options"
run tl-replay -t 0 t.tsv
run tl-replay -u x t.tsv
run tl-replay -n '(' t.tsv
run tl-replay t.tsv t.tsv
echo "== a write error"
tl-replay t.tsv >/dev/full 2>err
echo "exit $?"
sed 's/^\(tl-replay: <stdout>\).*/\1: .../' err | tail -1
echo "== a directory that cannot be made"
: >file
run tl-replay -o file/dir t.tsv
