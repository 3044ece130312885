# The outputs of every script but tl-report (tests/tl-report/outputs.sh):
# tl-compare, tl-compare-reports, tl-report --inference, the rocprof and
# JAX reports, tl-collective-report, report.mk. A link planted at an
# output's name (the workbook, a file of a directory) is replaced, and
# the file it names is untouched; no scratch and no private file is left
# beside an output. A run that fails leaves no output, old outputs as
# they were. Runs of tl-compare-reports into one directory at once leave
# the files of one run, whole, not a splice of several.
s=$TESTDATA/../../scripts
TMPDIR=$PWD/tmp
export TMPDIR
mkdir tmp
cp "$TESTDATA/../../samples/bert-h100.json.gz" t.json.gz || exit 1
cp "$TESTDATA/agg-small.json" a.json || exit 1
echo precious >precious.txt
# plant NAME...: a link to precious.txt at each name.
plant() {
	for f; do
		mkdir -p "$(dirname "$f")"
		ln -s "$PWD/precious.txt" "$f"
	done
}
# check WHAT NAME...: each a file of its own; precious.txt as it was;
# nothing left in TMPDIR, no private file anywhere.
check() {
	what=$1 ok=1
	shift
	for f; do
		[ -f "$f" ] && [ ! -L "$f" ] ||
			{ echo "$what: $f: not a file of its own"; ok=0; }
	done
	[ "$(cat precious.txt)" = precious ] ||
		{ echo "$what: precious.txt written through"; ok=0; }
	echo precious >precious.txt
	[ -z "$(ls -A tmp)" ] || { echo "$what: scratch left"; ok=0; }
	[ -z "$(find . -name '.tl*')" ] ||
		{ echo "$what: left" $(find . -name '.tl*'); ok=0; }
	[ $ok -eq 0 ] || echo "$what: clean"
}

plant cmp.xlsx
"$s/tl-compare" -n a,b -o cmp.xlsx t.json.gz a.json 2>/dev/null
echo "tl-compare: exit $?"
check tl-compare cmp.xlsx

"$s/tl-report" --enable_kernel_summary --output_csvs_dir rt t.json.gz \
    2>/dev/null || exit 1
"$s/tl-report" --enable_kernel_summary --output_csvs_dir ra a.json \
    2>/dev/null || exit 1
plant cr.xlsx cr/gpu_timeline.csv cr/GEMM_intersect_b.csv
"$s/tl-compare-reports" rt ra --names a b -o cr.xlsx \
    --output_csvs_dir cr 2>/dev/null
echo "tl-compare-reports: exit $?"
check tl-compare-reports cr.xlsx cr/gpu_timeline.csv cr/GEMM_intersect_b.csv

plant inf.xlsx inf/ops_summary.csv inft/ops_summary.tsv
"$s/tl-report" --inference --profile_json_path t.json.gz -o inf.xlsx \
    --output_csvs_dir inf --output_tsvs_dir inft 2>/dev/null
echo "tl-report --inference: exit $?"
check "tl-report --inference" inf.xlsx inf/ops_summary.csv \
    inft/ops_summary.tsv

cp "$TESTDATA/rocprof-small.json" run_results.json || exit 1
plant rp.xlsx rpcsv/kernel_summary.csv
"$s/tl-report" run_results.json -o rp.xlsx 2>/dev/null
echo "rocprof report: exit $?"
"$s/tl-report" run_results.json --output_csvs_dir rpcsv 2>/dev/null
echo "rocprof report, CSV files: exit $?"
check "rocprof report" rp.xlsx rpcsv/kernel_summary.csv
if [ -f "$TRACES/pftrace/rocprofv3_synth_b.pftrace" ]; then
	cp "$TRACES/pftrace/rocprofv3_synth_b.pftrace" run.pftrace
	plant run_report.md
	"$s/tl-report" --pftrace_report hip_activity --trace_path \
	    run.pftrace --write_md -o act.xlsx 2>/dev/null
	echo "pftrace report: exit $?"
	check "pftrace report" act.xlsx run_report.md
fi

if [ -f "$TRACES/jax/jax_conv_minimal.xplane.pb" ]; then
	plant jax.xlsx jax/gpu_timeline.csv
	"$s/tl-report" --profile_path "$TRACES/jax/jax_conv_minimal.xplane.pb" \
	    -o jax.xlsx --output_csvs_dir jax 2>/dev/null
	echo "JAX report: exit $?"
	check "JAX report" jax.xlsx jax/gpu_timeline.csv
fi

mkdir ranks
cp "$TESTDATA"/../tl-ranks/data/meta/rank*.json ranks/ || exit 1
plant coll.xlsx ccsv/nccl_long.csv ctsv/nccl_long.tsv
"$s/tl-collective-report" --world_size 4 --trace_pattern 'ranks/rank*.json' \
    --output_xlsx_path coll.xlsx --output_tsvs_dir ctsv \
    --output_csvs_dir ccsv 2>/dev/null
echo "tl-collective-report: exit $?"
check tl-collective-report coll.xlsx ccsv/nccl_long.csv ctsv/nccl_long.tsv

mkdir mk
cp a.json mk/a.json
plant out/summary.xlsx out/a/report.log
make -s -f "$s/report.mk" TRACES=mk/a.json OUT=out 2>/dev/null
echo "report.mk: exit $?"
check report.mk out/summary.xlsx out/a/report.log out/a/a_perf_report.xlsx

# Failures: a report that is no report, a trace cut short.
mkdir bad
echo 'x,y' >bad/gpu_timeline.csv
printf 'a,b\n1,"2\n' >bad/ops_summary.csv
cp cr.xlsx cr.before
"$s/tl-compare-reports" rt bad -o cr.xlsx --output_csvs_dir cr2 2>/dev/null
echo "tl-compare-reports, a bad report: exit $?"
cmp -s cr.xlsx cr.before && echo "cr.xlsx as it was"
[ ! -e cr2 ] || [ -z "$(ls -A cr2)" ] && echo "cr2: empty"
check "tl-compare-reports, a bad report"
head -c 2000 ranks/rank2.json >cut.json
cp ranks/rank2.json rank2.json
cp cut.json ranks/rank2.json
"$s/tl-collective-report" --world_size 4 --trace_pattern 'ranks/rank*.json' \
    --output_xlsx_path coll2.xlsx --output_csvs_dir ccsv2 2>/dev/null
echo "tl-collective-report, a trace cut short: exit $?"
[ ! -e coll2.xlsx ] && echo "no coll2.xlsx"
[ ! -e ccsv2 ] || [ -z "$(ls -A ccsv2)" ] && echo "ccsv2: empty"
check "tl-collective-report, a trace cut short"
cp rank2.json ranks/rank2.json

# Four runs at once into one directory, two of each order of the reports.
"$s/tl-compare-reports" rt ra --names a b -o one.xlsx \
    --output_csvs_dir one 2>/dev/null || exit 1
"$s/tl-compare-reports" ra rt --names a b -o two.xlsx \
    --output_csvs_dir two 2>/dev/null || exit 1
for i in 1 2 3 4; do
	if [ $((i % 2)) -eq 1 ]; then
		set -- rt ra
	else
		set -- ra rt
	fi
	"$s/tl-compare-reports" "$@" --names a b -o at$i.xlsx \
	    --output_csvs_dir at 2>/dev/null &
done
wait
if diff -r one at >/dev/null || diff -r two at >/dev/null; then
	echo "runs at once: the files of one run"
else
	echo "runs at once: a splice"
fi
check "runs at once" at1.xlsx at2.xlsx at3.xlsx at4.xlsx
