# Collectives with their metadata (data/meta: 4 ranks, 2 GPUs a node,
# made by data/gen.py): allreduce, _allgather_base, all_to_allv with
# variable splits and a broadcast in process group 0 (ranks 0-3), an
# allreduce in groups 1 (ranks 0, 1) and 2 (ranks 2, 3); a duration of
# 33.5 us on rank 2, so every time column is float. The normal mode:
# ids GROUP_INDEX; the broadcast (no type) is in no implicit-sync table;
# bandwidths with NCCL's factors (4 MiB allreduce in 33.5 us: 116.6 GB/s
# algo, x 3/2 bus); node_span intra_node for groups 1 and 2 (the node
# count from deviceProperties); the all_to_allv tables and the heatmap.
# Every table, every file, checked by hand against the rules of
# tl-ranks(1): e.g. the all_to_allv moves 0.0370 MiB in a wall time of
# 29 us (first start 1400, last end 1429), size_imbalance 0.015625 MiB
# over the mean 0.00925 MiB = 1.688; rank 2 arrives last 3 times of 4.
d=$TESTDATA/../tl-ranks/data/meta
"$TESTDATA"/../../scripts/tl-collective-report --world_size 4 \
    --trace_pattern "$d/rank*.json" --all2allv_heatmap \
    --output_csvs_dir csv --output_tsvs_dir tsv
echo "exit $?"
for f in csv/*; do
	echo "== ${f#csv/}"
	cat "$f"
done
ls tsv
