# Bad input of the 2021 generation, each counted by its reason on stderr
# and the rest analysed, exit status 0 as for today's traces: a trace
# that mixes both generations, a Kernel row without a correlation, an
# async launch flow with no end (the kernel it would reach is not
# linked), one with no start.
cd "$TESTDATA/../kineto-2021" || exit 1
tl-parse bad.json >"$OLDPWD/ev"
echo "tl-parse exit $?"
cd "$OLDPWD" || exit 1
tl-tree ev >tree
echo "tl-tree exit $?"
tl-agg timeline tree
echo "tl-agg exit $?"
tl-agg ops tree
