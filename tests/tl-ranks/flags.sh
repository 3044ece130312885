# TraceLens's other flags: --trace_dir (rank{i}_trace.json), --agg_metrics
# with two statistics (the words up to the next option), --gpus_per_node
# 4 (every group within node 0: intra_node), --max_workers 1, and the
# flags that only load (accepted); --output_tsvs_dir alone. Then the join
# by hand with -a std,count -g 0 (no node columns) -t.
mkdir td
for r in 0 1 2 3; do
	cp "$TESTDATA/../tl-ranks/data/meta/rank$r.json" td/rank${r}_trace.json
done
"$TESTDATA"/../../scripts/tl-collective-report --trace_dir td \
    --world_size 4 --agg_metrics mean std --gpus_per_node 4 \
    --max_workers 1 --use_multiprocessing --detailed_analysis \
    --output_tsvs_dir tsv
echo "exit $?"
ls tsv
head -n 1 tsv/nccl_summary_implicit_sync.tsv | tr '\t' '\n'
cut -f 1,31 tsv/nccl_implicit_sync.tsv
for r in 0 1 2 3; do
	tl-parse td/rank${r}_trace.json | tl-ranks -m -e
done | awk 'NR == 1 || $1 != "rank"' >all.tsv
tl-ranks -a std,count -g 0 -t nccl_summary_implicit_sync all.tsv | cut -f 1-9
echo "exit $?"
tl-ranks -a mode all.tsv
echo "exit $?"
