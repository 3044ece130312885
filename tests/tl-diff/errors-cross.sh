# -X: bad input and bad options give one located line and exit 2.
t='	'
h="uid${t}cat${t}name${t}ts_ns${t}dur_ns${t}parent${t}depth"
printf '%s\n' "$h" "1${t}kernel${t}nvjet_a${t}10${t}5${t}${t}" >k.tsv
printf '%s\n' "$h" "1${t}cpu_op${t}aten::mm${t}10${t}5${t}${t}0" >nok.tsv
printf 'uid\tcat\tname\tts_ns\tdur_ns\n1\tkernel\tk\t1\t1\n' >events.tsv
run() {
	tl-diff "$@"
	echo "exit $?"
}
echo "== a side with no kernels"
run -X k.tsv nok.tsv
run -X nok.tsv k.tsv
echo "== not a tree stream"
run -X events.tsv k.tsv
echo "== the phase filter without phases"
run -X -f decode k.tsv k.tsv
run -X -f both k.tsv k.tsv
echo "== kernel classes"
printf 'operation\tmatch\nGEMM\tnvjet(\n' >bad.tsv
run -X -c bad.tsv k.tsv k.tsv
printf 'operation\tpattern\nGEMM\tnvjet\n' >bad.tsv
run -X -c bad.tsv k.tsv k.tsv
printf 'operation\tmatch\tphase\nGEMM\tnvjet\tlater\n' >bad.tsv
run -X -c bad.tsv k.tsv k.tsv
run -X -c nosuch.tsv k.tsv k.tsv
TL_SHARE=/nonexistent tl-diff -X k.tsv k.tsv
echo "exit $?"
echo "== options"
run -X -t nope k.tsv k.tsv
run -X -g x k.tsv k.tsv
run -X -r -1 k.tsv k.tsv
run -X -e 1 k.tsv k.tsv
run -X -T k.tsv k.tsv
run -X k.tsv
run -X - - 
run -c x.tsv a b
run -f decode a b
run -g 1 a b
