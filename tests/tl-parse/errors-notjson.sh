# Files that are not JSON traces: text, a bare number, an empty file,
# whitespace only, a directory. Each gets a message; status 1.
printf 'hello world\n' >notes.txt
printf '42\n' >number.json
: >empty.json
printf ' \n\n' >blank.json
mkdir adir
tl-parse notes.txt number.json empty.json blank.json adir | cut -f1-4
tl-parse notes.txt >/dev/null 2>&1
echo "exit $?"
