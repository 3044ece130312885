# Usage errors of tl-rocprof and of tl-report's rocprofv3 reports: no
# report named, an unknown one, no -o, a bad value, an option of another
# report; a stream that is not tl-parse's; tl-report with an unknown
# pftrace report, a missing trace, and the Markdown flag of another
# report. Each a message (with the usage for a usage error), exit 1.
report=$TESTDATA/../../scripts/tl-report
try() {
	"$@" </dev/null >out 2>err
	echo "exit $?: $(head -n 1 err)"
}
try tl-rocprof
try tl-rocprof frobnicate -o d
try tl-rocprof memcpy
try tl-rocprof activity --kernel_summary_group bogus -o d
try tl-rocprof memcpy --kernel_details -o d
printf 'a\tb\n1\t2\n' >ab.tsv
try tl-rocprof memcpy -o d ab.tsv
tl-rocprof --version | sed 's/ .*//'
try "$report" --pftrace_report bogus --trace_path "$TESTDATA/rocprof-tiny.json"
try "$report" --pftrace_report hip_api --trace_path nosuch.pftrace
try "$report" --pftrace_report memory_copy --write_md \
    --trace_path "$TESTDATA/rocprof-tiny.json"
