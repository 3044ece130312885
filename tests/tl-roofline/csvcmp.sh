# The comparison helper of the fidelity tests (tests/lib/csvcmp.awk, with
# the report tl-roofline's fidelity test uses): equal files pass; a number
# off by less than 1e-6 relative passes, also inside a string; one off by
# more fails, and so do different text, a different header and a missing
# row.
cmp=$TESTDATA/../lib/csvcmp.awk
printf 'a,b,c\nx,1.0,"[{\047t\047: np.float64(2.5)}, 3]"\ny,100,z\n' >ref.csv
cp ref.csv same.csv
printf 'a,b,c\nx,1.0000001,"[{\047t\047: np.float64(2.5000001)}, 3]"\ny,100,z\n' >close.csv
printf 'a,b,c\nx,1.00001,"[{\047t\047: np.float64(2.5)}, 3]"\ny,100,z\n' >far.csv
printf 'a,b,c\nx,1.0,"[{\047u\047: np.float64(2.5)}, 3]"\ny,100,z\n' >text.csv
printf 'a,b,d\nx,1.0,"[{\047t\047: np.float64(2.5)}, 3]"\ny,100,z\n' >head.csv
printf 'a,b,c\nx,1.0,"[{\047t\047: np.float64(2.5)}, 3]"\n' >short.csv
for f in same close far text head short; do
	awk -v name=$f -v tol=1e-6 -v report=cells -f "$cmp" ref.csv $f.csv
	echo "exit $?"
done
