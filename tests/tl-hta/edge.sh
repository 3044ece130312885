# The loading rules on small traces: two ranks without distributedInfo
# (both rank 0: the later file replaces the earlier, with a warning), a
# nanosecond trace (starts rounded up, ends down: a duration of -1 is
# kept), and an MTIA trace (distributedInfo.backend mtia:hccl, two steps:
# the window of HTA's MTIA path, a memcpy inside a step kept with its
# iteration and its tid as stream).
d=$TESTDATA/../tl-hta/data
for t in norank ns mtia; do
	echo "== $t"
	tl-hta --trace_dir "$d/$t" --output_csvs_dir "o/$t" \
	    --only loaded_events,temporal_breakdown 2>err
	echo "exit $?"
	sed "s|$d/||g" err
	cat "o/$t"/*.csv
done
