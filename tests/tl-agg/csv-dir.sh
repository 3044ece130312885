# -C with -d: TraceLens's CSV files, and in the same pass the tables
# TraceLens has no sheet for, as streams, with exact times: the same as
# each table alone. -L, -R and -w apply then.
ln -s "$TESTDATA/agg-small.json" . || exit 1
tl-parse agg-small.json | tl-tree 2>/dev/null >tree.tsv || exit 1
tl-agg -C c -d d -L 5 tree.tsv 2>/dev/null
echo "exit $?"
ls c d
for t in idle_gaps launch_delays launch_delay_stats comm_exposure streams; do
	tl-agg -L 5 $t tree.tsv 2>/dev/null | cmp -s - d/$t.tsv &&
	    echo "$t: same"
done
tl-agg -C c2 tree.tsv 2>/dev/null
for f in c/*.csv; do
	cmp -s "$f" "c2/${f#c/}" || echo "${f#c/}: differs"
done
# -t: only the tables named, the same as without it; none else written.
tl-agg -C c3 -d d3 -L 5 -t idle_gaps,launch_delay_stats tree.tsv 2>/dev/null
echo "-t: exit $?"
ls d3
for t in idle_gaps launch_delay_stats; do
	cmp -s d/$t.tsv d3/$t.tsv && echo "-t $t: same"
done
tl-agg -d d4 -t ops,idle_gaps tree.tsv 2>/dev/null
ls d4
