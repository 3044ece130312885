# Write the CSV file GOT with its columns in the order of the header of
# REF (columns matched by name; those REF lacks dropped), for a table
# whose column order HTA takes from a Python set (the CUPTI counters).
#	python3 cols.py REF GOT > OUT
import csv
import sys

ref = next(csv.reader(open(sys.argv[1], newline="")))
rows = list(csv.reader(open(sys.argv[2], newline="")))
pos = {n: i for i, n in enumerate(rows[0])}
w = csv.writer(sys.stdout, lineterminator="\n")
for r in rows:
    w.writerow([r[pos[n]] if n in pos else "" for n in ref])
