# A zip with two traces and a member that is not JSON (skipped with a
# warning): each trace is named archive(member), with its own uids and rank.
cd "$TESTDATA" && tl-parse two.zip
