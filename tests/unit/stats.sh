# Unit tests of the statistics: numpy's and pandas's sums, std and
# median.
exec ${TL_VALGRIND:-} "$UNIT/t-stats"
