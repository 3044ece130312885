# tl-xdiff: bad input and bad options give one located line and exit 2.
t='	'
h="uid${t}cat${t}name${t}ts_ns${t}dur_ns${t}parent${t}depth"
printf '%s\n' "$h" "1${t}kernel${t}nvjet_a${t}10${t}5${t}${t}" >k.tsv
printf '%s\n' "$h" "1${t}cpu_op${t}aten::mm${t}10${t}5${t}${t}0" >nok.tsv
printf 'uid\tcat\tname\tts_ns\tdur_ns\n1\tkernel\tk\t1\t1\n' >events.tsv
run() {
	tl-xdiff "$@"
	echo "exit $?"
}
echo "== a side with no kernels"
run k.tsv nok.tsv
run nok.tsv k.tsv
echo "== not a tree stream"
run events.tsv k.tsv
echo "== the phase filter without phases"
run -f decode k.tsv k.tsv
run -f both k.tsv k.tsv
echo "== kernel classes"
printf 'operation\tmatch\nGEMM\tnvjet(\n' >bad.tsv
run -c bad.tsv k.tsv k.tsv
printf 'operation\tpattern\nGEMM\tnvjet\n' >bad.tsv
run -c bad.tsv k.tsv k.tsv
printf 'operation\tmatch\tphase\nGEMM\tnvjet\tlater\n' >bad.tsv
run -c bad.tsv k.tsv k.tsv
run -c nosuch.tsv k.tsv k.tsv
TL_SHARE=/nonexistent tl-xdiff k.tsv k.tsv
echo "exit $?"
echo "== options"
run -t nope k.tsv k.tsv
run -g x k.tsv k.tsv
run -r -1 k.tsv k.tsv
run -e 1 k.tsv k.tsv
run -T k.tsv k.tsv
run k.tsv
run - - 
