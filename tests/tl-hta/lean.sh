# The four analyses the perf report asks for (--only of these alone) load
# without the CPU rows that have no correlation: their files are those
# of a run that loads every row (here with loaded_events asked too), on
# small traces (a dropped row the earliest, an unlinked kernel reading
# row 0; a launch and a sync without a correlation, which keep every
# row; the sync a kernel, its copies by the window idle intervals) and
# on every HTA trace.
# timeout: 600
d=$TESTDATA/../tl-hta/data
four=temporal_breakdown,idle_time_breakdown,comm_comp_overlap
four=$four,cuda_kernel_launch_stats
mkdir -p in
for t in "$d"/lean "$d"/poison "$d"/sync "$TRACES"/hta/*; do
	case $t in *.ref | */README) continue ;; esac
	n=${t##*/}
	n=${n%%.*}
	if [ -f "$t" ]; then
		mkdir -p "in/$n"
		ln -sf "$t" "in/$n/"
		t=in/$n
	fi
	tl-hta --trace_dir "$t" --output_csvs_dir "all/$n" \
	    --only "loaded_events,$four" 2>all.err
	a=$?
	tl-hta --trace_dir "$t" --output_csvs_dir "lean/$n" \
	    --only "$four" 2>lean.err
	l=$?
	rm -f "all/$n"/loaded_events_rank*.csv
	if [ $a -ne $l ] || ! cmp -s all.err lean.err ||
	    ! diff -r "all/$n" "lean/$n" >/dev/null; then
		echo "$n: differs"
		continue
	fi
	case $t in "$d"/*)
		echo "== $n: exit $l"
		sed "s|$d/||g" lean.err
		for f in "lean/$n"/*.csv; do
			echo "-- ${f##*/}"
			cat "$f"
		done ;;
	*)
		echo "== $n: the same" ;;
	esac
done
