/*
 * fuzz_plot: bytes -> the chart writer of `clustersim plot`, and a check
 * that no byte of the input can reach gnuplot as a command.
 *
 * The input is a results CSV (read as plot reads it, strict). Every chart
 * kind is written from it with its own columns, then with --x, --y and
 * --group naming columns of the file (and --xlabel, --ylabel a name of
 * the file and a string of quotes, macros and backquotes) and with --deadline-h, --budget-usd
 * and the SLOs taken from a table of edge values (denormals, 1e300,
 * 1e308), both picked by a hash of the input, once with a plain image
 * name and once with one that starts with '|' and holds quotes. A refusal
 * must be an input error of one line. A script is read the way gnuplot
 * 5.4 reads it (misc.c load_file, scanner.c, datablock.c, datafile.c),
 * and abort() (so libFuzzer reports the input) when:
 *   - a byte is a control character other than the newline ending a line;
 *   - a line ends in '\' other than a plot's ", \" (a comment would go on
 *     to the next line);
 *   - outside a string or a comment: a backquote, '@', '{', '}', ';', a
 *     '\', a byte from 0x80, '!' not before "exists", or an identifier not
 *     in the writer's fixed vocabulary (so no system, load, call, eval,
 *     print, shell...); `$NAME` not one of the writer's data blocks;
 *   - a single-quoted string, scanned as gnuplot scans it (`''` is one
 *     quote only after another character), is unterminated or runs into
 *     a quote or a letter (the sign of a quote written as `''` where
 *     gnuplot ends the string instead); a double-quoted string other than
 *     "outfile" and "\047" (backquotes run inside double quotes);
 *   - a command starts with anything but set, unset, plot, if or a data
 *     block; `set output` names anything but outfile; the outfile string
 *     starts with '|'; a plot reads anything but a data block or '';
 *   - a data line is empty, does not end its block with exactly "EOD",
 *     or holds anything but numbers and double-quoted fields, whose only
 *     escapes are \\ and \0042; a block is left open.
 */
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/csvtable.h"
#include "output/plot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort with the offending line, so that a crash report says what broke. */
static void fail(const char *why, const char *line, size_t len)
{
	fprintf(stderr, "fuzz_plot: %s in the script line: %.*s\n", why, (int)(len > 300 ? 300 : len), line);
	abort();
}

/* Every identifier the writer itself puts outside strings. */
static const char *const vocabulary[] = {
	"at", "autofreq", "autoscale", "background", "below", "border", "boxxyerror", "char", "cycle", "dt",
	"dynamic", "encoding", "exists", "fill", "font", "format", "front", "graph", "grid", "height",
	"horizontal", "if", "inside", "key", "label", "labels", "layout", "lc", "left", "lines", "linespoints",
	"linetype", "lmargin", "logscale", "lt", "lw", "maxrows", "multiplot", "noenhanced", "nomirror",
	"notitle", "noytics", "offset", "offsets", "outfile", "output", "outside", "plot", "pngcairo", "points",
	"ps", "pt", "rgb", "right", "rmargin", "scale", "screen", "set", "size", "solid", "spacing", "sprintf",
	"style", "svg", "terminal", "title", "top", "unset", "using", "utf8", "vertical", "with", "x", "xfix",
	"xlabel", "xrange", "xtics", "y", "yfix", "ylabel", "yrange", "ytic", "ytics", NULL,
};

/* The writer's data blocks: a name and, for most, a number after it. */
static const char *const blocks[] = { "group", "all", "ideal", "bars", "front", "deadline", "budget", "slo_a",
				      "slo_b", "objective", NULL };

static bool in_list(const char *const *list, const char *s, size_t n)
{
	for (size_t i = 0; list[i] != NULL; i++)
		if (strlen(list[i]) == n && memcmp(list[i], s, n) == 0)
			return true;
	return false;
}

static bool is_ident(unsigned char c)
{
	return isalnum(c) || c == '_' || c >= 0x80;  /* gnuplot's ALLOWED_8BITVAR */
}

