#!/bin/sh
# The layering check (tools/check-layers.sh) passes on the tree and fails,
# naming the file, on an include that points up a layer, to a later feature
# folder of models/, or on jansson in a feature's records header.
. "$TOP/tests/cli/lib.sh"
check="$TOP/tools/check-layers.sh"

status_is 0 sh "$check" "$TOP" && ok || fail "the tree breaks its own layering: $(cat "$TMP/out")"

# plant PATH LINE: a copy of the tree with LINE added at the top of PATH
plant() {
	rm -rf "$TMP/tree"
	mkdir -p "$TMP/tree"
	(cd "$TOP" && cp -R util sim models output cli "$TMP/tree/")
	{ echo "$2"; cat "$TMP/tree/$1"; } >"$TMP/tree/$1.new" && mv "$TMP/tree/$1.new" "$TMP/tree/$1"
}

plant models/hw/cluster.c '#include "cli/cli.h"'
status_is 1 sh "$check" "$TMP/tree" &&
	grep -q '^models/hw/cluster.c: includes "cli/cli.h" from a higher layer' "$TMP/out" && ok ||
	fail "upward include to cli/ not caught: $(cat "$TMP/out")"

plant sim/engine.c '#include "models/hw/hw.h"'
status_is 1 sh "$check" "$TMP/tree" && grep -q '^sim/engine.c: ' "$TMP/out" && ok ||
	fail "sim including models not caught: $(cat "$TMP/out")"

plant models/kernel/roofline.h '#include "models/train/train.h"'
status_is 1 sh "$check" "$TMP/tree" &&
	grep -q '^models/kernel/roofline.h: includes "models/train/train.h" from a later feature folder' "$TMP/out" && ok ||
	fail "kernel including train not caught: $(cat "$TMP/out")"

plant models/train/train.h '#include <jansson.h>'
status_is 1 sh "$check" "$TMP/tree" && grep -q '^models/train/train.h: includes <jansson.h>' "$TMP/out" && ok ||
	fail "jansson in a records header not caught: $(cat "$TMP/out")"

plant models/hw/hw.h ''
mkdir -p "$TMP/tree/models/newthing" && cp "$TOP/models/hw/cluster.c" "$TMP/tree/models/newthing/x.c"
status_is 1 sh "$check" "$TMP/tree" && grep -q '^models/newthing/x.c: models/newthing is not a known feature folder' "$TMP/out" && ok ||
	fail "unknown feature folder not caught: $(cat "$TMP/out")"
finish
