# Forward/backward links (spec 2.6): in each sequence number group with an
# autograd::engine::evaluate_function: event (the first one is B), the
# forward event is the latest one not on B's thread. A group without one
# on another thread, or without B, links nothing.
cols() {
	awk -F'\t' -v OFS='\t' -v want="$1" '
	NR == 1 { n = split(want, w, ","); for (i = 1; i <= NF; i++) c[$i] = i }
	{ s = $c[w[1]]; for (j = 2; j <= n; j++) s = s OFS $c[w[j]]; print s }'
}
ln -s "$TESTDATA"/*.json . || exit 1
tl-parse tree-fwdbwd.json | tl-tree >out || exit 1
cols uid,name,tid,seq,parent,fwd_uid,bwd_uids <out
