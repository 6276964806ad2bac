#!/bin/sh
# check-sizes.sh [TOP]: the house's size rules on the C sources under util/
# sim/ models/ output/ cli/: no .c file over 800 lines, no function over 120
# lines (from its opening brace at the start of a line to its closing one).
# Prints one line per breach, "FILE: N lines (over 800)" or
# "FILE:LINE: FUNCTION is N lines (over 120)", and exits 1 if there is any.
top=${1:-.}
cd "$top" || exit 2
files=$(find util sim models output cli -name '*.c' | sort)
[ -n "$files" ] || exit 0
# shellcheck disable=SC2086
awk -v max_file=800 -v max_fn=120 '
FNR == 1 {
	if (prev != "" && prev_lines > max_file) { print prev ": " prev_lines " lines (over " max_file ")"; bad = 1 }
	name = ""; sig = ""; open = 0
}
{ prev = FILENAME; prev_lines = FNR }
/^[A-Za-z_].*\(/ && !/;[ \t]*$/ { sig = $0; sigline = FNR }
/^\{/ && sig != "" { open = FNR; name = sig; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name) }
/^\}/ && open {
	n = FNR - open + 1
	if (n > max_fn) { print FILENAME ":" sigline ": " name " is " n " lines (over " max_fn ")"; bad = 1 }
	open = 0; sig = ""
}
END {
	if (prev != "" && prev_lines > max_file) { print prev ": " prev_lines " lines (over " max_file ")"; bad = 1 }
	exit bad
}' $files
