# Bad Perfetto traces: each a located message (NAME:BYTE: what) or a
# counted warning, a defined exit status, never a crash. Made here with a
# few lines of protobuf encoding: an interned name used before it is
# defined and after a clear, a packet that needs incremental state on a
# sequence never cleared (skipped and counted), a slice end with no
# begin, an end before its begin, a clock 64 without a snapshot, a begin
# never ended (no duration); then a trace cut in the middle of a packet
# (a warning: the last packet dropped) and a wrong wire type between
# packets (an error, exit 1).
python3 - <<'PY' || exit 1
def v(n):
    b = b''
    while True:
        c = n & 0x7f
        n >>= 7
        if n:
            b += bytes([c | 0x80])
        else:
            return b + bytes([c])
def f(num, val):
    if isinstance(val, int):
        return v(num << 3) + v(val)
    return v(num << 3 | 2) + v(len(val)) + val
def pkt(*fields):
    body = b''.join(fields)
    return f(1, body)
def ev(typ, name_iid=None, uuid=7):
    b = f(9, typ) + f(11, uuid)
    if name_iid is not None:
        b += f(10, name_iid)
    return f(11, b)
intern = f(12, f(2, f(1, 1) + f(2, b'work')))
t = b''
t += pkt(f(10, 1), f(13, 2), f(8, 5), ev(3, 1))           # before a clear
t += pkt(f(10, 1), f(13, 1), f(60, f(1, 7) + f(2, b'track')))
t += pkt(f(10, 1), f(13, 2), f(8, 10), intern, ev(1, 1))
t += pkt(f(10, 1), f(13, 2), f(8, 30), ev(2))
t += pkt(f(10, 1), f(13, 2), f(8, 40), ev(2))             # no begin
t += pkt(f(10, 1), f(13, 2), f(8, 50), ev(3, 9))          # iid 9 undefined
t += pkt(f(10, 1), f(13, 1), f(8, 60), ev(3, 1))          # after a clear
t += pkt(f(10, 1), f(13, 2), f(8, 90), ev(1))
t += pkt(f(10, 1), f(13, 2), f(8, 80), ev(2))             # ends before
t += pkt(f(10, 1), f(13, 2), f(8, 95), f(58, 64), ev(3))  # clock 64
t += pkt(f(10, 1), f(13, 2), f(8, 99), ev(1))             # never ends
open('bad.pftrace', 'wb').write(t)
a = open('bad.pftrace', 'rb').read()
open('cut.pftrace', 'wb').write(a + pkt(f(10, 1), f(8, 1))[:3])
open('wire.pftrace', 'wb').write(a + b'\x0f\x01')
PY
for t in bad cut wire; do
	echo "== $t"
	tl-parse $t.pftrace >out 2>err
	echo "exit $?"
	cat err
	cut -f1-8,19-20 out
	tl-parse -s $t.pftrace >/dev/null 2>&1
	echo "with -s: exit $?"
done
