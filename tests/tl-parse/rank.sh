# -t adds the trace and rank columns. The rank comes from distributedInfo
# (for every row of the trace, even those before it), else from the file
# name with the -r regex (default rank[-_]?([0-9]+), any case).
cp "$TESTDATA/array.json" host1_Rank-12.json &&
cp "$TESTDATA/array.json" worker7.json &&
cp "$TESTDATA/keys.json" rank_5.json || exit 1
echo '# distributedInfo'
tl-parse -t "$TESTDATA/keys.json" | cut -f1-4,21- | sed "s|$TESTDATA|DATA|g"
echo '# name'
tl-parse -t host1_Rank-12.json | cut -f1-4,21-
echo '# no rank'
tl-parse -t worker7.json | cut -f1-4,21-
echo '# -r'
tl-parse -t -r 'worker([0-9]+)' worker7.json | cut -f1-4,21-
echo '# distributedInfo and name'
tl-parse -t rank_5.json | cut -f1-4,21- | head -4
