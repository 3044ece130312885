# Every XML part (.xml, .rels) of each workbook named parses with a
# strict XML parser (expat): the workbooks the suite writes, checked by
# tests/run after every case. A file that is no zip archive (a test's
# stand-in for a workbook) is not one to check. Writes "BOOK: PART: what"
# for each part that does not parse; exit status 1 if any.
import sys
import xml.etree.ElementTree as ET
import zipfile

bad = 0
for book in sys.argv[1:]:
    if not zipfile.is_zipfile(book):
        continue
    try:
        with zipfile.ZipFile(book) as z:
            for part in z.namelist():
                if part.endswith(".xml") or part.endswith(".rels"):
                    try:
                        ET.fromstring(z.read(part))
                    except ET.ParseError as e:
                        print("%s: %s: %s" % (book, part, e))
                        bad = 1
    except (zipfile.BadZipFile, OSError) as e:
        print("%s: %s" % (book, e))
        bad = 1
sys.exit(bad)
