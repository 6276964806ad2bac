#!/bin/sh
# The command line: help, version, exit statuses, standard input, -o written
# atomically, failed writes (exit 1, no partial file), byte-identical reruns.
. "$TOP/tests/cli/lib.sh"
ex="$TOP/scenarios/examples/llama3-70b-pretrain.json"

status_is 0 "$CLUSTERSIM" --help && grep -q "^usage: clustersim COMMAND" "$TMP/out" && ok || fail "--help"
status_is 0 "$CLUSTERSIM" --version && grep -qE "^clustersim [0-9]+\.[0-9]+\.[0-9]+$" "$TMP/out" && ok || fail "--version"
status_is 0 "$CLUSTERSIM" run --help && grep -q "^usage: clustersim run" "$TMP/out" && ok || fail "run --help"
status_is 0 "$CLUSTERSIM" catalog --help && ok || fail "catalog --help"
status_is 2 "$CLUSTERSIM" && ok || fail "no command"
status_is 2 "$CLUSTERSIM" frobnicate && grep -q "unknown command 'frobnicate'" "$TMP/err" && ok || fail "unknown command"
status_is 2 "$CLUSTERSIM" run "$ex" --bogus && grep -q "unknown option '--bogus'" "$TMP/err" && ok || fail "unknown option"
status_is 2 "$CLUSTERSIM" run && ok || fail "run without a scenario"
status_is 2 "$CLUSTERSIM" run "$ex" --format xml && grep -q "format must be table, csv, json or jsonl" "$TMP/err" && ok || fail "bad --format"
status_is 2 "$CLUSTERSIM" run "$ex" --set nodes && ok || fail "--set without ="
status_is 2 "$CLUSTERSIM" run "$ex" --seed -3 && ok || fail "negative --seed"
status_is 2 "$CLUSTERSIM" run "$TMP/nope.json" && grep -q "cannot open: No such file" "$TMP/err" && ok || fail "missing file"
status_is 2 "$CLUSTERSIM" run "$TMP" && grep -q "is a directory" "$TMP/err" && ok || fail "directory as scenario"
status_is 2 "$CLUSTERSIM" catalog nonsense && ok || fail "unknown catalog section"
# The engines section: the model's five engines in the JSON's units, a cell
# empty where a constant is of the other kind; a --catalog overlay changes
# the one field it gives; the section count lists them.
status_is 0 "$CLUSTERSIM" catalog engines --format csv --columns name,kind,kernel_us,straggler_sigma &&
	[ "$(tr '\n' ' ' <"$TMP/out")" = "name,kind,kernel_us,straggler_sigma vllm-v0,serving,5, vllm-v1,serving,5, trtllm,serving,5, sglang,serving,5, training,training,,0.015 " ] &&
	ok || fail "catalog engines: $(tr '\n' ' ' <"$TMP/out")"
printf '{"engines": [{"name": "vllm-v1", "kernel_us": 7}]}\n' >"$TMP/eng.json"
status_is 0 "$CLUSTERSIM" catalog engines --catalog "$TMP/eng.json" --format csv --columns name,kernel_us,seq_overhead_us &&
	grep -qx "vllm-v1,7,3" "$TMP/out" && grep -qx "vllm-v0,5,3" "$TMP/out" && ok || fail "catalog engines with an overlay"
status_is 0 "$CLUSTERSIM" catalog --format csv && grep -qx "engines,5" "$TMP/out" && ok || fail "catalog counts engines"

# Standard input, and byte-identical results from the file and from stdin.
"$CLUSTERSIM" run "$ex" --format csv --dry-run >"$TMP/a.csv" 2>"$TMP/err" && ok || fail "run from file"
"$CLUSTERSIM" run - --format csv --dry-run <"$ex" | sed 's/^stdin,/llama3-70b-pretrain,/' >"$TMP/b.csv" && ok || fail "run from stdin"
cmp -s "$TMP/a.csv" "$TMP/b.csv" && ok || fail "stdin and file differ"

# Reruns give the same bytes; --seed changes only the seed column here.
"$CLUSTERSIM" run "$ex" --format csv --dry-run >"$TMP/c.csv"
cmp -s "$TMP/a.csv" "$TMP/c.csv" && ok || fail "rerun differs"
"$CLUSTERSIM" run "$ex" --format csv --dry-run --seed 9 | cut -d, -f4 | sed -n 2p | grep -qx 9 && ok || fail "--seed not applied"

# --set changes a field.
"$CLUSTERSIM" run "$ex" --format csv --dry-run --set 'candidates[0].nodes=4' | sed -n 2p | cut -d, -f8 | grep -qx 4 && ok || fail "--set nodes"

# -o writes the file whole, through a temporary name that does not remain.
status_is 0 "$CLUSTERSIM" run "$ex" --format csv --dry-run -o "$TMP/out.csv" && ok || fail "-o"
cmp -s "$TMP/a.csv" "$TMP/out.csv" && ok || fail "-o content differs from stdout"
[ -z "$(ls -A "$TMP" | grep -e 'out\.csv\.tmp' -e '^\.out\.csv\.clustersim-')" ] && ok || fail "temporary file left behind"
[ ! -s "$TMP/out" ] && ok || fail "-o also wrote to stdout"