/* A block name: one of the writer's, digits after it allowed. */
static bool block_name(const char *s, size_t n)
{
	size_t k = n;
	while (k > 0 && isdigit((unsigned char)s[k - 1]))
		k--;
	return in_list(blocks, s, k) || in_list(blocks, s, n);
}

enum tok_kind { TOK_IDENT, TOK_NUMBER, TOK_SQ, TOK_DQ, TOK_DOLLAR, TOK_OP };

struct tok {
	enum tok_kind kind;
	const char *s;  /* in the line */
	size_t n;
};

/* The tokens of a line (grown as needed; kept from line to line). */
static struct tok *toks;
static size_t toks_cap;

/* One logical line of commands into toks, as gnuplot's scanner() cuts it. */
static size_t scan(const char *line, size_t len)
{
	size_t nt = 0, i = 0;
	while (i < len) {
		unsigned char c = (unsigned char)line[i];
		size_t j;
		if (c == ' ') {
			i++;
			continue;
		}
		if (nt == toks_cap) {
			toks_cap = toks_cap ? 2 * toks_cap : 256;
			toks = realloc(toks, toks_cap * sizeof *toks);
			if (toks == NULL)
				abort();
		}
		if (c == '#') {
			/* a comment: printable ASCII only (gpquote_comment escapes the rest) */
			for (j = i; j < len; j++)
				if ((unsigned char)line[j] >= 0x7f)
					fail("a byte from 0x7f in a comment", line, len);
			break;
		}
		if (c == '\'') {
			/* scanner.c: '' is one quote only after a character of the string */
			for (j = i + 1;; j++) {
				if (j >= len)
					fail("an unterminated single-quoted string", line, len);
				if (line[j] == '\'')
					break;
				if (j + 2 < len && line[j + 1] == '\'' && line[j + 2] == '\'')
					j += 2;
			}
			if (j + 1 < len &&
			    (line[j + 1] == '\'' || line[j + 1] == '"' || is_ident((unsigned char)line[j + 1])))
				fail("a string running into another token", line, len);
			toks[nt++] = (struct tok){ TOK_SQ, line + i, j + 1 - i };
			i = j + 1;
			continue;
		}
		if (c == '"') {
			for (j = i + 1;; j++) {
				if (j >= len)
					fail("an unterminated double-quoted string", line, len);
				if (line[j] == '"')
					break;
				if (line[j] == '\\' && j + 1 < len)
					j++;
			}
			if (!((j - i == 8 && memcmp(line + i, "\"outfile\"", 9) == 0) ||
			      (j - i == 5 && memcmp(line + i, "\"\\047\"", 6) == 0)))
				fail("a double-quoted string the writer does not write", line, len);
			toks[nt++] = (struct tok){ TOK_DQ, line + i, j + 1 - i };
			i = j + 1;
			continue;
		}
		if (isdigit(c) || (c == '.' && i + 1 < len && isdigit((unsigned char)line[i + 1]))) {
			/* scanner.c get_num(): digits, a point and digits, an exponent */
			j = i;
			while (j < len && isdigit((unsigned char)line[j]))
				j++;
			if (j < len && line[j] == '.')
				for (j++; j < len && isdigit((unsigned char)line[j]); j++)
					;
			if (j < len && (line[j] == 'e' || line[j] == 'E')) {
				j++;
				if (j < len && (line[j] == '-' || line[j] == '+'))
					j++;
				if (j >= len || !isdigit((unsigned char)line[j]))
					fail("a number without its exponent", line, len);
				while (j < len && isdigit((unsigned char)line[j]))
					j++;
			}
			toks[nt++] = (struct tok){ TOK_NUMBER, line + i, j - i };
			i = j;
			continue;
		}
		if (isalpha(c) || c == '_' || c >= 0x80) {
			for (j = i + 1; j < len && is_ident((unsigned char)line[j]); j++)
				;
			if (!in_list(vocabulary, line + i, j - i) && !(j - i == 3 && memcmp(line + i, "EOD", 3) == 0))
				fail("an identifier the writer does not write", line, len);
			toks[nt++] = (struct tok){ TOK_IDENT, line + i, j - i };
			i = j;
			continue;
		}
		if (c == '$') {
			/* a column ($3) or a data block ($group0) */
			for (j = i + 1; j < len && is_ident((unsigned char)line[j]); j++)
				;
			if (j == i + 1)
				fail("a lone $", line, len);
			if (!isdigit((unsigned char)line[i + 1]) && !block_name(line + i + 1, j - i - 1))
				fail("a data block the writer does not write", line, len);
			toks[nt++] = (struct tok){ TOK_DOLLAR, line + i, j - i };
			i = j;
			continue;
		}
		if (c == '!') {
			if (len - i < 7 || memcmp(line + i, "!exists", 7) != 0)
				fail("'!' outside a string", line, len);
		} else if (!strchr("^+-/%~()[]:?,&|=*<>.", c) || c == '\0') {
			fail("a character gnuplot would not read as text (backquote, @, braces, ;, \\...)", line, len);
		}
		toks[nt++] = (struct tok){ TOK_OP, line + i, 1 };
		i++;
	}
	return nt;
}

