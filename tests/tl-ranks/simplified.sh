# The simplified mode with collective metadata: data/meta without any
# Process Group Name (one stream a rank), so every group is "all" and an
# id is the position by start in the rank; the broadcast, which has no
# type, is an implicit-sync collective here (it is not in the normal
# mode, meta.sh), the all_to_allv is not, and goes to the all_to_allv
# tables; nothing of an instance is checked (id 3 is the allreduce of
# group [0, 1] on ranks 0 and 1 and of [2, 3] on ranks 2 and 3: no
# mismatch, the reference row is rank 0's).
mkdir ranks
for r in 0 1 2 3; do
	sed '/"Process Group Name"/d' "$TESTDATA/../tl-ranks/data/meta/rank$r.json" \
	    >ranks/rank$r.json
done
"$TESTDATA"/../../scripts/tl-collective-report --world_size 4 \
    --trace_pattern 'ranks/rank*.json' --output_csvs_dir csv
echo "exit $?"
for f in nccl_long nccl_implicit_sync nccl_summary_implicit_sync \
    nccl_all2allv straggler_summary; do
	echo "== $f"
	cat "csv/$f.csv"
done
