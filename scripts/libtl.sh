# tl: the shell library of the scripts (tl-report, tl-compare), sourced
# from the script's directory (`case $0 in */*) . "${0%/*}/libtl.sh" ;;
# *) . ./libtl.sh ;; esac': a $0 with no slash is "sh NAME" run there)
# after the script has set synopsis,
# its usage text. It finds the programs, reads the options every script
# has, checks option numbers in the words of the C tools (tl(7)), makes
# the scratch directory, and runs the stages of a pipeline as jobs, each
# one's exit status kept, to name the one that failed. POSIX sh.
#
# A script sets msgmap to a sed(1) script applied to the stages'
# messages: the notes of the programs name their own flags, and a user
# of the script needs its flags. reportmsgs is the part of the reports
# (tl-report, tl-report-inference): their flags, and one note for one
# cause (tl-agg says more of the unlinked kernels than tl-tree).
reportmsgs='s/(see -a)/(see --include_unlinked_kernels)/
s/(-k keeps them)/(tl-agg -k keeps them)/
/^tl-tree: .* GPU events not linked to a launch$/d'
# msgpath FROM TO: the stages' messages name TO where they name FROM,
# such as a private file or directory of an output (read or written by
# a stage), by the name it is published under. (The sed commands are
# made by finish, only when there are messages.)
msgpaths=
msgpath() {
	msgpaths=$msgpaths$1$nl$2$nl
}
# pathmap: msgmap and the commands of msgpaths, once.
pathmap() {
	while [ -n "$msgpaths" ]; do
		_p=${msgpaths%%"$nl"*}
		msgpaths=${msgpaths#*"$nl"}
		_r=${msgpaths%%"$nl"*}
		msgpaths=${msgpaths#*"$nl"}
		_p=$(printf '%s\n' "$_p" | sed 's/[][\\|.*^$]/\\&/g')
		_r=$(printf '%s\n' "$_r" | sed 's/[\\|&]/\\&/g')
		msgmap="${msgmap:+$msgmap$nl}s|$_p|$_r|g"
	done
}

prog=${0##*/}
# The programs beside the script (installed), or in bin/ of the source
# tree; the scripts, for one that runs another, beside it.
# (No dirname(1) here, nor below where the shell can do it: every
# program started is a millisecond of a report that may take fifty.)
case $0 in
/*) here=${0%/*} here=${here:-/} ;;
*/*) here=$(cd "${0%/*}" && pwd) || exit 1 ;;
*) here=$PWD ;;
esac
if [ -x "$here/tl-parse" ]; then
	PATH=$here:$PATH
elif [ -x "$here/../bin/tl-parse" ]; then
	PATH=${here%/*}/bin:$PATH
fi
PATH=$here:$PATH
export PATH
nl='
'

warn() {
	printf '%s: %s\n' "$prog" "$*" >&2
}

die() {
	warn "$@"
	exit 1
}

usage() {
	printf '%s\n' "$synopsis" >&2
	exit 1
}

# --help: the usage on stdout; --version: "PROG VERSION". make install
# writes config.mk's VERSION below; in the source tree, config.mk is read.
version=@VERSION@
helpver() {
	case $1 in
	-h | --help) printf '%s\n' "$synopsis" ;;
	--version)
		case $version in
		@*) version=$(sed -n 's/^VERSION = //p' "$here/../config.mk") ;;
		esac
		echo "$prog $version"
		;;
	*) return 1 ;;
	esac
	exit 0
}

# optnum OPT TEXT MIN [MAX]: TEXT is a whole number from MIN to MAX (or
# MIN or more), as strtonum reads it, or the message of the C tools;
# optfloat the same for a number, as strtod reads it (in decimal).
optnum() {
	_n=${2#"${2%%[! ]*}"}
	case ${_n#[+-]} in
	'' | *[!0-9]*) ;;
	*) inrange "$@" && return ;;
	esac
	badnum "$@" "whole number"
}
optfloat() {
	_n=${2#"${2%%[! ]*}"}
	_n=${_n#[+-]}
	_m=${_n%%[eE]*} _e=
	[ "$_m" = "$_n" ] || { _e=${_n#*[eE]}; _e=${_e#[+-]}; _e=${_e:-x}; }
	case $_m:$_e in
	:* | .:* | *[!0-9.]*:* | *.*.*:* | *:*[!0-9]*) ;;
	*) inrange "$@" && return ;;
	esac
	badnum "$@" number
}
inrange() {
	awk -v v="$2" -v lo="$3" -v hi="${4:-}" 'BEGIN {
		exit !(v + 0 >= lo + 0 && (hi == "" || v + 0 <= hi + 0)) }'
}
badnum() {	# OPT TEXT MIN [MAX] WHAT
	[ $# -eq 5 ] && die "$1: not a $5 from $3 to $4: \"$2\""
	die "$1: not a $4 >= $3: \"$2\""
}

# updir: $_d becomes its parent, as dirname(1) gives it (without
# starting it).
updir() {
	_d=${_d%"${_d##*[!/]}"}
	case $_d in
	'') _d=/ ;;
	*/*) _d=${_d%/*} _d=${_d%"${_d##*[!/]}"} _d=${_d:-/} ;;
	*) _d=. ;;
	esac
}

# An output file: its directory is there and may be written, and it is
# not a directory itself.
outfile() {
	_d=$1
	updir
	[ -d "$_d" ] || die "$1: No such file or directory"
	[ ! -d "$1" ] || die "$1: Is a directory"
	[ -w "$_d" ] && { [ ! -e "$1" ] || [ -w "$1" ]; } ||
		die "$1: Permission denied"
}

# An output directory, made later (mkdir -p): it is one, or the first
# part of its path that is there is a directory that may be written.
outdir() {
	_d=$1
	while [ ! -e "$_d" ] && [ ! -L "$_d" ]; do
		updir
	done
	[ -d "$_d" ] || die "$1: Not a directory"
	[ -w "$_d" ] || die "$1: Permission denied"
}

# cmpsheet SHEET PART TAG: the workbook's name of a split comparison
# sheet (PART intersect, only_baseline or only_variant of the variant
# TAG), in Excel's 31 characters: short words, so that the tag is kept.
cmpsheet() {
	case $1 in
	ops_unique_args) _s=unique_args ;;
	unified_perf_summary) _s=unified_perf ;;
	*) _s=$1 ;;
	esac
	case $2 in
	intersect) _p=both ;;
	only_baseline) _p=only_base ;;
	*) _p=only_var ;;
	esac
	printf '%.31s\n' "${_s}_${_p}_$3"
}

# The scratch directory $tmp in TMPDIR (else /tmp), removed at the end,
# whatever ends the script (a closed standard error, SIGPIPE, included),
# after the jobs still running are stopped. A signal that can be caught
# runs cleanup; for one that cannot (SIGKILL), the guard does the same.
# outputsin DIR... before it: the directories where the outputs go
# (privdir, privfile), for the guard.
privin=
outputsin() {
	privin=
	for _d; do
		case $_d in
		/*) ;;
		*) _d=$PWD/$_d ;;
		esac
		privin="$privin$_d$nl"
	done
}
scratch() {
	tmp=
	# Named with the pid, so that a signal between mktemp and the
	# assignment still finds it.
	tmpbase=${TMPDIR:-/tmp}/$prog.$$.
	trap cleanup EXIT
	trap onsignal HUP INT TERM PIPE
	guard
	tmp=$(mktemp -d "${tmpbase}XXXXXX") || exit 1
	tmp=$(cd "$tmp" && pwd) || exit 1
}

# The guard: a process in a session of its own (setsid(1)), so that no
# signal to the script or to its process group reaches it, started
# before the scratch directory is made. It waits until the script is
# gone; if the script ended without its cleanup (SIGKILL), the guard
# stops the stages still running (their pids in $tmp/pids, and on Linux
# whatever has a file open in $tmp), waits for them, and removes the
# private files and directories of the outputs (privdir, privfile, in
# the directories of outputsin) and the scratch. The script's cleanup
# ends the guard when it has done the same. Stages write outputs only
# into private files and directories, and only the script renames them
# into place (publish), so a stage that outlives the script never puts a
# file under its final name.
guardsh='trap "" HUP INT TERM PIPE
cd / || exit 1
tail --pid="$1" -s 0.1 -f /dev/null 2>/dev/null ||
	while kill -0 "$1" 2>/dev/null; do sleep 1; done
# alive PID: running, not a zombie that nobody has reaped yet.
alive() {
	kill -0 "$1" 2>/dev/null || return 1
	read -r s <"/proc/$1/stat" 2>/dev/null || return 0
	case ${s##*") "} in Z*) return 1 ;; esac
}
for d in "$2"??????; do
	[ -d "$d" ] || continue
	c=$(cd "$d" && pwd -P)
	# Rounds, until two in a row find nothing running: the stages
	# (their pids, their children) and, on Linux, whatever has a file
	# open in the scratch (every stage has its standard error there),
	# such as a stage started as the script was killed.
	r=0
	while [ $r -lt 2 ]; do
		p=
		[ -f "$d/pids" ] && p=$(cat "$d/pids")
		k=
		for q in $p; do k="$k $(pgrep -P "$q")"; done
		[ -n "$c" ] && [ -d /proc/self/fd ] && k="$k $(find \
		    /proc/[0-9]*/fd -maxdepth 1 -lname "$c/*" 2>/dev/null |
		    sed "s|^/proc/||; s|/.*||" | sort -u)"
		l=
		for q in $k $p; do alive "$q" && l="$l $q"; done
		if [ -z "$l" ]; then
			r=$((r + 1))
			sleep 0.1
			continue
		fi
		r=0
		kill -TERM $l 2>/dev/null
		n=0
		while [ $n -lt 50 ]; do
			a=0
			for q in $l; do alive "$q" && a=1; done
			[ $a -eq 1 ] || break
			sleep 0.1
			n=$((n + 1))
		done
		[ $n -lt 50 ] || kill -KILL $l 2>/dev/null
	done
	rm -rf "$d"
done
printf "%s" "$3" | while IFS= read -r o; do
	[ -n "$o" ] && rm -rf "$o/.$0.$1."??????
done'
guardpid=
guard() {
	_s=
	command -v setsid >/dev/null 2>&1 && _s=setsid
	$_s sh -c "$guardsh" "$prog" $$ "$tmpbase" "$privin" </dev/null \
	    >/dev/null 2>&1 &
	guardpid=$!
}

# mkout DIR: mkdir -p DIR, for an output directory; the directories it
# makes are kept in $made, the deepest first, for cleanup to remove when
# the script ends before publish (rmdir: only those still empty), so that
# a report that fails leaves no directory it made.
made= published=
mkout() {
	[ -d "$1" ] && return 0
	_d=$1 _m=
	while [ ! -e "$_d" ] && [ ! -L "$_d" ]; do
		_m=$_m$_d$nl
		updir
	done
	mkdir -p "$1" || exit 1
	made=$_m$made
}

# unlisted DIR NAMES: remove the files of DIR that are not NAME.csv for
# a NAME of the list (words): what the stages wrote into a private
# directory that the report does not publish.
unlisted() {
	set -- "$1" " $2 "
	for _x in "$1"/*; do
		_s=${_x##*/}
		case $2 in
		*" ${_s%.csv} "*) ;;
		*) [ -e "$_x" ] && set -- "$@" "$_x" ;;
		esac
	done
	shift 2
	[ $# -eq 0 ] || rm -f -- "$@" || exit 1
}

