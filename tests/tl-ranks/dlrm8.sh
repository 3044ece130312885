# Fidelity on dlrm8 (8 real ranks, ../shared/traces/multirank/dlrm8):
# every file TraceLens and HTA wrote, written again (no more, no fewer),
# every cell equal, numbers within 1e-6 relative (tests/lib/csvcmp.awk;
# the stragglers' list exactly): by tl-collective-report with the flags
# the references were made with, and by the stages by hand (the tree
# stream through tl-ranks -m, one rank at a time, then the join).
D=$TRACES/multirank/dlrm8
[ -d "$D" ] || exit 77
cmp=$TESTDATA/../lib/csvcmp.awk
check() {	# OUTDIR
	for f in "$D"/tracelens/*.csv "$D"/hta/*.csv; do
		s=${f##*/}
		awk -v tol=1e-6 -v name="$1 ${s%.csv}" -f "$cmp" "$f" "$1/$s"
	done
	cmp "$D/hta/hta_potential_stragglers.txt" \
	    "$1/hta_potential_stragglers.txt" && echo "$1 stragglers: ok"
	for f in "$1"/*; do
		[ -f "$D/tracelens/${f##*/}" ] || [ -f "$D/hta/${f##*/}" ] ||
			echo "$1 ${f##*/}: written, but the peers write none"
	done
}
"$TESTDATA"/../../scripts/tl-collective-report --trace_glob "$D/worker*.json.gz" \
    --rank_regex 'worker(?P<rank>\d+)' --world_size 8 \
    --output_csvs_dir report
echo "exit $?"
check report
for r in 0 1 2 3 4 5 6 7; do
	tl-parse "$D"/worker${r}_*.json.gz |
	    tl-tree 2>/dev/null | tl-ranks -m >rank$r.tsv || echo "rank $r failed"
done
tl-ranks -w 8 -C stages rank*.tsv
echo "exit $?"
check stages
