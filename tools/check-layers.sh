#!/bin/sh
# check-layers.sh [DIR]: fail when a source file includes a header of a
# higher layer, or of a later feature folder inside models/, or when a
# feature's records header pulls in jansson or the scenario reader.
#
# The layers, lowest first (a file may include its own layer and lower):
#   util  sim  models  output  cli
# The feature folders of models/, in order (a file may include its own
# folder and earlier ones): the README's layout table shows the same order.
#   hw cost comm kernel train run serve fleet eval scenario validate plan
# (fleet comes before eval: its records are part of eval's job and result,
# and it reaches the evaluate call only through a callback, fleet.h)
# Only jansson-reading modules may include <jansson.h>: models/scenario/,
# models/hw/catalog.c, util/jread, output/ and cli/.
set -u
top=${1:-.}
cd "$top" || exit 2

layers="util sim models output cli"
features="hw cost comm kernel train run serve fleet eval scenario validate plan"

rank() { # rank WORD LIST: position of WORD in LIST (1-based), 0 if absent
	i=1
	for w in $2; do
		[ "$w" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
	echo 0
}

bad=0
for f in $(find util sim models output cli -name '*.[ch]' 2>/dev/null | sort); do
	layer=${f%%/*}
	lr=$(rank "$layer" "$layers")
	feature=""
	fr=0
	if [ "$layer" = models ]; then
		feature=$(echo "$f" | cut -d/ -f2)
		fr=$(rank "$feature" "$features")
		if [ "$fr" -eq 0 ]; then
			echo "$f: models/$feature is not a known feature folder (add it to tools/check-layers.sh and the README)"
			bad=1
		fi
	fi
	for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
		case "$inc" in */*) ;; *) continue ;; esac  # own folder
		il=${inc%%/*}
		ir=$(rank "$il" "$layers")
		[ "$ir" -eq 0 ] && continue  # a generated or test header
		if [ "$ir" -gt "$lr" ]; then
			echo "$f: includes \"$inc\" from a higher layer ($il above $layer)"
			bad=1
			continue
		fi
		if [ "$layer" = models ] && [ "$il" = models ]; then
			ifeat=$(echo "$inc" | cut -d/ -f2)
			ifr=$(rank "$ifeat" "$features")
			if [ "$ifr" -gt "$fr" ]; then
				echo "$f: includes \"$inc\" from a later feature folder ($ifeat after $feature)"
				bad=1
			fi
		fi
	done
	case "$f" in
	models/scenario/* | models/hw/catalog.c | util/jread.* | output/* | cli/*) ;;
	*)
		if grep -q '^[[:space:]]*#[[:space:]]*include[[:space:]]*<jansson.h>' "$f"; then
			echo "$f: includes <jansson.h>; only the readers may (models/scenario/, hw/catalog.c)"
			bad=1
		fi
		;;
	esac
done
exit $bad