# privdir DIR, privfile DIR: $priv, a directory or a file of this run's
# own in DIR (one of outputsin), where a stage writes an output, for the
# script to rename into place once every stage has ended well (publish).
privdir() {
	priv=$(mktemp -d "$1/.$prog.$$.XXXXXX") || exit 1
}
privfile() {
	priv=$(mktemp "$1/.$prog.$$.XXXXXX") || exit 1
}

# publish: from here on, the script alone renames the outputs into place
# (a link planted at a final name is replaced, not written through), with
# as little as it can between the first rename and its exit: signals
# are held off (the outputs are complete: the status is 0), and its last
# command is exec'd (no cleanup after it: the script has removed $tmp
# and the private directories before). A SIGKILL in those milliseconds
# leaves outputs that are whole, under a status of 137.
# Two runs that publish into one directory at once take turns (flock(1)
# on each directory of outputsin, in one order, held to the exit), so
# that its outputs are all of one run, never a splice of both.
publish() {
	trap '' HUP INT TERM PIPE
	published=1
	command -v flock >/dev/null 2>&1 || return 0
	_l= _k=0
	while IFS= read -r _d; do
		[ -d "$_d" ] || continue
		_p=$(cd "$_d" 2>/dev/null && pwd -P) || continue
		case $nl$_l in *"$nl$_p$nl"*) continue ;; esac
		_l=$_l$_p$nl _k=$((_k + 1))
	done <<EOF
