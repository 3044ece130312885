# Ties the peers leave to chance, compared as sets: nccl_summary_long's
# groups with equal dur_sum (the four ranks' allgathers, 30 us each) and
# straggler_summary's ranks with equal total wait (0 and 3, 24 us). The
# summaries given in another order give the same tables: ties go by key,
# never by input order.
d=$TESTDATA/../tl-ranks/data/meta
for r in 0 1 2 3; do
	tl-parse "$d/rank$r.json" | tl-ranks -m -e >s$r.tsv
done
tl-ranks -C a -d at s0.tsv s1.tsv s2.tsv s3.tsv
tl-ranks -C b s3.tsv s1.tsv s0.tsv s2.tsv
for f in a/*; do
	cmp "$f" "b/${f#a/}" || echo "${f#a/}: differs"
done
echo "allgathers tied at 30 us (rank, dur_sum):"
awk -F'\t' 'NR > 1 && $4 == "_allgather_base" { print $1, $14 }' \
    at/nccl_summary_long.tsv | sort
echo "ranks tied at 24 us of wait:"
awk -F, 'NR > 1 && $2 == 24.0 { print $1 }' a/straggler_summary.csv | sort
