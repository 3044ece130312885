# Bad values. A time that is not an integer and a uid seen twice in one
# trace are located errors (status 1); uids out of order are fine. An id
# that is not an integer is a located warning and is ignored; an event
# with no ts_ns is left out, one with no or a negative dur_ns is taken as
# 0 ns long, and one whose ts_ns + dur_ns passes int64 ends at its
# largest, each counted (status 0).
cols() {
	awk -F'\t' -v OFS='\t' -v want="$1" -v uid="$2" '
	NR == 1 { n = split(want, w, ","); for (i = 1; i <= NF; i++) c[$i] = i }
	NR == 1 || $c["uid"] == uid {
		s = $c[w[1]]; for (j = 2; j <= n; j++) s = s OFS $c[w[j]]; print s }'
}
ln -s "$TESTDATA"/*.json . || exit 1
tl-parse tree-gpu.json >ev || exit 1
# line 7 is uid 3, the kernel K1; line 4 is uid 0, aten::mm
set_field() {	# line column value
	awk -F'\t' -v OFS='\t' -v l="$1" -v c="$2" -v v="$3" \
	    'NR == l { $c = v } { print }' ev
}
set_field 7 7 12x | tl-tree >/dev/null
echo "exit $?"
set_field 7 8 9223372036854775807 | tl-tree >/dev/null
echo "exit $?"
set_field 7 1 1 | tl-tree >/dev/null
echo "exit $?"
awk 'NR == 7 { k = $0; next } { print } END { print k }' ev | tl-tree 2>&1 |
    cols uid,parent,linked 3
echo "exit $?"
set_field 7 12 abc | tl-tree | cols uid,correlation,parent,linked 3
echo "exit $?"
set_field 7 7 "" | tl-tree | cols uid,ts_ns,parent,depth,linked 3
echo "exit $?"
set_field 4 8 -5 | tl-tree |
    cols uid,dur_ns,gpu_kernel_time_ns,subtree_kernel_time_ns 0
echo "exit $?"
