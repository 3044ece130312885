# A write error is trouble in -K, -K -T and -X too (tl-join,
# tl-cmpreport, tl-xdiff): status 2; a file of -o dir is written whole
# under another name, then renamed over what was there.
t='	'
printf 'type\ttime_ms\tpercent\nbusy_time\t1\t100\n' >a.tsv
tl-diff -K -n a,b a.tsv a.tsv >/dev/full
echo "exit $?"
mkdir d && ln -s /dev/full d/all.tsv
tl-diff -K -n a,b -o d a.tsv a.tsv
echo "exit $?"
! [ -L d/all.tsv ] && echo "d/all.tsv replaced"
mkdir r s o
printf 'type,time ms,percent\nbusy_time,1,100\n' >r/gpu_timeline.csv
cp r/gpu_timeline.csv s/
ln -s /dev/full o/gpu_timeline.csv
tl-diff -K -T -S gpu_timeline -o o r s
echo "exit $?"
! [ -L o/gpu_timeline.csv ] && echo "o/gpu_timeline.csv replaced"
h="uid${t}cat${t}name${t}ts_ns${t}dur_ns${t}parent${t}depth"
printf '%s\n' "$h" "1${t}kernel${t}nvjet_a${t}10${t}5${t}${t}" >k.tsv
tl-diff -X k.tsv k.tsv >/dev/full
echo "exit $?"
