# Two streams per rank and two profiler steps (data/steps, 2 ranks): the
# normal mode, every kernel in Unknown_Group, no collective of a known
# type, so nccl_implicit_sync and its summary are one empty line each and
# there is no straggler_summary; HTA loads the first step only (the last
# is dropped, as the run has two step names): rank 0's kernels in step 1
# span 1100-1950 us, computation 300 us, idle 200 us; its stragglers are
# taken from step 1 (the SendRecv kernel, whose duration varies most).
# The map's summary of rank 1 (from the event stream) shows both variants.
d=$TESTDATA/../tl-ranks/data/steps
for r in 0 1; do
	tl-parse "$d/rank$r.json" | tl-ranks -m -e >rank$r.tsv
	echo "rank $r: exit $?"
done
cut -f 1,3- rank1.tsv
tl-ranks -w 2 -C csv rank1.tsv rank0.tsv
echo "exit $?"
for f in csv/*; do
	echo "== ${f#csv/}"
	cat "$f"
done
