# Unit tests of the CSV reader: RFC 4180 as pandas writes it, the flags
# for read_csv's rules, records across chunks, and the errors.
exec ${TL_VALGRIND:-} "$UNIT/t-csv"
