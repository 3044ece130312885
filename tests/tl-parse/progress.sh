# Progress on a terminal: reading a file of 64 MiB or more while the
# standard error is a terminal, a line "tl-parse: reading NAME: P% of M
# MB", redrawn at each percent and cleared at the end, so that what
# follows starts on a clean line; none when the standard error is not a
# terminal. script(1) gives the terminal.
command -v script >/dev/null 2>&1 || exit 77
{
	printf '{"traceEvents": ['
	head -c 67108864 /dev/zero | tr '\0' ' '
	printf ']}\n'
} >big.json
script -qec 'tl-parse big.json >/dev/null' /dev/null >tty.log </dev/null
echo "exit $?"
tr '\r' '\n' <tty.log | grep -c 'tl-parse: reading big.json: [0-9]*% of 64 MB'
tr '\r' '\n' <tty.log | grep -c 'reading big.json: 50% of 64 MB'
tail -c 4 tty.log | od -An -c | tr -s ' '
tl-parse big.json 2>err >/dev/null
echo "not a terminal: exit $?, $(wc -c <err) bytes on stderr"
