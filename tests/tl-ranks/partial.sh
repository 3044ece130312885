# A part of a run, as TraceLens reads one: ranks 0 and 1 of a world of
# 128 (distributedInfo, and groups of 128 ranks) read as a world of 2.
# A warning per rank; the instances hold the two ranks; the groups span
# 64 nodes of 2 GPUs (deviceProperties): inter_node, but the allreduce
# of group 1 (ranks 0 and 1) is intra_node; both ranks on node 0.
l=$(awk 'BEGIN { s = "[0"; for (i = 1; i < 128; i++) s = s ", " i
	print s "]" }')
mkdir ranks
for r in 0 1; do
	sed -e "s/\"\\[0, 1, 2, 3\\]\"/\"$l\"/" \
	    -e 's/"world_size": 4/"world_size": 128/' \
	    -e 's/"Group size": 4/"Group size": 128/' \
	    "$TESTDATA/../tl-ranks/data/meta/rank$r.json" >ranks/rank$r.json
done
"$TESTDATA"/../../scripts/tl-collective-report --world_size 2 \
    --trace_pattern 'ranks/rank*.json' --output_csvs_dir csv
echo "exit $?"
ls csv
awk -F, 'NR == 1 { print "collective_id", $NF; next }
	{ print $1, $NF }' csv/nccl_implicit_sync.csv
cat csv/straggler_summary.csv
