# tl-xdiff -c: the user's rules come before the shipped ones; a name no rule
# matches is "Other".
t='	'
h="uid${t}cat${t}name${t}ts_ns${t}dur_ns${t}parent${t}depth"
printf '%s\n' "$h" "1${t}kernel${t}my_fancy_kernel${t}10${t}5000${t}${t}" \
    "2${t}kernel${t}nvjet_a${t}20${t}1000${t}${t}" \
    "3${t}kernel${t}who_knows${t}30${t}10${t}${t}" >a.tsv
printf '%s\n' "$h" "1${t}kernel${t}my_fancy_kernel${t}10${t}3000${t}${t}" \
    "2${t}kernel${t}nvjet_b${t}20${t}1000${t}${t}" >b.tsv
tl-xdiff a.tsv b.tsv >out.tsv
echo "exit $?"
cut -f 1-7 out.tsv
printf 'operation\tmatch\nFancy\t^my_fancy\nGEMM\tnvjet_a\n' >mine.tsv
tl-xdiff -c mine.tsv a.tsv b.tsv >out.tsv
echo "exit $?"
cut -f 1-7 out.tsv
