# Fidelity: on every PyTorch trace of ../shared/traces with a .ref
# directory of TraceLens's perf report (h100, mi300, mi210,
# torch_compile_triton; the other directories hold other peers' outputs)
# TraceLens's CSV files, tl-report with the flags the references were made
# with writes exactly the files TraceLens writes (no more, no fewer), every
# cell equal, numbers within 1e-6 relative (tests/lib/csvcmp.awk),
# unified_perf_summary.csv's perf-model columns included.
[ -d "$TRACES" ] || exit 77
report=$TESTDATA/../../scripts/tl-report
cmp=$TESTDATA/../lib/csvcmp.awk
status=0
for ref in "$TRACES"/h100/*.ref "$TRACES"/mi210/*.ref "$TRACES"/mi300/*.ref \
    "$TRACES"/torch_compile_triton/*.ref; do
	trace=${ref%.ref}.json.gz
	[ -f "$trace" ] || continue
	name=${ref#"$TRACES"/}
	name=${name%.ref}
	out=out/$name
	if ! "$report" --profile_json_path "$trace" --output_csvs_dir "$out" \
	    --enable_kernel_summary --short_kernel_study 2>/dev/null; then
		echo "$name: tl-report failed"
		status=1
		continue
	fi
	for f in "$ref"/*.csv; do
		s=${f##*/}
		if [ ! -f "$out/$s" ]; then
			echo "$name ${s%.csv}: not written"
			status=1
			continue
		fi
		awk -v name="$name ${s%.csv}" -f "$cmp" "$f" "$out/$s" ||
		    status=1
	done
	for f in "$out"/*; do
		[ -f "$ref/${f##*/}" ] && continue
		echo "$name ${f##*/}: written, but TraceLens writes none"
		status=1
	done
done
echo "exit $status"
