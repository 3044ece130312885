# -c keeps only the listed categories, -x drops them; both take a comma
# list and can be repeated. trace_file and trace_key rows always stay.
cd "$TESTDATA" || exit 1
echo '# -c kernel,ac2g'
tl-parse -c kernel,ac2g flow.json | cut -f1-4
echo '# -c kernel -c fwdbwd'
tl-parse -c kernel -c fwdbwd flow.json | cut -f1-4
echo '# -x ac2g,cuda_runtime'
tl-parse -x ac2g,cuda_runtime flow.json | cut -f1-4
echo '# -c ac2g -x ac2g'
tl-parse -c ac2g -x ac2g flow.json | cut -f1-4
echo '# -c nothing'
tl-parse -c nothing keys.json | cut -f1-4
