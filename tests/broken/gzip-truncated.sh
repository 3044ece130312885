# A .json.gz cut short: in its header, in the compressed data, and in its
# 8-byte trailer (all the JSON inflates, the check sums are missing); and
# damaged: a flipped byte in the data, a wrong CRC. Each: the events
# inflated before the damage are written, then one line naming the file,
# and status 1.
z=$TESTDATA/broken/cut.json.gz
n=$(wc -c <"$z")
head -c 5 "$z" >header.json.gz
head -c 200 "$z" >data.json.gz
head -c $((n - 4)) "$z" >trailer.json.gz
{
	head -c 40 "$z"
	printf '\377'
	tail -c +42 "$z"
} >flipped.json.gz
{
	head -c $((n - 8)) "$z"
	printf '\377'
	tail -c 7 "$z"
} >crc.json.gz
for f in header data trailer flipped crc; do
	tl-parse $f.json.gz >$f.tsv
	echo "$f: exit $?, $(awk -F'\t' 'NR > 1 && $1 != ""' $f.tsv | wc -l) events"
done
cut -f1-4 data.tsv
