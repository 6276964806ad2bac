#!/bin/sh
# The layering check (tools/check-layers.sh) passes on the tree and fails,
# naming the file, on an include that points up a layer, to a later feature
# folder of models/, or on jansson in a feature's records header. The
# include-circle check (tools/check-include-cycles.sh) finds no circle in the
# tree and names a planted one; the size check (tools/check-sizes.sh) finds
# no .c file over 800 lines and no function over 120, and names planted ones.
. "$TOP/tests/cli/lib.sh"
check="$TOP/tools/check-layers.sh"
cycles="$TOP/tools/check-include-cycles.sh"

status_is 0 sh "$check" "$TOP" && ok || fail "the tree breaks its own layering: $(cat "$TMP/out")"

# no folder's modules include each other in a circle
status_is 0 sh "$cycles" "$TOP" && ok || fail "an include circle: $(cat "$TMP/out")"

# the size rules: no .c file over 800 lines, no function over 120
sizes="$TOP/tools/check-sizes.sh"
status_is 0 sh "$sizes" "$TOP" && ok || fail "a file or a function over the size rules: $(cat "$TMP/out")"

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
# a circle planted in a clean folder is named with the files that make it
plant output/csvtable.h '#include "output/plot.h"'
expect_status 1 sh "$cycles" "$TMP/tree" &&
	grep -q '^output: include circle: output/csvtable -> output/plot -> output/csvtable (output/csvtable.h includes "output/plot.h"; output/plot.h includes "output/csvtable.h")$' "$TMP/out" && ok ||
	fail "a planted include circle in output/ not caught: $(cat "$TMP/out")"

# a folder of modules that use each other one way only has none
mkdir -p "$TMP/one/util"
printf '#include "b.h"\n' >"$TMP/one/util/a.c"
printf '#include "util/c.h"\n' >"$TMP/one/util/b.h"
printf '#include "c.h"\n' >"$TMP/one/util/c.c"
: >"$TMP/one/util/c.h"
expect_status 0 sh "$cycles" "$TMP/one" || fail "a one-way folder called a circle: $(cat "$TMP/out")"
printf '#include "a.h"\n' >"$TMP/one/util/c.h"
: >"$TMP/one/util/a.h"
expect_status 1 sh "$cycles" "$TMP/one" &&
	grep -q '^util: include circle: util/a -> util/b -> util/c -> util/a ' "$TMP/out" && ok ||
	fail "a three-module circle not caught: $(cat "$TMP/out")"
# a planted function of 121 lines and a planted file of 801 are named
rm -rf "$TMP/tree" && mkdir -p "$TMP/tree/util"
{ echo "int long_one(void)"; echo "{"; i=0; while [ $i -lt 119 ]; do echo "	;"; i=$((i + 1)); done; echo "}"; } >"$TMP/tree/util/long.c"
status_is 1 sh "$sizes" "$TMP/tree" && grep -q '^util/long.c:1: long_one is 121 lines (over 120)' "$TMP/out" && ok ||
	fail "a 121-line function not caught: $(cat "$TMP/out")"
{ echo "int short_one(void)"; echo "{"; i=0; while [ $i -lt 118 ]; do echo "	;"; i=$((i + 1)); done; echo "}"; } >"$TMP/tree/util/long.c"
status_is 0 sh "$sizes" "$TMP/tree" && ok || fail "a 120-line function caught: $(cat "$TMP/out")"
i=0; while [ $i -lt 801 ]; do echo ";"; i=$((i + 1)); done >"$TMP/tree/util/big.c"
status_is 1 sh "$sizes" "$TMP/tree" && grep -q '^util/big.c: 801 lines (over 800)' "$TMP/out" && ok ||
	fail "an 801-line file not caught: $(cat "$TMP/out")"
finish
