# Options: -a puts the unlinked kernel on the timeline; -m splits idle
# time into micro and macro; -s and -b set the short-kernel threshold and
# bins; -n keeps the top rows; -k keeps the rows TraceLens drops; -R, -L
# and -w set the outlier and kernel-wait thresholds of the HTA tables;
# -T computes as TraceLens does. The TraceLens table names work too.
ln -s "$TESTDATA/agg-small.json" . || exit 1
tl-parse agg-small.json | tl-tree 2>/dev/null >tree.tsv ||
    exit 1
tl-agg -a timeline tree.tsv
tl-agg -m 50 gpu_timeline tree.tsv
tl-agg -s 5 -b 4 short_histogram tree.tsv
tl-agg -s 5 -n 2 short_kernels tree.tsv
tl-agg -k short_kernels tree.tsv
tl-agg -k coll_analysis tree.tsv
tl-agg -R 4 -L 30 launch_delays tree.tsv | cut -f1,6-
tl-agg -R 4 -L 30 launch_delay_stats tree.tsv | cut -f1,2,12,13
tl-agg -w 6 idle_gaps tree.tsv
tl-agg -T ops tree.tsv
