#!/bin/sh
# Every example in README.md, docs/tutorial/*.md, docs/howto/speculative-decoding.md and import-configs.md is a
# test: each command block is run and its output compared with the output block that follows.
#
# The markup (also described in CONTRIBUTING.md):
#   ```sh                      a command block: lines starting with "$ " are
#   $ build/clustersim ...     commands (a line ending in \ continues on the
#   ```                        next, and a line starting "> " continues a
#                              loop, as a shell's prompts show them); other
#                              lines are not allowed in it
#   <!-- excerpt -->           optional: the output block is an excerpt
#   ```text                    the output block: standard output, compared
#   ...                        exactly; in an excerpt every line must appear
#   ```                        in the real output in this order (a line "..."
#                              only marks a gap); blanks at the end of a
#                              line are not compared
# A command block must be followed by an output block (blank lines between
# are allowed). A ```sh block without "$ " lines is shown, not run.
# Commands run in a scratch folder where build/clustersim is $CLUSTERSIM and
# scenarios/ and tools/ are the checkout's; standard error is not compared.
#
# Before the documents, a self-test plants a wrong digit into a copy of a
# real example's output and expects the check to fail, exactly and as an
# excerpt.
set -u
: "${CLUSTERSIM:?}" "${TOP:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/work/build"
ln -s "$CLUSTERSIM" "$tmp/work/build/clustersim"
ln -s "$TOP/scenarios" "$tmp/work/scenarios"
ln -s "$TOP/tools" "$tmp/work/tools"
ln -s "$TOP/tests" "$tmp/work/tests"

# split DOC into $tmp/ex/N.cmd, N.out, N.mode (exact|excerpt), N.where;
# prints markup errors and exits 1 on them
split_doc() {
	rm -rf "$tmp/ex"
	mkdir -p "$tmp/ex"
	awk -v dir="$tmp/ex" -v doc="$1" '
	function fail(msg) { printf "FAIL: %s:%d: %s\n", doc, NR, msg; bad = 1 }
	state == "text" {
		if ($0 == "```") { state = ""; next }
		print > (dir "/" n ".out"); next
	}
	state == "sh" {
		if ($0 == "```") {
			close(cmdfile)
			if (cmds) { state = "want"; mode = "exact" } else { state = ""; system("rm -f " cmdfile) ; n-- }
			next
		}
		if (cont || substr($0, 1, 2) == "$ " || (cmds && substr($0, 1, 2) == "> ")) {
			line = cont ? $0 : substr($0, 3)
			print line > cmdfile
			cont = ($0 ~ /\\$/); cmds++
		} else if (cmds) fail("a line in a command block that is not a command (start it with \"$ \")")
		else shown = 1
		next
	}
	state == "want" {
		if ($0 == "") next
		if ($0 == "<!-- excerpt -->") { mode = "excerpt"; next }
		if ($0 == "```text") {
			state = "text"; printf "" > (dir "/" n ".out")
			print mode > (dir "/" n ".mode"); close(dir "/" n ".mode")
			next
		}
		fail("a command block without its output block (```text) after it"); state = ""
	}
	/^```sh$/ {
		n++; cmdfile = dir "/" n ".cmd"; cmds = 0; cont = 0; state = "sh"
		print doc ":" NR > (dir "/" n ".where"); close(dir "/" n ".where")
		next
	}
	END {
		if (state == "want") fail("a command block without its output block at the end")
		if (state == "text" || state == "sh") fail("a block is not closed")
		exit bad
	}' "$1"
}

# check every pair split from one document; prints failures, returns their count
check_pairs() {
	bad=0
	# run a document's examples at once (they only read), then compare in order
	for m in "$tmp"/ex/*.mode; do
		[ -f "$m" ] || continue
		n=${m%.mode}
		(cd "$tmp/work" && sh "$n.cmd") >"$n.got" 2>"$n.err" &
	done
	wait
	for m in "$tmp"/ex/*.mode; do
		[ -f "$m" ] || continue
		n=${m%.mode}
		where=$(cat "$n.where")
		if [ "$(cat "$m")" = exact ]; then
			sed 's/[[:blank:]]*$//' "$n.got" >"$n.cmp"
			sed 's/[[:blank:]]*$//' "$n.out" >"$n.want"
			if ! diff -u "$n.want" "$n.cmp" >"$n.diff"; then
				echo "FAIL: $where: the output differs from the program's (- doc, + program):"
				head -30 "$n.diff"
				bad=$((bad + 1))
			fi
		elif ! awk '{ sub(/[[:blank:]]+$/, "") }
			    NR == FNR { if ($0 != "...") want[++w] = $0; next }
			    i < w && $0 == want[i + 1] { i++ }
			    END { if (i < w) { printf "  not found in order: %s\n", want[i + 1]; exit 1 } }' \
			    "$n.out" "$n.got" >"$n.diff"; then
			echo "FAIL: $where: an excerpt line is not in the program's output:"
			cat "$n.diff"
			head -20 "$n.got" | sed 's/^/  got: /'
			bad=$((bad + 1))
		fi
	done
	return "$bad"
}

# ---- self-test: a planted wrong digit must fail, exactly and as an excerpt
real=$(cd "$tmp/work" && build/clustersim catalog --format table)
# the first digit of the second line, plus one (9 becomes 0)
wrong=$(printf '%s\n' "$real" | awk 'NR == 2 && match($0, /[0-9]/) {
	d = substr($0, RSTART, 1); $0 = substr($0, 1, RSTART - 1) ((d + 1) % 10) substr($0, RSTART + 1) } { print }')
[ "$wrong" != "$real" ] || { echo "FAIL: self-test planted nothing"; exit 1; }
for mode in exact excerpt; do
	{
		echo '```sh'
		echo '$ build/clustersim catalog --format table'
		echo '```'
		[ $mode = excerpt ] && echo '<!-- excerpt -->'
		echo '```text'
		printf '%s\n' "$wrong"
		echo '```'
	} >"$tmp/planted.md"
	split_doc "$tmp/planted.md" >/dev/null || { echo "FAIL: self-test: markup not read"; exit 1; }
	if check_pairs >/dev/null; then
		echo "FAIL: self-test: a wrong digit in an $mode output block passed"
		exit 1
	fi
done
# and the unplanted copy passes
sed "/^\`\`\`text/,/^\`\`\`$/{/^\`\`\`/!d}" "$tmp/planted.md" | awk -v real="$real" '{ print } /^```text$/ { print real }' >"$tmp/right.md"
split_doc "$tmp/right.md" >/dev/null && check_pairs >/dev/null || { echo "FAIL: self-test: the right output failed"; exit 1; }

# ---- the documents
fail=0
pairs=0
# DOCS (paths) checks other pages the same way, e.g. while writing one
for doc in ${DOCS:-"$TOP/README.md" "$TOP"/docs/tutorial/*.md "$TOP/docs/howto/speculative-decoding.md" "$TOP/docs/howto/import-configs.md"}; do
	[ -f "$doc" ] || continue
	split_doc "$doc" || fail=1
	check_pairs || fail=1
	pairs=$((pairs + $(ls "$tmp"/ex/ | grep -c '\.mode$')))
done
# the runner's last line: each example a check, and the self-test one
[ "$fail" = 0 ] && echo "ok: $pairs examples in README.md, docs/tutorial and docs/howto/speculative-decoding.md reproduce (and a planted wrong digit fails)" &&
	echo "$((pairs + 1)) checks passed"
exit "$fail"
