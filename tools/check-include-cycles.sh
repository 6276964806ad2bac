#!/bin/sh
# check-include-cycles.sh [DIR]: fail when the modules of one folder include
# each other in a circle, and name every circle.
#
# A module is a .c/.h pair (foo.c and foo.h are module foo). Module A uses
# module B of the same folder when foo.c or foo.h of A has an #include "..."
# of B's header, written as "b.h" or "folder/b.h". Within a folder these
# uses must form no circle, so that each folder's modules can be read, built
# and tested from the bottom up (a circle such as a.h including b.h while
# b.c includes a.h is not caught by the compiler: include guards hide it).
# Includes of other folders are the layering check's (tools/check-layers.sh).
#
# One line per circle: per set of modules that reach each other, the
# shortest circle through its first module by name, then a line naming the
# set's other modules if it has more:
#   FOLDER: include circle: A -> B -> A (A.h includes "B.h"; B.c includes "A.h")
# One awk pass over every file; exit 1 when a circle is found.
set -u
top=${1:-.}
cd "$top" || exit 2

files=$(find util sim models output cli -name '*.[ch]' 2>/dev/null | sort)
[ -n "$files" ] || exit 0
# shellcheck disable=SC2086
awk '
function dir_of(p) { sub(/\/[^\/]*$/, "", p); return p }
function mod_of(p) { sub(/\.[ch]$/, "", p); return p }
/^[ \t]*#[ \t]*include[ \t]*"[^"]*"/ {
	inc = $0
	sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", inc)
	sub(/".*/, "", inc)
	d = dir_of(FILENAME)
	if (index(inc, "/") == 0)
		inc = d "/" inc
	if (dir_of(inc) != d)
		next
	a = mod_of(FILENAME)
	b = mod_of(inc)
	if (a == b)
		next
	if (!((a, b) in edge)) {
		edge[a, b] = FILENAME " includes \"" inc "\""
		nout[a]++
		out[a, nout[a]] = b
	}
	mods[a] = 1
	mods[b] = 1
}
# Tarjan: sets of modules that reach each other
function strong(v,    i, w, m) {
	index_of[v] = low[v] = ++counter
	stack[++sp] = v
	on_stack[v] = 1
	for (i = 1; i <= nout[v]; i++) {
		w = out[v, i]
		if (!(w in index_of)) {
			strong(w)
			if (low[w] < low[v])
				low[v] = low[w]
		} else if (on_stack[w] && index_of[w] < low[v]) {
			low[v] = index_of[w]
		}
	}
	if (low[v] == index_of[v]) {
		nsets++
		size[nsets] = 0
		do {
			w = stack[sp--]
			on_stack[w] = 0
			set_of[w] = nsets
			member[nsets, ++size[nsets]] = w
		} while (w != v)
	}
}
# the shortest path from start back to itself inside set s (breadth first)
function circle(start, s,    head, tail, q, v, i, w, k) {
	split("", prev)
	head = tail = 1
	q[1] = start
	while (head <= tail) {
		v = q[head++]
		for (i = 1; i <= nout[v]; i++) {
			w = out[v, i]
			if (set_of[w] != s)
				continue
			if (w == start) {
				plen = 0
				for (k = v; k != start; k = prev[k])
					rev[++plen] = k
				rev[++plen] = start
				for (k = 1; k <= plen; k++)
					path[k] = rev[plen + 1 - k]
				return
			}
			if (!(w in prev)) {
				prev[w] = v
				q[++tail] = w
			}
		}
	}
}
END {
	n = 0
	for (m in mods)
		names[++n] = m
	# visit in sorted order, so that the report is the same every time
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && names[j - 1] > names[j]; j--) {
			t = names[j]; names[j] = names[j - 1]; names[j - 1] = t
		}
	for (i = 1; i <= n; i++)
		if (!(names[i] in index_of))
			strong(names[i])
	bad = 0
	for (s = 1; s <= nsets; s++) {
		if (size[s] < 2)
			continue
		first = member[s, 1]
		for (k = 2; k <= size[s]; k++)
			if (member[s, k] < first)
				first = member[s, k]
		circle(first, s)
		line = dir_of(first) ": include circle: "
		why = ""
		for (k = 1; k <= plen; k++) {
			nxt = k < plen ? path[k + 1] : first
			line = line path[k] " -> "
			why = why (k > 1 ? "; " : "") edge[path[k], nxt]
		}
		print line first " (" why ")"
		if (size[s] > plen)
			print dir_of(first) ": (the modules of that circle reach each other with " size[s] - plen " more:" \
			      more_of(s, plen) ")"
		bad = 1
	}
	exit bad
}
function more_of(s, plen,    k, j, r, on) {
	r = ""
	for (k = 1; k <= size[s]; k++) {
		on = 0
		for (j = 1; j <= plen; j++)
			if (path[j] == member[s, k])
				on = 1
		if (!on)
			r = r " " member[s, k]
	}
	return r
}
' $files
