#!/bin/sh
# check-layers.sh [DIR]: fail when a source file includes a header of a
# higher layer, or of a later feature folder inside models/, or when a
# feature's records header pulls in jansson or the scenario reader.
#
# The layers, lowest first (a file may include its own layer and lower):
#   util  sim  models  output  cli
# The feature folders of models/, in order (a file may include its own
# folder and earlier ones): the README's layout table shows the same order.
#   hw cost comm kernel train run serve fleet eval scenario import measure validate calib plan
# (fleet comes before eval: its records are part of eval's job and result,
# and it reaches the evaluate call only through a callback, fleet.h)
# Only jansson-reading modules may include <jansson.h>: models/scenario/, import/, measure/, calib/,
# models/hw/catalog.c and catalog_read.c, util/jread, output/ and cli/.
#
# One awk pass over every file (a shell loop per include took half a
# minute of make check).
set -u
top=${1:-.}
cd "$top" || exit 2

layers="util sim models output cli"
features="hw cost comm kernel train run serve fleet eval scenario import measure validate calib plan"

files=$(find util sim models output cli -name '*.[ch]' 2>/dev/null | sort)
[ -n "$files" ] || exit 0
# shellcheck disable=SC2086
awk -v layers="$layers" -v features="$features" '
function rank(word, list,    n, a, i) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++)
		if (a[i] == word)
			return i
	return 0
}
function jansson_allowed(f) {
	return f ~ /^models\/(scenario|import|measure|calib)\// || f == "models/hw/catalog.c" || f == "models/hw/catalog_read.c" || f ~ /^util\/jread\./ ||
	       f ~ /^output\// || f ~ /^cli\//
}
FNR == 1 {
	split(FILENAME, parts, "/")
	layer = parts[1]
	lr = rank(layer, layers)
	feature = ""
	fr = 0
	if (layer == "models") {
		feature = parts[2]
		fr = rank(feature, features)
		if (fr == 0) {
			print FILENAME ": models/" feature " is not a known feature folder (add it to tools/check-layers.sh and the README)"
			bad = 1
		}
	}
}
/^[ \t]*#[ \t]*include[ \t]*"[^"]*"/ {
	inc = $0
	sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", inc)
	sub(/".*/, "", inc)
	if (index(inc, "/") == 0)
		next  # own folder
	split(inc, ip, "/")
	il = ip[1]
	ir = rank(il, layers)
	if (ir == 0)
		next  # a generated or test header
	if (ir > lr) {
		print FILENAME ": includes \"" inc "\" from a higher layer (" il " above " layer ")"
		bad = 1
		next
	}
	if (layer == "models" && il == "models") {
		ifr = rank(ip[2], features)
		if (ifr > fr) {
			print FILENAME ": includes \"" inc "\" from a later feature folder (" ip[2] " after " feature ")"
			bad = 1
		}
	}
	next
}
/^[ \t]*#[ \t]*include[ \t]*<jansson\.h>/ {
	if (!jansson_allowed(FILENAME)) {
		print FILENAME ": includes <jansson.h>; only the readers may (models/scenario/, hw/catalog.c, hw/catalog_read.c)"
		bad = 1
	}
}
END { exit bad }
' $files
