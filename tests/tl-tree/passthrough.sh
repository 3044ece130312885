# Every input row and column comes out unchanged and in input order, the
# tree columns appended; a column that an earlier stage added (here by awk)
# is passed through too.
ln -s "$TESTDATA"/*.json . || exit 1
tl-parse tree-gpu.json >ev || exit 1
tl-tree <ev >out || exit 1
n=$(head -1 ev | awk -F'\t' '{ print NF }')
cut -f1-"$n" out | cmp - ev && echo "input columns unchanged"
head -1 out | cut -f"$((n + 1))"-
awk -F'\t' -v OFS='\t' '{ print $0, NR == 1 ? "note" : "n" NR }' ev |
    tl-tree 2>/dev/null | awk -F'\t' 'NR <= 4 { print $21, $22, $23, $26 }'