static bool tok_is(const struct tok *t, const char *s)
{
	return t->n == strlen(s) && memcmp(t->s, s, t->n) == 0;
}

/* A string expression from toks[k] on: 'a' . "\047" . 'b' ..., its value
 * (parse_sq: '' is one quote) into out (at most size bytes); returns the
 * token after it. */
static size_t string_value(size_t nt, size_t k, char *out, size_t size)
{
	size_t o = 0;
	for (;;) {
		const struct tok *t = &toks[k];
		if (t->kind == TOK_SQ) {
			for (size_t i = 1; i + 1 < t->n; i++) {
				if (t->s[i] == '\'' && t->s[i + 1] == '\'')
					i++;
				if (o + 1 < size)
					out[o++] = t->s[i];
			}
		} else if (t->kind == TOK_DQ) {
			if (o + 1 < size)
				out[o++] = '\'';  /* "\047" is the only one */
		}
		k++;
		if (k + 1 < nt && tok_is(&toks[k], ".") && (toks[k + 1].kind == TOK_SQ || toks[k + 1].kind == TOK_DQ))
			k++;
		else
			break;
	}
	out[o] = '\0';
	return k;
}

/* One command (a logical line); true when it opens a data block. */
static bool check_command(const char *line, size_t len)
{
	size_t nt = scan(line, len);
	int depth = 0;

	if (nt == 0)
		return false;  /* a comment or nothing */
	if (toks[0].kind == TOK_DOLLAR) {
		if (nt != 4 || !tok_is(&toks[1], "<") || toks[2].s != toks[1].s + 1 || !tok_is(&toks[2], "<") ||
		    !tok_is(&toks[3], "EOD"))
			fail("a data block not opened as $NAME << EOD", line, len);
		return true;
	}
	if (!(tok_is(&toks[0], "set") || tok_is(&toks[0], "unset") || tok_is(&toks[0], "plot") ||
	      tok_is(&toks[0], "if")))
		fail("a command the writer does not write", line, len);
	for (size_t k = 0; k < nt; k++) {
		const struct tok *t = &toks[k];
		if (tok_is(t, "EOD"))
			fail("EOD outside a data block's opening", line, len);
		if (tok_is(t, "output") && (k + 1 >= nt || !tok_is(&toks[k + 1], "outfile") || k + 2 != nt))
			fail("set output to anything but outfile", line, len);
		if (tok_is(t, "outfile") && k + 2 < nt && tok_is(&toks[k + 1], "=")) {
			char value[8];
			if (toks[k + 2].kind != TOK_SQ && toks[k + 2].kind != TOK_DQ)
				fail("outfile set to something other than a string", line, len);
			if (string_value(nt, k + 2, value, sizeof value) != nt)
				fail("more after the outfile string", line, len);
			if (value[0] == '|')
				fail("an outfile gnuplot would open as a pipe", line, len);
		}
	}
	if (!tok_is(&toks[0], "plot"))
		return false;
	/* each plot element reads a data block or '' (the one before): never
	 * a file, never '<command'. Elements are split by commas outside
	 * parentheses, but for the one of `offset char X,Y`. */
	for (size_t k = 0; k < nt; k++) {
		const struct tok *t = &toks[k];
		bool element = k == 0 || (depth == 0 && tok_is(&toks[k - 1], ","));
		if (element && k >= 4 && toks[k - 2].kind == TOK_NUMBER && tok_is(&toks[k - 3], "char") &&
		    tok_is(&toks[k - 4], "offset"))
			element = false;
		if (element) {
			const struct tok *src = &toks[k == 0 ? 1 : k];
			if (k == 0 && nt < 2)
				fail("a plot of nothing", line, len);
			if (!(src->kind == TOK_DOLLAR && !isdigit((unsigned char)src->s[1])) &&
			    !(src->kind == TOK_SQ && src->n == 2))
				fail("a plot element that reads neither a data block nor ''", line, len);
		}
		if (tok_is(t, "("))
			depth++;
		else if (tok_is(t, ")"))
			depth--;
	}
	return false;
}

