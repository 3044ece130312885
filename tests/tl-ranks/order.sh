# Collectives that do not line up, in the simplified mode (dlrm8: no
# metadata, one stream a rank), where TraceLens checks nothing of an
# instance and matches by position: a rank whose kernel at an id is not
# the lowest rank's gets one warning, at its first such id, naming the
# rank, its trace and both names; the tables are TraceLens's all the
# same (exit 0). Ranks 0 and 1, rank 1's first and last collectives
# swapped (their times kept: the order by start is what matches).
D=$TRACES/multirank/dlrm8
[ -d "$D" ] || exit 77
for r in 0 1; do
	tl-parse "$D"/worker${r}_*.json.gz | tl-ranks -m -e >s$r.tsv
done
awk -F'\t' -v OFS='\t' '$3 == "coll" { n[++k] = NR; row[NR] = $0 }
	{ line[NR] = $0 }
	END {	split(line[n[1]], a, "\t"); split(line[n[k]], b, "\t")
		t = a[10]; a[10] = b[10]; b[10] = t
		for (i = 1; i <= NR; i++) {
			if (i == n[1] || i == n[k]) {
				s = ""
				for (j = 1; j <= 19; j++)
					s = s (j > 1 ? "\t" : "") (i == n[1] ? a[j] : b[j])
				print s
			} else
				print line[i]
		} }' s1.tsv >s1swap.tsv
tl-ranks s0.tsv s1swap.tsv 2>err >isync.tsv
echo "exit $?"
cut -f 1,12,13 isync.tsv
sed "s|$D/||" err
tl-ranks s0.tsv s1.tsv >/dev/null
echo "exit $?"
