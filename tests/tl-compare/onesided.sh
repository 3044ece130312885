# Two models whose op classes differ (owlv2 has convolutions and no SDPA,
# bert SDPA and no convolutions): the workbook is written, with the
# one-sided sheets as only-baseline / only-variant sheets, the TraceDiff
# and by-operation / by-layer sheets as always; the notes name the
# reports by their tags, never a scratch directory.
PATH=$TESTDATA/../../scripts:$PATH
o=$TRACES/h100/google_owlv2-large-patch14-ensemble__1016001.json.gz
[ -f "$o" ] || exit 77
tl-compare -n owl,bert -o c.xlsx "$o" "$TESTDATA/../../samples/bert-h100.json.gz"
echo "exit $?"
unzip -p c.xlsx xl/workbook.xml | tr '<' '\n' | sed -n 's/^sheet name="\([^"]*\)".*/\1/p'