# A full disk and an unwritable path: exit 1, one message, no partial file.
if [ -w /dev/full ]; then
	status_is 1 "$CLUSTERSIM" run "$ex" --format csv --dry-run -o /dev/full &&
		grep -q "cannot write '/dev/full': No space left on device" "$TMP/err" && ok || fail "/dev/full"
	"$CLUSTERSIM" run "$ex" --format csv --dry-run >/dev/full 2>"$TMP/err"
	[ $? -eq 1 ] && grep -q "No space left" "$TMP/err" && ok || fail "stdout on /dev/full"
fi
status_is 1 "$CLUSTERSIM" run "$ex" --dry-run -o "$TMP/no/such/dir/out.csv" &&
	grep -q "cannot write" "$TMP/err" && ok || fail "missing directory"
mkdir "$TMP/ro" && chmod 555 "$TMP/ro"
if [ "$(id -u)" -ne 0 ]; then
	status_is 1 "$CLUSTERSIM" run "$ex" --dry-run -o "$TMP/ro/out.csv" && ok || fail "read-only directory"
	[ -z "$(ls "$TMP/ro")" ] && ok || fail "file left in read-only directory"
fi

# JSON output is an array of objects with the CSV's columns.
"$CLUSTERSIM" run "$ex" --format json --dry-run >"$TMP/r.json"
head -c1 "$TMP/r.json" | grep -q '\[' && grep -q '"scenario": "llama3-70b-pretrain"' "$TMP/r.json" && ok || fail "json output"

# Every command words option errors the same way: one line, exit 2.
for cmd in run sweep trace validate catalog merge; do
	status_is 2 "$CLUSTERSIM" $cmd --nope && [ "$(cat "$TMP/err")" = "clustersim: $cmd: unknown option '--nope' (see 'clustersim $cmd --help')" ] &&
		ok || fail "$cmd --nope: $(cat "$TMP/err")"
	status_is 2 "$CLUSTERSIM" $cmd -o && [ "$(cat "$TMP/err")" = "clustersim: $cmd: option '-o' needs a value (see 'clustersim $cmd --help')" ] &&
		ok || fail "$cmd -o: $(cat "$TMP/err")"
done
for cmd in run sweep validate catalog; do
	status_is 2 "$CLUSTERSIM" $cmd --format && grep -q "option '--format' needs a value" "$TMP/err" && ok || fail "$cmd --format"
	status_is 2 "$CLUSTERSIM" $cmd --format xml && grep -q "format must be table, csv, json or jsonl, not 'xml'" "$TMP/err" && ok || fail "$cmd --format xml"
done
# help: `help CMD` prints what `CMD --help` does, `help` the general help, an
# unknown name is one line naming it (with the closest command, if any).
cmds=$("$CLUSTERSIM" --help | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p')
[ "$(echo $cmds)" = "run catalog validate calibrate trace sweep merge plan plot import help" ] && ok || fail "commands in --help: $(echo $cmds)"
"$CLUSTERSIM" --help >"$TMP/general"
status_is 0 "$CLUSTERSIM" help && cmp -s "$TMP/out" "$TMP/general" && ok || fail "help alone is --help"
for cmd in $cmds; do
	"$CLUSTERSIM" $cmd --help >"$TMP/want" 2>&1
	status_is 0 "$CLUSTERSIM" help $cmd && cmp -s "$TMP/out" "$TMP/want" && [ -s "$TMP/out" ] &&
		[ ! -s "$TMP/err" ] && ok || fail "help $cmd differs from $cmd --help"
done
status_is 2 "$CLUSTERSIM" help nosuch && [ "$(wc -l <"$TMP/err")" -eq 1 ] && [ ! -s "$TMP/out" ] &&
	grep -q "no command 'nosuch'" "$TMP/err" && ! grep -q "did you mean" "$TMP/err" && ok || fail "help nosuch: $(cat "$TMP/err")"
status_is 2 "$CLUSTERSIM" help swep && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
	grep -q "no command 'swep'; did you mean 'sweep'?" "$TMP/err" && ok || fail "help swep: $(cat "$TMP/err")"
status_is 2 "$CLUSTERSIM" help run sweep && grep -q "help: unexpected argument 'sweep'" "$TMP/err" && ok || fail "help with two commands"

# Every option a command accepts (as its table entry lists them, which is
# what it parses) is in its help, and every option its help names is accepted.
for cmd in $cmds; do
	status_is 0 "$CLUSTERSIM" help --list-options $cmd && [ -s "$TMP/out" ] && ok || { fail "help --list-options $cmd"; continue; }
	cp "$TMP/out" "$TMP/accepted"
	"$CLUSTERSIM" $cmd --help | grep -o -- '--[a-z][a-z-]*' | sed 's/^--//' | sort -u >"$TMP/documented"
	for opt in $(cat "$TMP/accepted"); do
		grep -qx -- "$opt" "$TMP/documented" && ok || fail "$cmd accepts --$opt but its help does not list it"
		"$CLUSTERSIM" $cmd --$opt </dev/null >/dev/null 2>"$TMP/err"
		! grep -q "unknown option" "$TMP/err" && ok || fail "$cmd lists --$opt but does not accept it"
	done
	for opt in $(cat "$TMP/documented"); do
		grep -qx -- "$opt" "$TMP/accepted" && ok || fail "$cmd's help names --$opt, which it does not accept"
	done
done
status_is 0 "$CLUSTERSIM" help --list-options trace && ! grep -qx "format" "$TMP/out" && grep -qx "candidate" "$TMP/out" &&
	ok || fail "trace's accepted options"
finish
