# Bad XPlane input: a truncated file, a length past the end, a wire type
# that does not match the field (each a located message, exit 1); event
# and stat metadata ids with no entry, a stat value of an unknown type, a
# ref_value with no entry, an HLO module that does not parse, a CPU-only
# profile (counted warnings, exit 0); planes with no lines (no rows).
cd "$TESTDATA/xplane" || exit 1
for f in truncated pastend wiretype nometa badhlo cpuonly nolines; do
	tl-parse $f.xplane.pb >"$OLDPWD/out"
	echo "$f: exit $?, $(($(wc -l <"$OLDPWD/out") - 2)) rows"
done
tl-parse nometa.xplane.pb | cut -f 1-8
