# Every table, as a stream, of a small hand-made trace (agg-small.json):
# nested launchers (aten::layer_norm: direct against subtree time),
# "execute" passed over on the way to the launcher, a launch with no
# cpu_op above it, a driver launch (its kernel becomes a synthetic op in
# "unified"), a memcpy and a memset, an unlinked kernel, two collectives
# (one without dtype: left out, and counted), short kernels without a
# parent op's arguments (left out, and counted), a kernel name with a
# comma, one with quotes and one with a non-ASCII letter.
ln -s "$TESTDATA/agg-small.json" . || exit 1
tl-parse agg-small.json | tl-tree 2>/dev/null >tree.tsv ||
    exit 1
for t in timeline categories ops unique_args unified kernels \
    short_kernels short_histogram collectives idle_gaps launch_delays \
    launch_delay_stats comm_exposure streams; do
	echo "== $t"
	tl-agg $t tree.tsv
	echo "exit $?"
done
