# Unit tests of the shortest digits of a double (Ryu), against libc's
# printf and strtod.
exec ${TL_VALGRIND:-} "$UNIT/t-dtoa"