$privin
EOF
	[ $_k -le 1 ] || _l=$(printf '%s' "$_l" | sort -u)
	_fd=4 _ifs=$IFS
	set -f
	IFS=$nl
	for _d in $_l; do
		[ $_fd -le 9 ] || break
		eval "exec $_fd<\"\$_d\"" && flock "$_fd"
		_fd=$((_fd + 1))
	done
	IFS=$_ifs
	set +f
}

# privout FILE, privout -d DIR: $priv, where a stage writes an output: a
# private file beside FILE (privfile), or a private directory in DIR,
# made as mkdir -p (privdir); DIR, or FILE's directory, is one of
# outputsin. putout, once every stage has ended well, publishes and
# renames each into place: the files of a directory over those of the
# same names in DIR, then each file over FILE (a link planted there is
# replaced).
nout=0
privout() {
	if [ "$1" = -d ]; then
		mkout "$2"
		privdir "$2"
	else
		privfile "$(dirname "$1")"
	fi
	nout=$((nout + 1))
	eval "outk$nout=\$1 outp$nout=\$priv outf$nout=\${2:-\$1}"
}
# stale DIR NAMES: name the CSV files in DIR that are not among NAMES
# (one a line), this run's: files of an earlier run, left as they are.
stale() {
	for _x in "$1"/*.csv; do
		[ -f "$_x" ] || continue
		case $nl$2$nl in	# (a quoted pattern matches itself)
		*"$nl${_x##*/}$nl"*) ;;
		*) warn "$_x: not written by this report (from an earlier run?)" ;;
		esac
	done
}
putout() {
	publish
	for _k in -d -f; do
		_i=1
		while [ $_i -le $nout ]; do
			eval "_o=\$outk$_i _p=\$outp$_i _f=\$outf$_i"
			_i=$((_i + 1))
			case $_k:$_o in
			-d:-d) ;;
			-f:-d | -d:*) continue ;;
			esac
			if [ "$_o" = -d ]; then
				# (The directory, emptied, is cleanup's.)
				set -- "$_p"/*
				_w=
				for _x; do
					[ -e "$_x" ] && _w=$_w${_x##*/}$nl
				done
				[ ! -e "$1" ] || mv -f -t "$_f" "$@" || exit 1
				stale "$_f" "$_w"
			else
				mv -fT "$_p" "$_f" || exit 1
			fi
		done
	done
}