/* One line of a data block: numbers and double-quoted fields, a space apart. */
static void check_data_line(const char *line, size_t len)
{
	size_t i = 0;
	if (len == 0)
		fail("an empty data line", line, len);
	while (i < len) {
		if (line[i] == '"') {
			size_t j = i + 1;
			for (; j < len && line[j] != '"'; j++) {
				if (line[j] != '\\')
					continue;
				if (j + 1 < len && line[j + 1] == '\\')
					j++;
				else if (len - j >= 5 && memcmp(line + j, "\\0042", 5) == 0)
					j += 4;
				else
					fail("a backslash in a data field that is not \\\\ or \\0042", line, len);
			}
			if (j >= len)
				fail("an unterminated data field", line, len);
			i = j + 1;
		} else {
			char *end;
			double v = strtod(line + i, &end);
			if (end == line + i || !isfinite(v))
				fail("a data field neither a number nor a quoted text", line, len);
			i = (size_t)(end - line);
		}
		if (i < len) {
			if (line[i] != ' ')
				fail("data fields not a space apart", line, len);
			i++;
		}
	}
}

/* The whole script, line by line as gnuplot's load_file() reads it. */
static void check_script(const char *script)
{
	const char *p = script;
	bool in_block = false;
	char *logical = NULL;
	size_t cap = 0;

	for (const char *q = script; *q; q++)
		if (((unsigned char)*q < 0x20 && *q != '\n') || (unsigned char)*q == 0x7f)
			fail("a control character", q, 1);
	if (*script == '\0' || script[strlen(script) - 1] != '\n')
		fail("a script not ending with a newline", script, strlen(script));
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = (size_t)(nl - p), len = 0;
		if (in_block) {
			/* datablock.c: the first line starting with the marker ends the block */
			if (n >= 3 && memcmp(p, "EOD", 3) == 0) {
				if (n != 3)
					fail("a data line starting with EOD", p, n);
				in_block = false;
			} else {
				check_data_line(p, n);
			}
			p = nl + 1;
			continue;
		}
		/* a line ending in '\' goes on to the next: only a plot's ", \" */
		for (;;) {
			bool more = n > 0 && p[n - 1] == '\\';
			if (more && (n < 3 || p[n - 2] != ' ' || p[n - 3] != ',' || p[0] == '#'))
				fail("a line going on to the next that is not a plot's \", \\\"", p, n);
			if (len + n + 1 > cap) {
				cap = 2 * (len + n + 1);
				logical = realloc(logical, cap);
				if (logical == NULL)
					abort();
			}
			memcpy(logical + len, p, more ? n - 1 : n);
			len += more ? n - 1 : n;
			p = nl + 1;
			if (!more)
				break;
			if (*p == '\0')
				fail("a continued line at the end", logical, len);
			nl = strchr(p, '\n');
			n = (size_t)(nl - p);
		}
		in_block = check_command(logical, len);
	}
	if (in_block)
		fail("a data block left open", script, 0);
	free(logical);
}

