#!/bin/sh
# Golden outputs: for each tests/golden/NAME.args (the arguments, one line,
# paths relative to the repository root) the standard output must equal
# tests/golden/NAME.out byte for byte. Refresh on purpose with
# tools/refresh-golden.sh and review the diff.
. "$TOP/tests/cli/lib.sh"
cd "$TOP" || exit 1
for a in tests/golden/*.args; do
	name=$(basename "$a" .args)
	# shellcheck disable=SC2046
	eval "set -- $(cat "$a")"
	"$CLUSTERSIM" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$name: exit status $rc: $(cat "$TMP/$name.err")"
		continue
	fi
	if cmp -s "$TMP/$name.out" "tests/golden/$name.out"; then
		ok
	else
		fail "$name: output differs from tests/golden/$name.out"
		diff "tests/golden/$name.out" "$TMP/$name.out" | head -10
	fi
done
finish