# A signal ends the script with status 1; no output is under its final
# name yet (publish holds signals off).
onsignal() {
	exit 1
}
pids= stages= nstage=0 watcher= zeros=
# At the end, normal or not: stop what still runs, wait until it has
# stopped (a program still writing into $tmp would leave it behind), then
# remove the private directories and $tmp, and end the guard. The jobs'
# programs are signalled, not the jobs, so that each job ends when its
# program has.
# A job that had not started its program yet when it was signalled, or
# is held opening a named pipe whose other end is gone, would never end:
# rounds, until none is left (5 s at most, then SIGKILL), signal the
# programs, then each job that has none (after the first round), and
# open each named pipe of $tmp at both ends for an instant, so that an
# open(2) held there returns.
cleanup() {
	trap '' HUP INT TERM PIPE	# a second signal must not cut it short
	[ -z "$watcher" ] || kill "$watcher" 2>/dev/null
	_left=$pids _n=0
	while [ -n "$_left" ]; do
		for p in $_left; do
			pkill -TERM -P "$p" 2>/dev/null
		done
		[ $_n -eq 0 ] || for p in $_left; do
			pgrep -P "$p" >/dev/null 2>&1 || kill -TERM "$p" 2>/dev/null
		done
		if [ -n "$tmp" ]; then
			for _f in "$tmp"/*; do
				[ -p "$_f" ] && { true <>"$_f"; } 2>/dev/null
			done
		fi
		_l=
		for p in $_left; do
			alive "$p" && _l="$_l $p"
		done
		_left=$_l _n=$((_n + 1))
		[ -n "$_left" ] || break
		if [ $_n -ge 50 ]; then
			for p in $_left; do
				pkill -KILL -P "$p" 2>/dev/null
			done
			kill -KILL $_left 2>/dev/null
			break
		fi
		sleep 0.1
	done
	for p in $pids $watcher; do
		wait "$p" 2>/dev/null
	done
	# One rm(1) for them all.
	set --
	while IFS= read -r _d; do
		[ -n "$_d" ] || continue
		for _p in "$_d/.$prog.$$."??????; do
			[ -e "$_p" ] || [ -L "$_p" ] && set -- "$@" "$_p"
		done
	done <<EOF
$privin
EOF
	if [ -n "$tmp" ]; then
		set -- "$@" "$tmp"
	elif [ -n "${tmpbase:-}" ]; then
		for _p in "$tmpbase"??????; do
			[ -e "$_p" ] && set -- "$@" "$_p"
		done
	fi
	[ $# -eq 0 ] || rm -rf -- "$@"
	if [ -z "$published" ] && [ -n "$made" ]; then
		_ifs=$IFS
		IFS=$nl
		set -f
		rmdir -- $made 2>/dev/null
		set +f
		IFS=$_ifs
	fi
	# The guard leads a process group of its own (setsid, not forked:
	# a background job leads none), its tail(1) in it; without setsid,
	# each by itself.
	if [ -n "$guardpid" ]; then
		kill -KILL "-$guardpid" 2>/dev/null || {
			pkill -KILL -P "$guardpid"
			kill -KILL "$guardpid"
		} 2>/dev/null
	fi
}

# alive PID: running, not a zombie that nobody has reaped yet (where
# /proc tells).
alive() {
	kill -0 "$1" 2>/dev/null || return 1
	read -r _s <"/proc/$1/stat" 2>/dev/null || return 0
	case ${_s##*") "} in Z*) return 1 ;; esac
}

# Progress, on a terminal only.
tty=0
[ -t 2 ] && tty=1
progress() {
	[ $tty -eq 1 ] && printf '\r\033[K%s: %s' "$prog" "$1" >&2
}
endprogress() {
	[ $tty -eq 1 ] && printf '\r\033[K' >&2
}

# stage NAME IN OUT COMMAND...: the command as a job, reading IN and
# writing OUT (named pipes, files), its messages kept; its exit status is
# the job's, which finish waits for (no file to write: a full TMPDIR
# cannot lose it).
stage() {
	nstage=$((nstage + 1))
	eval "stage$nstage=\$1"
	_in=$2 _out=$3
	shift 3
	# Room for its messages, taken now: 8 KiB written over in place
	# (read back without the NULs left), so that a TMPDIR that fills
	# up (its own work) does not lose the message that says so. (By
	# printf, the shell's own: no program started for it.)
	if [ -z "$zeros" ]; then
		zeros='\0\0\0\0\0\0\0\0'
		for _i in 1 2 3 4 5 6 7 8 9 10; do zeros=$zeros$zeros; done
	fi
	printf "$zeros" >"$tmp/err.$nstage" 2>/dev/null
	{
		# Not the last command: the job stays the program's parent
		# (cleanup signals the children of the jobs). A signal to the
		# whole process group (a hangup, timeout(1)) must not end the
		# job before its program: cleanup waits for the jobs, and a
		# program that is a script is still removing its own scratch.
		# Caught here, the signals are the default again in the
		# program.
		trap : HUP TERM PIPE
		"$@" <"$_in" >"$_out" 2<>"$tmp/err.$nstage"
		exit $?
	} &
	eval "pid$nstage=$!"
	pids="$pids $!"
	echo $! 2>/dev/null >>"$tmp/pids"
	stages="$stages $nstage"
}

# finish MAX [-q]: wait for the stages (and stop the $watcher job, a
# progress line, if there is one); a stage failed when its exit status
# is over MAX. The one to blame is the first that failed, in the order
# they were started, but for one that died of SIGPIPE (141: a later
# stage stopped reading). The messages of the stages up to that one, in
# order, each line once (two readings of a trace warn alike); then, when
# one failed, "NAME failed (exit N)" (not with -q: a lone stage's own
# message says it), exit 1.
finish() {
	for n in $stages; do
		eval "wait \$pid$n"
		eval "st$n=\$?"
	done
	pids=
	: >"$tmp/pids"
	[ -z "$watcher" ] || kill "$watcher" 2>/dev/null
	watcher=
	endprogress
	blame= bst=
	for n in $stages; do
		eval "st=\$st$n"
		[ "$st" -le "$1" ] && continue
		[ -z "$blame" ] || { [ "$bst" = 141 ] && [ "$st" != 141 ]; } ||
			continue
		blame=$n bst=$st
	done
	_q=${2:-}
	set --
	for n in $stages; do
		[ -f "$tmp/err.$n" ] && set -- "$@" "$tmp/err.$n"
		[ "$n" = "$blame" ] && break
	done
	# (Read only when one of them has a message: a file of the NULs
	# alone reads as no line.)
	for _f; do
		{ IFS= read -r _l || [ -n "$_l" ]; } <"$_f" 2>/dev/null || continue
		pathmap
		cat -- "$@" | tr -d '\000' | sed "${msgmap:-}" |
			awk '!seen[$0]++' >&2
		break
	done
	stages=
	[ -z "$blame" ] && return
	[ "$_q" = -q ] && exit 1
	eval "die \"\$stage$blame failed (exit $bst)\""
}
