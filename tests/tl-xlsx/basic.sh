# Streams into sheets, read back with openpyxl: every row and cell as the
# streams have them. Numbers (integers, fractions, exponents, 17-digit
# doubles) are number cells; text that only looks like a number (leading
# zeros, 1., .5, nan, inf, 0x10, an integer of 2^53 or more) stays text,
# and so does every cell of a column that holds such text (an op named
# -0 or 1e5 is not a number), but for inf and nan in a column of numbers;
# escapes are decoded; empty fields are empty cells; a literal _x0041_
# survives Excel's escapes; bad UTF-8 becomes U+FFFD with a located
# warning; text longer than a cell holds is cut, with a warning.
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null || exit 77
rb=$(dirname "$0")/readback.py
printf 'name\tcount\tvalue\tlookalike\tnote\n' >a.tsv
printf 'aten::mm\t12\t0.30719775390625\t007\tplain\n' >>a.tsv
printf 'x\\ty\t-3\t1.1379310344827587\t1.\ta\\\\b\\nc\n' >>a.tsv
printf '\t\t1e-05\t.5\t\n' >>a.tsv
printf -- '-0\t1E+300\t-2.5e-7\t0x10\tnan\n' >>a.tsv
printf '1e5\t0\t100.0\t9007199254740993\t_x0041_ and µs\n' >>a.tsv
printf 'bad \377 byte\t7\tinf\t1751410836000000000\t"quoted", comma\n' >>a.tsv
awk 'BEGIN { printf "k\tlong\none\t"; for (i = 0; i < 33000; i++)
	printf "x"; printf "\n" }' >b.tsv
tl-xlsx -o book.xlsx a.tsv b.tsv
echo "exit $?"
/usr/bin/python3 "$rb" book.xlsx a=a.tsv b=b.tsv
echo "exit $?"
ls -A
