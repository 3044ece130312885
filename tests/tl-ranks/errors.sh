# Bad input: one line naming the rank and the file, a defined exit
# status, and nothing half-written in the output directory.
#  - the command line: no world size, two input modes, a pattern without
#    its one '*', a trace the pattern names missing, --gpus_per_node 0;
#  - a rank missing from the glob (exit 1, no output directory made);
#  - two files for one rank (TraceLens takes the first: a warning);
#  - a world size that disagrees with the files (distributedInfo): a
#    warning per rank, as TraceLens reads a part of a run so (ranks 0
#    and 1 of 4 as a world of 2);
#  - metadata that disagrees across the ranks of an instance
#    (TraceLens's "Metadata mismatch": exit 1, nothing written);
#  - a rank with fewer collectives than the others (a warning: the later
#    ids are shifted, as TraceLens has them);
#  - a trace without collectives (a counted warning);
#  - summaries that are not: two traces of one rank, a row before its
#    rank's trace row, an unknown record; a map input without a rank, or
#    a tree stream read as an event stream; a time beyond 2^62 ns.
rep=$TESTDATA/../../scripts/tl-collective-report
d=$TESTDATA/../tl-ranks/data/meta
run() {
	"$rep" "$@" >log 2>&1
	st=$?
	sed "s|$PWD/||g" log
	rm log
	echo "exit $st"
}
mkdir ranks
for r in 0 1 3; do cp "$d/rank$r.json" ranks/trace_rank$r.json; done
run --trace_glob 'ranks/*.json' --output_csvs_dir out
run --world_size 4 --trace_dir ranks --trace_glob 'ranks/*'
run --world_size 4 --trace_pattern 'ranks/trace_rank.json'
run --world_size 4 --trace_pattern 'ranks/*_rank*.json'
run --world_size 4 --trace_pattern 'ranks/trace_rank*.json'
run --world_size 4 --trace_glob 'ranks/*' --gpus_per_node 0
run --world_size 4 --trace_glob 'ranks/*.json' --output_csvs_dir out
ls -d out 2>&1
cp "$d/rank2.json" ranks/trace_rank2.json
cp "$d/rank2.json" ranks/trace_rank2b.json
run --world_size 4 --trace_glob 'ranks/*.json' --output_csvs_dir out
ls out | wc -l
run --world_size 2 --trace_glob 'ranks/*.json' --output_csvs_dir out2
ls out2 | wc -l
# rank 1's allreduce in Half: a mismatch on collective 0_0
sed 's/"Float"/"Half"/' "$d/rank1.json" >ranks/trace_rank1.json
run --world_size 4 --trace_glob 'ranks/trace_rank?.json' \
    --output_csvs_dir out3
ls -d out3 2>&1
cp "$d/rank1.json" ranks/trace_rank1.json
for r in 0 1 2 3; do
	tl-parse ranks/trace_rank$r.json | tl-ranks -m -e >s$r.tsv
done
# rank 3 without its last collective; rank 2 without any
awk -F'\t' -v n="$(grep -c '	coll	' s3.tsv)" \
    '$3 == "coll" && ++k == n { next } 1' s3.tsv >s3short.tsv
awk -F'\t' '$3 != "coll"' s2.tsv >s2none.tsv
tl-ranks -t straggler_summary s0.tsv s1.tsv s2none.tsv s3short.tsv
echo "exit $?"
# with its first collective left out, the ids shift and the allgather
# meets the allreduce: TraceLens's mismatch
awk -F'\t' '$3 == "coll" && !k++ { next } 1' s3.tsv >s3shift.tsv
tl-ranks s0.tsv s1.tsv s2.tsv s3shift.tsv >/dev/null
echo "exit $?"
tl-ranks -w 4 s0.tsv s1.tsv s2.tsv s3.tsv s1.tsv >/dev/null
echo "exit $?"
tail -n +3 s0.tsv >s0cut.tsv
head -n 1 s0.tsv | cat - s0cut.tsv >s0bad.tsv
tl-ranks s0bad.tsv >/dev/null
echo "exit $?"
sed 's/	coll	/	colt	/' s0.tsv >s0rec.tsv
tl-ranks s0rec.tsv >/dev/null
echo "exit $?"
tl-ranks -w 3 s0.tsv s1.tsv s2.tsv >/dev/null
echo "exit $?"
printf '%s\n' '{"traceEvents": []}' >norank.json
tl-parse norank.json | tl-ranks -m -e >/dev/null
echo "exit $?"
tl-parse norank.json | tl-tree | tl-ranks -m -e >/dev/null
echo "exit $?"
tl-parse norank.json | tl-ranks -m >/dev/null
echo "exit $?"
tl-parse ranks/trace_rank0.json ranks/trace_rank1.json | tl-ranks -m -e -R 1 >/dev/null
echo "exit $?"
tl-ranks -m -w 4 </dev/null
echo "exit $?"
# a time beyond 2^62 ns (146 years): left out of HTA's rows with a
# warning by the map, an error in the join (the kernel's own row)
printf '%s\n' '{"distributedInfo": {"rank": 0}, "traceEvents": [{"ph": "X",
"cat": "kernel", "name": "ncclKernel_X", "ts": 9000000000000000,
"dur": 5, "args": {"stream": 7, "correlation": 1}}]}' >far.json
tl-parse far.json | tl-ranks -m -e >far.tsv
echo "exit $?"
tl-ranks far.tsv
echo "exit $?"
ls -A
