# Usage errors: neither or both of -C and -s, two operands, an unknown
# option; a stream that is not tl-parse's.
tl-jax; echo "exit $?"
tl-jax -C d -s x; echo "exit $?"
tl-jax -s x a b; echo "exit $?"
tl-jax -z; echo "exit $?"
printf 'a\tb\n1\t2\n' | tl-jax -s gpu_timeline; echo "exit $?"
