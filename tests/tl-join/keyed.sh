# tl-join: keyed table comparison of hand-made ops tables (tl-agg ops): the
# outer join on the key (name), every column per tag, _diff and _pct for
# the numbers, the split per variant, and the exit status.
t='	'
cat >a.tsv <<EOF2
name${t}count${t}direct_kernel_time_us_sum${t}subtree_kernel_time_us_sum${t}categories${t}percent${t}cumulative_percent
aten::mm${t}10${t}100.5${t}100.5${t}GEMM${t}50${t}50
aten::add${t}4${t}20.25${t}20.25${t}elementwise${t}10.125${t}60.125
aten::gone${t}1${t}0${t}0${t}other${t}0${t}60.125
aten::same${t}2${t}5${t}${t}other${t}2.5${t}62.625
EOF2
cat >b.tsv <<EOF2
name${t}count${t}direct_kernel_time_us_sum${t}subtree_kernel_time_us_sum${t}categories${t}percent${t}cumulative_percent
aten::add${t}4${t}19.999${t}19.999${t}elementwise${t}9${t}9
aten::mm${t}12${t}90.5${t}90.5${t}GEMM${t}41${t}50
aten::new${t}3${t}7${t}7${t}other${t}3${t}53
aten::same${t}2${t}5${t}${t}other${t}2.5${t}55.5
EOF2
echo "== all"
tl-join a.tsv b.tsv
echo "exit $?"
echo "== summary, -n"
tl-join -t summary -n base,run a.tsv b.tsv
echo "exit $?"
for s in intersect only_baseline only_variant; do
	echo "== $s"
	tl-join -t $s -m count a.tsv b.tsv
	echo "exit $?"
done
echo "== -m and a third table, from the standard input"
tl-join -m count,direct_kernel_time_us_sum -t all a.tsv b.tsv - <b.tsv
echo "exit $?"
echo "== -o"
tl-join -o out -n x,y,z a.tsv b.tsv b.tsv
echo "exit $?"
ls out
tl-join -n x,y,z -t intersect_z a.tsv b.tsv b.tsv | cmp - out/intersect_z.tsv &&
	echo "intersect_z: the same"
echo "== a table against itself: 0; -q"
tl-join -q -n one,two a.tsv a.tsv
echo "exit $?"
tl-join -t summary -n one,two a.tsv a.tsv
echo "exit $?"
echo "== -e: same within the tolerance"
cat >c.tsv <<EOF2
name${t}count${t}direct_kernel_time_us_sum
aten::mm${t}10${t}100.5
aten::add${t}4${t}20.25
EOF2
sed 's/100\.5/100.52/' c.tsv >d.tsv
tl-join -k name -q c.tsv d.tsv
echo "exit $?"
tl-join -k name -q -e 0.05 c.tsv d.tsv
echo "exit $?"
echo "== -k: any key; a repeated key pairs in order"
cat >e.tsv <<EOF2
k1${t}k2${t}v
a${t}x${t}1
a${t}x${t}2
b${t}${t}3
EOF2
cat >f.tsv <<EOF2
v${t}k2${t}k1
10${t}x${t}a
30${t}${t}b
EOF2
tl-join -k k1,k2 e.tsv f.tsv
echo "exit $?"
echo "== exact decimals, and doubles for exponents"
cat >g.tsv <<EOF2
k${t}v
a${t}0.1
b${t}1e-3
c${t}-2.50
d${t}123456789012345678
EOF2
cat >h.tsv <<EOF2
k${t}v
a${t}0.3
b${t}3e-3
c${t}0
d${t}123456789012345679
EOF2
tl-join -k k g.tsv h.tsv
echo "exit $?"
