# csv.awk: split_csv(line, out) splits one line of a results CSV (RFC 4180:
# a quoted field may hold commas and doubled quotes; clustersim writes no
# newline inside a field) into out[1..n] and returns n. Loaded with -f
# before a program that reads results by column name (tools/demo.sh,
# tests/cli/test_odd.sh).
function split_csv(line, out,   n, i, c, field, quoted) {
	n = 0; field = ""; quoted = 0
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (quoted) {
			if (c == "\"" && substr(line, i + 1, 1) == "\"") { field = field c; i++ }
			else if (c == "\"") quoted = 0
			else field = field c
		} else if (c == "\"") quoted = 1
		else if (c == ",") { out[++n] = field; field = "" }
		else field = field c
	}
	out[++n] = field
	return n
}
