# make install into a prefix: every program, script and page, the share
# directory (arch files, kernel classes, report.mk); the installed pages
# name the installed paths; the installed programs find their share
# directory and each other, and report.mk runs from where it is
# installed.
root=$TESTDATA/../..
p=$PWD/inst
make -s -C "$root" install PREFIX="$p" >make.out 2>&1 ||
	{ cat make.out; exit 1; }
for f in "$root"/bin/tl-* "$root"/scripts/tl-report "$root"/scripts/tl-compare* \
    "$root"/scripts/libtl.sh; do
	[ -x "$p/bin/${f##*/}" ] || [ "${f##*/}" = libtl.sh ] &&
		[ -f "$p/bin/${f##*/}" ] || echo "not installed: ${f##*/}"
done
for f in "$root"/man/*.[157]; do
	s=${f##*.}
	[ -f "$p/share/man/man$s/${f##*/}" ] || echo "not installed: ${f##*/}"
done
echo "programs and pages: checked"
ls "$p/share/tl" | tr '\n' ' '
echo
"$p/bin/tl-report" --version | sed 's/ .*/ VERSION/'
grep -h 'share/tl/report.mk' "$p/share/man/man1/tl-report.1" \
    "$p/share/man/man7/tl.7" | sed "s,$p,PREFIX,"
"$p/bin/tl-roofline" -l | cut -f 1 | sort -u | tr '\n' ' '
echo
cp "$root/samples/bert-h100.json.gz" t.json.gz
make -s -f "$p/share/tl/report.mk" TRACES=t.json.gz OUT=out >/dev/null 2>&1
echo "report.mk: exit $?"
ls out
