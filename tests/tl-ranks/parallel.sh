# The map on several hosts: report.mk's per-trace target `ranks' under
# GNU parallel --sshlogin, two hosts, two jobs each, through an ssh that
# is a stand-in running the command here (the exact command lines a
# cluster runs); then `collectives' once, which finds every summary up to
# date and joins them. The files are those tl-collective-report writes.
# A second `collectives' has nothing to do.
command -v parallel >/dev/null 2>&1 || exit 77
mk=$TESTDATA/../../scripts/report.mk
rep=$TESTDATA/../../scripts/tl-collective-report
mkdir ranks
cp "$TESTDATA"/../tl-ranks/data/meta/rank*.json ranks/
cat >ssh <<'EOS'
#!/bin/sh
# ssh [options] host command...: the host is this machine.
while [ $# -gt 0 ]; do
	case $1 in
	-l | -p | -o | -i | -F) shift 2 ;;
	-*) shift ;;
	*) break ;;
	esac
done
echo "$1" >>hosts.log
shift
[ "$1" = -- ] && shift
# sshd gives the command a login environment: a shell and a home.
SHELL=/bin/sh HOME=$(pwd)
export SHELL HOME
exec sh -c "$*"
EOS
chmod +x ssh
# HOME: GNU parallel keeps its files (~/.parallel) in the scratch directory.
ls ranks/*.json | HOME=$PWD parallel --will-cite --ssh "$PWD/ssh" \
    --sshlogin 2/hostA,2/hostB --workdir "$PWD" \
    make -s -f "$mk" 'TRACES={}' OUT=out ranks
echo "parallel: exit $?"
sort hosts.log | uniq | tr '\n' ' '
echo
ls out/*/ranks.tsv
make -f "$mk" TRACES='ranks/*.json' OUT=out COLLFLAGS='-w 4 -H' \
    collectives >make.log 2>&1
echo "collectives: exit $?"
grep -c 'tl-parse' make.log
"$rep" --world_size 4 --trace_pattern 'ranks/rank*.json' \
    --all2allv_heatmap --output_csvs_dir ref
echo "tl-collective-report: exit $?"
for f in ref/*; do
	cmp "$f" "out/collectives/${f#ref/}" || echo "${f#ref/}: differs"
done
ls out/collectives | wc -l
make -q -f "$mk" TRACES='ranks/*.json' OUT=out collectives
echo "up to date: exit $?"
# A join that fails (rank 3 in a world of 3) leaves the tables of the
# last good one as they were, and nothing of its own in out/.
touch out/*/ranks.tsv
make -s -f "$mk" TRACES='ranks/*.json' OUT=out COLLFLAGS='-w 3' \
    collectives >make.log 2>&1
echo "failed join: exit $?"
grep '^tl-ranks' make.log
ls -A out | tr '\n' ' '
echo
ls out/collectives | wc -l
