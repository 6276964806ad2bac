#include "plot_gp.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "output/gpquote.h"
#include "output/results.h"
#include "util/text.h"
#include "util/xalloc.h"

/* An axis spanning at least this ratio (all values positive) is drawn on
 * a log scale, where equal ratios look equal. */
static const double log_ratio = 20.0;

/* Okabe and Ito's colour-blind-safe palette (2008, "Color Universal
 * Design"), its yellow replaced by grey and brown, which read on white. */
const char *const plot_gp_palette[PLOT_GP_PALETTE_N] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#555555", "#8c564b",
};
const int plot_gp_point_types[PLOT_GP_PALETTE_N] = { 7, 5, 9, 11, 13, 15, 7, 5 };

void plot_gp_sbuf_printf(struct plot_gp_sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	assert(n >= 0);
	b->s = xgrow(b->s, &b->cap, b->len + (size_t)n + 1, 1, 256);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* The string built (caller frees; "" when nothing was added). */
char *plot_gp_sbuf_take(struct plot_gp_sbuf *b)
{
	char *s = b->s != NULL ? b->s : xstrdup("");
	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

/* A number the script carries: every one is finite, since the values are
 * at most PLOT_VALUE_MAX in magnitude and the geometry is computed so as
 * not to overflow (text_format_real asserts it). */
void plot_gp_num(FILE *f, double v)
{
	char buf[48];
	text_format_real(v, buf, sizeof buf);
	fputs(buf, f);
}

const char *plot_gp_col_name(const struct plot_frame *fr, int col)
{
	return col >= 0 ? fr->t->header[col] : "";
}

const char *plot_gp_unit_of(const char *name)
{
	const struct results_column *info = results_column_info(name);
	return info != NULL ? info->unit_text : "";
}

char *plot_gp_words(const struct plot_frame *fr, int col)
{
	const char *name = plot_gp_col_name(fr, col);
	bool serving = false;
	for (size_t c = 0; c < fr->t->ncols; c++)
		serving = serving || strcmp(fr->t->header[c], "output_tok_s") == 0;
	return results_column_words(serving && strcmp(name, "usd_per_mtok") == 0 ? "usd_per_mtok_output" : name);
}

void plot_gp_set_label(FILE *f, const struct plot_frame *fr, const char *axis, const char *text)
{
	const char *given = strcmp(axis, "x") == 0 ? fr->req->xlabel : strcmp(axis, "y") == 0 ? fr->req->ylabel : NULL;
	fprintf(f, "set %slabel ", axis);
	gpquote_string(f, given != NULL ? given : text);
	fputc('\n', f);
}

void plot_gp_axis_label_set(FILE *f, const struct plot_frame *fr, const char *axis, const char *name)
{
	char *label = results_column_axis_label(name);
	plot_gp_set_label(f, fr, axis, label);
	free(label);
}

char *plot_gp_family_words(const char *col)
{
	char *w = results_column_words(col), *p = strstr(w, ", P");
	if (p != NULL && p[3] >= '0' && p[3] <= '9')
		*p = '\0';
	return w;
}

struct plot_gp_range plot_gp_range_empty(void)
{
	return (struct plot_gp_range){ INFINITY, -INFINITY };
}

void plot_gp_range_add(struct plot_gp_range *r, double v)
{
	if (v < r->lo)
		r->lo = v;
	if (v > r->hi)
		r->hi = v;
}

bool plot_gp_range_log(struct plot_gp_range r)
{
	return r.lo > 0 && r.hi >= log_ratio * r.lo;
}

/* A tick's text: "250", "2.5k", "1M", "$1.2M" (three significant digits). */
static void tick_text(double v, bool usd, char *buf, size_t size)
{
	static const struct {
		double at;
		const char *suffix;
	} si[] = { { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } };
	const char *sign = usd ? "$" : "";
	for (size_t i = 0; i < sizeof si / sizeof si[0]; i++)
		if (fabs(v) >= si[i].at && fabs(v) < 1e3 * si[0].at) {  /* past 1000T, "1e+15" */
			snprintf(buf, size, "%s%.3g%s", sign, v / si[i].at, si[i].suffix);
			return;
		}
	snprintf(buf, size, "%s%.3g", sign, v);
}

/* Decades a log axis writes a tick at, at most; past them, one decade in
 * every few (a range from 5e-324 to 1e300 would have 624). */
enum { LOG_TICKS_MAX = 12 };

/*
 * One axis: on a log scale (base 2 for counts that double, else 10) the
 * range is the data's (autoscale fix: no empty decades) and the ticks are
 * written out (1-1.5-2-3-5-7 within a decade, 1-2-5 within two, decades
 * beyond, every k-th decade past LOG_TICKS_MAX), each labelled
 * "2.5k" or "$1.2M"; on a linear scale the ticks are gnuplot's, labelled
 * the same way for big values and dollars. The offsets pad both. The
 * ticks are counted by integer exponents, so any finite positive range
 * (denormals included: 10^-324 is 0) ends; r is within PLOT_VALUE_MAX.
 */
void plot_gp_axis_setup(FILE *f, const char *axis, struct plot_gp_range r, bool log_axis, int base, bool usd)
{
	char buf[48];
	if (!log_axis) {
		if (r.hi == r.lo) {
			/* one value: a range around it (gnuplot would warn and guess
			 * one); at least DBL_MIN wide, which a denormal's tenth is not */
			double d = r.lo != 0 ? fmax(fabs(r.lo) * 0.1, DBL_MIN) : 1;
			fprintf(f, "set %srange [", axis);
			plot_gp_num(f, r.lo - d);
			fputc(':', f);
			plot_gp_num(f, r.hi + d);
			fputs("]\n", f);
		} else {
			fprintf(f, "set autoscale %sfix\n", axis);
		}
		if (usd)
			fprintf(f, "set format %s '%s'\n", axis, r.hi >= 1e4 ? "$%.1s%c" : "$%g");
		else if (r.hi >= 1e5)
			fprintf(f, "set format %s '%%.1s%%c'\n", axis);
		return;
	}
	fprintf(f, "set logscale %s %d\nset autoscale %sfix\nset %stics (", axis, base, axis, axis);
	{
		/* within a decade 1-1.5-2-3-5-7, within two 1-2-5, beyond decades */
		static const double fine[] = { 1, 1.5, 2, 3, 5, 7 }, medium[] = { 1, 2, 5 }, coarse[] = { 1 };
		const double *mult = base == 2 ? coarse : r.hi < 10 * r.lo ? fine : r.hi < 100 * r.lo ? medium : coarse;
		size_t nmult = mult == fine ? 6 : mult == medium ? 3 : 1;
		bool first = true;
		double step = base == 2 ? 2 : 10;
		int e0 = (int)floor(log(r.lo) / log(step)), e1 = (int)ceil(log(r.hi) / log(step));
		int every = e1 - e0 > LOG_TICKS_MAX ? (e1 - e0 + LOG_TICKS_MAX - 1) / LOG_TICKS_MAX : 1;
		assert(r.lo > 0 && isfinite(r.hi) && e1 - e0 < 4096);
		for (int e = e0; e <= e1; e++) {
			double d = pow(step, e);
			if ((e % every + every) % every != 0)
				continue;
			for (size_t m = 0; m < nmult; m++) {
				double v = d * mult[m];
				if (!(v >= r.lo / 1.0001 && v <= r.hi * 1.0001) || !isfinite(v))
					continue;
				tick_text(v, usd, buf, sizeof buf);
				fprintf(f, "%s'%s' ", first ? "" : ", ", buf);
				plot_gp_num(f, v);
				first = false;
			}
		}
		if (first) {  /* no round value inside: the ends */
			tick_text(r.lo, usd, buf, sizeof buf);
			fprintf(f, "'%s' ", buf);
			plot_gp_num(f, r.lo);
			tick_text(r.hi, usd, buf, sizeof buf);
			fprintf(f, ", '%s' ", buf);
			plot_gp_num(f, r.hi);
		}
	}
	fputs(")\n", f);
}

void plot_gp_title_set(FILE *f, const struct plot_frame *fr)
{
	fputs("set title ", f);
	gpquote_string(f, fr->title);
	fputs(" font ',22'\n", f);
}

/* A block of inline data: `$NAME << EOD` ... `EOD`. */
void plot_gp_block_open(FILE *f, const char *name, size_t i)
{
	fprintf(f, "$%s%zu << EOD\n", name, i);
}

void plot_gp_block_close(FILE *f)
{
	fputs("EOD\n", f);
}

/* The points of group g, sorted by x then row (borrowed from the frame); *n their count. */
const size_t *plot_gp_group_points(const struct plot_frame *fr, size_t g, size_t *n)
{
	*n = fr->group_start[g + 1] - fr->group_start[g];
	return fr->members + fr->group_start[g];
}

/* One data block per group ($group0 ...): each point's x, then its y
 * columns, in the order of group_points. */
void plot_gp_group_blocks(FILE *f, const struct plot_frame *fr)
{
	for (size_t g = 0; g < fr->ngroups; g++) {
		size_t n;
		const size_t *idx = plot_gp_group_points(fr, g, &n);
		plot_gp_block_open(f, "group", g);
		for (size_t k = 0; k < n; k++) {
			plot_gp_num(f, fr->pts[idx[k]].x);
			for (size_t c = 0; c < fr->ny; c++) {
				fputc(' ', f);
				plot_gp_num(f, fr->pts[idx[k]].y[c]);
			}
			fputc('\n', f);
		}
		plot_gp_block_close(f);
	}
}

/* The plot clause of a reference line: a two-point block drawn dashed in
 * black, its value in the legend. */
void plot_gp_ref_line_block(FILE *f, const char *name, double x0, double y0, double x1, double y1)
{
	fprintf(f, "$%s << EOD\n", name);
	plot_gp_num(f, x0);
	fputc(' ', f);
	plot_gp_num(f, y0);
	fputc('\n', f);
	plot_gp_num(f, x1);
	fputc(' ', f);
	plot_gp_num(f, y1);
	fputc('\n', f);
	plot_gp_block_close(f);
}

/* A limit the user gave (deadline, SLO): dark red, dashed; a budget: dark
 * green, dash-dotted, so the two read apart where both are drawn. */
const char plot_gp_deadline_style[] = "dt 2 lw 4 lc rgb '#b2182b'";
const char plot_gp_budget_style[] = "dt 4 lw 4 lc rgb '#1b7837'";

void plot_gp_ref_line_plot(FILE *f, const char *name, const char *title, const char *style)
{
	fprintf(f, ", \\\n     $%s using 1:2 with lines %s title ", name, style);
	gpquote_string(f, title);
}

/* Whole dollars with thousands separators: "$1,500,000" (cents below $100).
 * Caller frees. */
char *plot_gp_usd_text(double v)
{
	char buf[TEXT_USD_MAX];
	text_usd_cents(v, 100, buf, sizeof buf);
	return xstrdup(buf);
}

/* A latency column's family: "ttft_p99_ms" -> "ttft" (the name before
 * "_p" and a digit), else the whole name. */
size_t plot_gp_family_len(const char *col)
{
	for (const char *p = col; (p = strstr(p, "_p")) != NULL; p++)
		if (p[2] >= '0' && p[2] <= '9')
			return (size_t)(p - col);
	return strlen(col);
}

/* The percentile part of a latency column for a legend: "ttft_p99_ms" -> "p99".
 * Caller frees. */
char *plot_gp_percentile_name(const char *col)
{
	size_t fl = plot_gp_family_len(col), n;
	const char *p = col + fl + (col[fl] == '_');
	n = strcspn(p, "_");
	return n ? xstrndup(p, n) : xstrdup(col);
}

/* A name the script carries (a column's, a file's) with a control
 * character, which no quoting would show as it is: an input error naming
 * it (escaped) after what. */
int plot_gp_refuse_control(const char *name, const char *what, struct cs_error *err)
{
	char shown[80];
	size_t at;
	if (!gpquote_has_control(name, &at))
		return 0;
	text_quote(name, shown, sizeof shown);
	return error_set(err, "%s %s: a control character (byte 0x%02x at offset %zu) in the name, which plot "
			 "refuses", what, shown, (unsigned)(unsigned char)name[at], at);
}