/* A refusal: an input error of one printable line. */
static void check_error(const struct cs_error *err)
{
	if (err->kind != ERROR_INPUT)
		abort();
	for (const char *q = err->msg; *q; q++)
		if ((unsigned char)*q < 0x20 || (unsigned char)*q == 0x7f)
			abort();
}

static void chart(const struct csvtable *t, struct plot_request *q)
{
	struct cs_error err;
	struct plot_info info;
	char *s;

	error_clear(&err);
	s = plot_script(t, q, &info, &err);
	if (s == NULL) {
		check_error(&err);
		return;
	}
	if (info.charted == 0 || info.charted > info.ok || info.ok > info.rows)
		abort();
	check_script(s);
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const double edges[] = { 0, 1, 5e-324, 1e-320, 2.5, 1e300, 1e308 };
	enum { NEDGES = sizeof edges / sizeof edges[0] };
	struct cs_error err;
	struct csvtable t;
	uint64_t h = 1469598103934665603u;

	for (size_t i = 0; i < size; i++)  /* FNV-1a: the options follow the input */
		h = (h ^ data[i]) * 1099511628211u;
	error_clear(&err);
	if (csvtable_parse(&t, (const char *)data, size, CSVTABLE_STRICT, "results", "fuzz.csv", &err) != 0)
		return 0;
	for (int naming = 0; naming < 2 && t.header != NULL && t.ncols > 0; naming++) {
		struct plot_request q;
		const char *x = t.header[h % t.ncols], *y = t.header[(h >> 8) % t.ncols];
		const char *g = t.header[(h >> 16) % t.ncols];
		char *ylist = NULL;

		memset(&q, 0, sizeof q);
		q.format = naming ? PLOT_SVG : PLOT_PNG;
		q.input = naming ? "dir/fuzz'@`$x.csv" : "fuzz.csv";
		q.image_path = naming ? "|touch pwned ' \" ` @x.svg" : "out.png";
		q.script_path = naming ? "|touch pwned ' \" ` @x.gp" : "out.gp";
		q.deadline_h = edges[(h >> 24) % NEDGES];
		q.budget_usd = edges[(h >> 28) % NEDGES];
		q.slo_ttft_ms = edges[(h >> 32) % NEDGES];
		q.slo_tpot_ms = edges[(h >> 36) % NEDGES];
		/* axis labels: a column's name (any bytes of the input), or quotes, macros and backquotes */
		q.xlabel = naming ? g : NULL;
		q.ylabel = naming ? "it's `touch pwned` @x $(y) \\" : NULL;
		/* every kind with its own columns */
		for (int k = 0; k < PLOT_KIND_COUNT; k++) {
			q.kind = (enum plot_kind)k;
			chart(&t, &q);
		}
		/* columns of the file by name */
		q.x = x;
		q.y = y;
		q.group = (h >> 40) & 1 ? g : NULL;
		for (int k = 0; k < PLOT_KIND_COUNT; k++) {
			q.kind = (enum plot_kind)k;
			chart(&t, &q);
		}
		/* a list of y columns (breakdown, latency, waits, utilization) */
		ylist = malloc(strlen(y) + strlen(g) + 2);
		if (ylist == NULL)
			abort();
		sprintf(ylist, "%s,%s", y, g);
		q.y = ylist;
		q.group = NULL;
		for (int k = 0; k < PLOT_KIND_COUNT; k++) {
			q.kind = (enum plot_kind)k;
			chart(&t, &q);
		}
		free(ylist);
		h = h * 6364136223846793005u + 1442695040888963407u;
	}
	csvtable_release(&t);
	return 0;
}
