# The README's tour is true: every "$ command" of its tour (and of the
# section after it), run in a copy of samples/ with bin/ and scripts/ on
# PATH, writes exactly the lines the README shows below it. A command
# continues on the lines after one that ends in a backslash, and on
# lines indented deeper than its "$"; its output is the indented lines
# up to the next "$" or blank line. "export" lines are the reader's set
# up, which this script does itself.
root=$TESTDATA/../..
PATH=$root/bin:$root/scripts:$PATH
export PATH
cp -R "$root/samples" samples || exit 1
awk '
	/^A tour$/ { on = 1 }
	/^Figures$/ { on = 0 }
	!on { next }
	/^    \$ / {
		k++
		sub(/^    \$ /, "")
		print > ("cmd." k)
		printf "" > ("exp." k)
		state = 1		# in the command
		next
	}
	state == 1 && /^       / { print > ("cmd." k); next }
	state && /^    / {
		state = 2		# in its output
		sub(/^    /, "")
		print > ("exp." k)
		next
	}
	{ state = 0 }
' "$root/README"
status=0
k=1
while [ -f "cmd.$k" ]; do
	case $(head -1 "cmd.$k") in
	export\ *) k=$((k + 1)); continue ;;
	esac
	sh "cmd.$k" >"got.$k" 2>"err.$k"
	st=$?
	if [ $st -ne 0 ] || ! cmp -s "exp.$k" "got.$k" || [ -s "err.$k" ]; then
		echo "README tour: \"$(head -1 "cmd.$k")\": exit $st"
		diff "exp.$k" "got.$k" | head -10
		head -5 "err.$k"
		status=1
	fi
	k=$((k + 1))
done
echo "$((k - 1)) commands"
exit $status
