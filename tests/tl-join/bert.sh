# tl-join on the tables tl-agg and tl-roofline write for the bert traces,
# h100 against mi300: each kind with its default key (the summary of the
# split), and the GPU timeline and the ops in full.
t=gaunernst_bert-small-uncased__1016001.json.gz
[ -f "$TRACES/mi300/$t" ] && [ -f "$TRACES/h100/$t" ] || exit 77
for p in h100 mi300; do
	tl-parse "$TRACES/$p/$t" | tl-tree >$p.tree.tsv 2>/dev/null || exit 1
	tl-agg -d $p $p.tree.tsv 2>/dev/null || exit 1
	tl-roofline -s GEMM $p.tree.tsv >$p/gemm.tsv 2>/dev/null || exit 1
	tl-roofline -s SDPA_fwd $p.tree.tsv >$p/sdpa.tsv 2>/dev/null ||
		exit 1
done
for f in h100/*.tsv; do
	f=${f#h100/}
	echo "== $f"
	tl-join -t summary h100/$f mi300/$f 2>&1
	echo "exit $?"
done
echo "== timeline"
tl-join -t all h100/timeline.tsv mi300/timeline.tsv
echo "== ops"
tl-join -m count,direct_kernel_time_us_sum -t intersect h100/ops.tsv \
    mi300/ops.tsv | cut -f 1-8
echo "== the GEMMs: name and every parameter both have"
tl-join -m kernel_time_ns_sum -t intersect h100/gemm.tsv mi300/gemm.tsv |
    cut -f 1-13
