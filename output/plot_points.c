#include "plot_points.h"

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
#include "output/plot_gp.h"
#include "output/plot_groups.h"
#include "util/text.h"
#include "util/xalloc.h"

static int find_col(const struct csvtable *t, const char *name, size_t len)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (strlen(t->header[c]) == len && strncmp(t->header[c], name, len) == 0)
			return (int)c;
	return -1;
}

/* Why a column is needed, for the message naming it when it is missing. */
static void missing(struct cs_error *err, const struct plot_frame *fr, const char *name, size_t len,
		    const char *option)
{
	if (option != NULL)
		error_set(err, "results '%s': no column '%.*s' (given to %s)", fr->req->input, (int)len, name, option);
	else
		error_set(err, "results '%s': no column '%.*s' (the %s chart needs it; --x or --y chooses another)",
			  fr->req->input, (int)len, name, fr->kind_name);
}

/* One column spec ("a", or "a|b": the first the file has) into *col. */
static int resolve_one(const struct plot_frame *fr, const char *spec, size_t len, const char *option, int *col,
		       struct cs_error *err)
{
	const char *p = spec, *end = spec + len;
	while (p < end) {
		const char *bar = memchr(p, '|', (size_t)(end - p));
		size_t n = bar != NULL ? (size_t)(bar - p) : (size_t)(end - p);
		if ((*col = find_col(fr->t, p, n)) >= 0)
			return 0;
		p += n + (bar != NULL);
	}
	missing(err, fr, spec, strcspn(spec, "|") < len ? strcspn(spec, "|") : len, option);
	return -1;
}

/* Whether any row has a value in column c: a frac_ column that is empty
 * everywhere (frac_data_stall without a data block) is not modelled for
 * these rows, not a zero share, and gets no bar segment. */
static bool column_has_value(const struct csvtable *t, size_t c)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (c < t->rows[i].ncells && t->rows[i].cells[c] != NULL && t->rows[i].cells[c][0] != '\0')
			return true;
	return false;
}

/* The y columns of a comma list ("frac_*": every frac_ column with a value). */
static int resolve_y(struct plot_frame *fr, const char *list, const char *option, struct cs_error *err)
{
	const char *p = list;
	fr->ny = 0;
	for (;;) {
		size_t n = strcspn(p, ",");
		if (n == 0)
			return error_set(err, "%s: an empty column name in '%s'", option ? option : "--y", list);
		if (n == 6 && strncmp(p, "frac_*", 6) == 0) {
			size_t before = fr->ny;
			for (size_t c = 0; c < fr->t->ncols && fr->ny < PLOT_Y_MAX; c++)
				if (strncmp(fr->t->header[c], "frac_", 5) == 0 && column_has_value(fr->t, c))
					fr->y_cols[fr->ny++] = (int)c;
			if (fr->ny == before) {
				missing(err, fr, "frac_compute", strlen("frac_compute"), option);
				return -1;
			}
		} else {
			if (fr->ny == PLOT_Y_MAX)
				return error_set(err, "%s: at most %d columns, got more in '%s'", option ? option : "--y",
						 PLOT_Y_MAX, list);
			if (resolve_one(fr, p, n, option, &fr->y_cols[fr->ny], err) < 0)
				return -1;
			fr->ny++;
		}
		if (p[n] == '\0')
			return 0;
		p += n + 1;
	}
}

/* Every column the chart draws by its name (axis labels, legends, the
 * script's comments) is free of control characters. */
static int check_column_names(const struct plot_frame *fr, struct cs_error *err)
{
	char *what = xasprintf("results '%s': column", fr->req->input);
	int cols[PLOT_Y_MAX + 3], n = 0, rc = 0;

	cols[n++] = fr->x_col;
	cols[n++] = fr->label_col;
	cols[n++] = fr->group_col;
	for (size_t k = 0; k < fr->ny; k++)
		cols[n++] = fr->y_cols[k];
	for (int k = 0; k < n && rc == 0; k++)
		if (cols[k] >= 0)
			rc = plot_gp_refuse_control(fr->t->header[cols[k]], what, err);
	free(what);
	return rc;
}

int plot_points_columns(struct plot_frame *fr, struct cs_error *err)
{
	const struct plot_request *q = fr->req;
	const struct plot_kind_spec *s = fr->spec;
	bool bars = s->x == NULL && q->kind != PLOT_SCATTER;
	const char *label = bars && q->x != NULL ? q->x : s->label;

	fr->x_col = fr->label_col = fr->group_col = -1;
	fr->id_col = find_col(fr->t, "row_id", 6);
	fr->cand_col = find_col(fr->t, "candidate", 9);
	if (q->kind == PLOT_SCATTER && (q->x == NULL || q->y == NULL))
		return error_set(err, "plot: the scatter chart needs --x COLUMN and --y COLUMN");
	if (!bars && resolve_one(fr, q->x ? q->x : s->x, strlen(q->x ? q->x : s->x), q->x ? "--x" : NULL, &fr->x_col,
				 err) < 0)
		return -1;
	{
		const char *y = q->y ? q->y : s->y;
		/* team-cost: stacked own and idle dollars when the file has idle_usd, plain bars else */
		if (q->kind == PLOT_TEAM_COST && q->y == NULL && find_col(fr->t, "idle_usd", 8) < 0)
			y = "usd_total";
		if (resolve_y(fr, y, q->y ? "--y" : NULL, err) < 0)
			return -1;
	}
	if (q->kind == PLOT_TEAM_COST && fr->ny > 2)
		return error_set(err, "--y: the team-cost chart takes one or two columns (a total and its idle "
				 "share), got %zu", fr->ny);
	if ((q->kind == PLOT_PARETO || q->kind == PLOT_SCALING || q->kind == PLOT_COST || q->kind == PLOT_SCATTER) &&
	    fr->ny != 1)
		return error_set(err, "--y: the %s chart takes one column, got %zu", fr->kind_name, fr->ny);
	if (q->group != NULL) {
		if (resolve_one(fr, q->group, strlen(q->group), "--group", &fr->group_col, err) < 0)
			return -1;
	} else if (s->group != NULL) {
		fr->group_col = find_col(fr->t, s->group, strlen(s->group));  /* only when present */
	}
	if (bars) {
		if (resolve_one(fr, label, strlen(label), q->x ? "--x" : NULL, &fr->label_col, err) < 0)
			return -1;
	} else {
		fr->label_col = find_col(fr->t, label, strlen(label));
	}
	return check_column_names(fr, err);
}

/* A numeric cell: 0 with *v, 1 when empty, -1 (with err) when not a finite
 * number or over PLOT_VALUE_MAX in magnitude. */
static int cell_number(const struct plot_frame *fr, const struct csvtable_row *row, int col, double *v,
		       struct cs_error *err)
{
	const char *s = row->cells[col];
	char *end, shown[80];
	if (s[0] == '\0')
		return 1;
	*v = strtod(s, &end);
	if (end != s && *end == '\0' && isfinite(*v) && fabs(*v) <= PLOT_VALUE_MAX)
		return 0;
	text_quote(s, shown, sizeof shown);
	if (end != s && *end == '\0' && isfinite(*v))
		return error_set(err, "results '%s': line %zu: column '%s': %s is too large to chart (at most 1e300 "
				 "in magnitude)", fr->req->input, row->line, fr->t->header[col], shown);
	return error_set(err, "results '%s': line %zu: column '%s': expected a number, got %s", fr->req->input,
			 row->line, fr->t->header[col], shown);
}

/* Statuses seen on rows that are not ok, for the message when none is. */
struct status_count {
	const char *name;   /* borrowed from the table */
	size_t n;
};

static void count_status(struct status_count *sc, size_t *nsc, size_t max, const char *status)
{
	for (size_t i = 0; i < *nsc; i++)
		if (strcmp(sc[i].name, status) == 0) {
			sc[i].n++;
			return;
		}
	if (*nsc < max) {
		sc[*nsc].name = status;
		sc[(*nsc)++].n = 1;
	}
}

static int nothing_to_chart(const struct plot_frame *fr, const struct plot_info *info, const struct status_count *sc,
			    size_t nsc, struct cs_error *err)
{
	struct plot_gp_sbuf b = { 0 };
	char *what;
	if (info->rows == 0)
		return error_set(err, "results '%s': no rows to chart (only a header)", fr->req->input);
	if (info->ok == 0) {
		for (size_t i = 0; i < nsc; i++) {
			char shown[80];
			/* a status as it is, unless the message would not stay one line */
			if (sc[i].name[0] == '\0')
				snprintf(shown, sizeof shown, "(empty)");
			else if (gpquote_has_control(sc[i].name, NULL) || strlen(sc[i].name) > 60)
				text_quote(sc[i].name, shown, sizeof shown);
			else
				snprintf(shown, sizeof shown, "%s", sc[i].name);
			plot_gp_sbuf_printf(&b, "%s%zu %s", i ? ", " : "", sc[i].n, shown);
		}
		what = plot_gp_sbuf_take(&b);
		error_set(err, "results '%s': no row has status ok, nothing to chart (%zu rows: %s)", fr->req->input,
			  info->rows, what);
		free(what);
		return -1;
	}
	return error_set(err, "results '%s': none of the %zu rows with status ok has a value in '%s', nothing to chart",
			 fr->req->input, info->ok, info->no_value_column);
}

/* The rows with status ok and a value in every column the chart reads. */
int plot_points_read(struct plot_frame *fr, struct plot_info *info, struct cs_error *err)
{
	const struct csvtable *t = fr->t;
	int status_col = find_col(t, "status", 6);
	struct status_count sc[8];
	size_t nsc = 0, not_team = 0;
	int team_col = fr->spec->team_rows ? fr->label_col : -1, class_col = find_col(t, "class", 5);
	const char *first_cand = NULL;

	fr->pts = xcalloc(t->nrows ? t->nrows : 1, sizeof *fr->pts);
	fr->yv = xcalloc(t->nrows ? t->nrows * fr->ny : 1, sizeof *fr->yv);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct csvtable_row *row = &t->rows[r];
		struct plot_point *pt = &fr->pts[fr->n];
		int empty = 0, rc;
		int empty_col = -1;

		info->rows++;
		/* a file without a status column (a user's own CSV) has every row charted */
		if (status_col >= 0 && strcmp(row->cells[status_col], "ok") != 0) {
			count_status(sc, &nsc, sizeof sc / sizeof sc[0], row->cells[status_col]);
			continue;
		}
		/* a fleet's team rows: its own row (no team) and its classes' rows are not charted */
		if (team_col >= 0 && (row->cells[team_col][0] == '\0' ||
				      (class_col >= 0 && row->cells[class_col][0] != '\0'))) {
			not_team++;
			continue;
		}
		if (team_col >= 0 && fr->cand_col >= 0) {
			if (first_cand == NULL)
				first_cand = row->cells[fr->cand_col];
			else if (strcmp(first_cand, row->cells[fr->cand_col]) != 0)
				fr->multi_candidate = true;
		}
		info->ok++;
		memset(pt, 0, sizeof *pt);
		pt->row = r;
		pt->y = fr->yv + fr->n * fr->ny;
		if (fr->x_col >= 0 && (rc = cell_number(fr, row, fr->x_col, &pt->x, err)) != 0) {
			if (rc < 0)
				return -1;
			empty = 1;
			empty_col = fr->x_col;
		}
		for (size_t k = 0; k < fr->ny && !empty; k++) {
			if ((rc = cell_number(fr, row, fr->y_cols[k], &pt->y[k], err)) < 0)
				return -1;
			if (rc > 0) {
				empty = 1;
				empty_col = fr->y_cols[k];
			}
		}
		if (empty) {
			if (info->no_value++ == 0)
				info->no_value_column = t->header[empty_col];
			continue;
		}
		fr->n++;
	}
	if (fr->n == 0 && info->ok == 0 && not_team > 0)
		return error_set(err, "results '%s': no team rows (a fleet's rows with team set and class empty), "
				 "nothing to chart for the %s chart", fr->req->input, fr->kind_name);
	if (fr->n == 0)
		return nothing_to_chart(fr, info, sc, nsc, err);
	return 0;
}

/* The row's own name: its label column's cell, else its row_id, else its line. Caller frees. */
static char *base_label(const struct plot_frame *fr, const struct plot_point *p)
{
	const struct csvtable_row *row = &fr->t->rows[p->row];
	if (fr->multi_candidate && fr->cand_col >= 0 && fr->label_col >= 0)
		return xasprintf("%s / %s", row->cells[fr->cand_col], row->cells[fr->label_col]);
	if (fr->label_col >= 0 && row->cells[fr->label_col][0] != '\0')
		return xstrdup(row->cells[fr->label_col]);
	if (fr->id_col >= 0 && row->cells[fr->id_col][0] != '\0')
		return xasprintf("row %s", row->cells[fr->id_col]);
	return xasprintf("line %zu", row->line);
}

static const char *group_cell(const struct plot_frame *fr, const struct plot_point *p)
{
	const char *s = fr->group_col >= 0 ? fr->t->rows[p->row].cells[fr->group_col] : "";
	return s[0] != '\0' ? s : fr->group_col >= 0 ? "(none)" : "";
}

static const struct plot_frame *sort_frame;

/* Order for finding duplicates: label, group, x, y..., then row. */
static int cmp_dup(const void *a, const void *b)
{
	const struct plot_point *p = &sort_frame->pts[*(const size_t *)a], *q = &sort_frame->pts[*(const size_t *)b];
	int c = strcmp(p->label, q->label);
	if (c == 0)
		c = strcmp(group_cell(sort_frame, p), group_cell(sort_frame, q));
	if (c == 0 && p->x != q->x)
		c = p->x < q->x ? -1 : 1;
	for (size_t k = 0; c == 0 && k < sort_frame->ny; k++)
		if (p->y[k] != q->y[k])
			c = p->y[k] < q->y[k] ? -1 : 1;
	if (c == 0)
		c = p->row < q->row ? -1 : p->row > q->row;
	return c;
}

static bool same_point(const struct plot_frame *fr, const struct plot_point *p, const struct plot_point *q)
{
	if (strcmp(p->label, q->label) != 0 || strcmp(group_cell(fr, p), group_cell(fr, q)) != 0 || p->x != q->x)
		return false;
	for (size_t k = 0; k < fr->ny; k++)
		if (p->y[k] != q->y[k])
			return false;
	return true;
}

/* Order by label, then row. */
static int cmp_label(const void *a, const void *b)
{
	const struct plot_point *p = &sort_frame->pts[*(const size_t *)a], *q = &sort_frame->pts[*(const size_t *)b];
	int c = strcmp(p->label, q->label);
	return c != 0 ? c : p->row < q->row ? -1 : p->row > q->row;
}

/* Give each run of equal labels more of its row: first the sweep point's
 * set: values (a sweep repeats a candidate's name at every point), then
 * the row_id. O(n log n) plus the set: cells of the points relabelled. */
static void disambiguate(struct plot_frame *fr, int pass)
{
	size_t *idx = xcalloc(fr->n ? fr->n : 1, sizeof *idx);
	size_t *set_cols = xcalloc(fr->t->ncols ? fr->t->ncols : 1, sizeof *set_cols), nset = 0;

	for (size_t c = 0; c < fr->t->ncols; c++)
		if (strncmp(fr->t->header[c], "set:", 4) == 0)
			set_cols[nset++] = c;
	for (size_t i = 0; i < fr->n; i++)
		idx[i] = i;
	sort_frame = fr;
	qsort(idx, fr->n, sizeof *idx, cmp_label);
	for (size_t a = 0; a < fr->n;) {
		size_t b = a + 1;
		while (b < fr->n && strcmp(fr->pts[idx[a]].label, fr->pts[idx[b]].label) == 0)
			b++;
		for (size_t k = a; b - a > 1 && k < b; k++) {
			struct plot_point *p = &fr->pts[idx[k]];
			const struct csvtable_row *row = &fr->t->rows[p->row];
			struct plot_gp_sbuf extra = { 0 };
			char *e;
			if (pass == 0) {
				for (size_t c = 0; c < nset; c++)
					plot_gp_sbuf_printf(&extra, "%s%s", c ? ", " : "", row->cells[set_cols[c]]);
			} else if (fr->id_col >= 0) {
				plot_gp_sbuf_printf(&extra, "row %s", row->cells[fr->id_col]);
			} else {
				plot_gp_sbuf_printf(&extra, "line %zu", row->line);
			}
			e = plot_gp_sbuf_take(&extra);
			if (e[0] != '\0') {
				char *l = xasprintf("%s [%s]", p->label, e);
				free(p->label);
				p->label = l;
			}
			free(e);
		}
		a = b;
	}
	free(set_cols);
	free(idx);
}

struct by_group {
	size_t group;
	double x;
	size_t row, i;
};

static int cmp_by_group(const void *a, const void *b)
{
	const struct by_group *p = a, *q = b;
	if (p->group != q->group)
		return p->group < q->group ? -1 : 1;
	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return p->row < q->row ? -1 : p->row > q->row;
}

/* Each point's group (plot_groups) and the points of each group sorted by
 * x then row (frame.members), in one sort. */
static void make_groups(struct plot_frame *fr)
{
	const char **names = xcalloc(fr->n ? fr->n : 1, sizeof *names);
	size_t *group_of = xcalloc(fr->n ? fr->n : 1, sizeof *group_of);
	struct by_group *r = xcalloc(fr->n ? fr->n : 1, sizeof *r);
	const char *all = fr->ny == 1 ? plot_gp_col_name(fr, fr->y_cols[0]) : "rows";

	for (size_t i = 0; i < fr->n; i++)
		names[i] = fr->group_col >= 0 ? group_cell(fr, &fr->pts[i]) : all;
	fr->ngroups = plot_groups(names, fr->n, group_of);
	fr->groups = xcalloc(fr->ngroups ? fr->ngroups : 1, sizeof *fr->groups);
	fr->group_start = xcalloc(fr->ngroups + 1, sizeof *fr->group_start);
	fr->members = xcalloc(fr->n ? fr->n : 1, sizeof *fr->members);
	for (size_t i = 0; i < fr->n; i++) {
		size_t g = group_of[i];
		fr->pts[i].group = g;
		if (fr->groups[g] == NULL)
			fr->groups[g] = xstrdup(names[i]);
		r[i] = (struct by_group){ g, fr->pts[i].x, fr->pts[i].row, i };
		fr->group_start[g + 1]++;
	}
	for (size_t g = 0; g < fr->ngroups; g++)
		fr->group_start[g + 1] += fr->group_start[g];
	qsort(r, fr->n, sizeof *r, cmp_by_group);
	for (size_t k = 0; k < fr->n; k++)
		fr->members[k] = r[k].i;
	free(r);
	free(group_of);
	free(names);
}

/* Labels, duplicates dropped, groups: the points as the chart draws them. */
void plot_points_shape(struct plot_frame *fr, struct plot_info *info)
{
	size_t *idx = xcalloc(fr->n ? fr->n : 1, sizeof *idx), m = 0;

	for (size_t i = 0; i < fr->n; i++) {
		fr->pts[i].label = base_label(fr, &fr->pts[i]);
		idx[i] = i;
	}
	/* a point equal to an earlier one in every coordinate drawn (a sweep
	 * repeats the candidates it does not vary at every point) is dropped */
	sort_frame = fr;
	qsort(idx, fr->n, sizeof *idx, cmp_dup);
	for (size_t k = 1; k < fr->n; k++)
		if (same_point(fr, &fr->pts[idx[k - 1]], &fr->pts[idx[k]]))
			fr->pts[idx[k]].dropped = true;
	free(idx);
	for (size_t i = 0; i < fr->n; i++) {
		if (fr->pts[i].dropped) {
			free(fr->pts[i].label);
			continue;
		}
		fr->pts[m++] = fr->pts[i];
	}
	fr->n = m;
	info->charted = m;
	disambiguate(fr, 0);
	disambiguate(fr, 1);
	make_groups(fr);
}

/* "TITLE: SCENARIO" when every charted row has one scenario, else "TITLE: FILE". */
void plot_points_title(struct plot_frame *fr)
{
	const struct plot_request *q = fr->req;
	int sc = find_col(fr->t, "scenario", 8);
	const char *name = NULL, *slash;
	char *custom = NULL;
	const char *title = fr->spec->title;

	for (size_t i = 0; sc >= 0 && i < fr->n; i++) {
		const char *s = fr->t->rows[fr->pts[i].row].cells[sc];
		if (name == NULL)
			name = s;
		else if (strcmp(name, s) != 0) {
			name = NULL;
			break;
		}
	}
	if (name == NULL || name[0] == '\0') {
		slash = strrchr(q->input, '/');
		name = strcmp(q->input, "-") == 0 ? "standard input" : slash ? slash + 1 : q->input;
	}
	if (q->kind == PLOT_COST) {
		/* the bars' column in words: per million output tokens, or all tokens */
		custom = plot_gp_words(fr, fr->y_cols[0]);
		title = custom;
	} else if (title == NULL || q->x != NULL || q->y != NULL) {
		if (fr->x_col >= 0)
			custom = xasprintf("%s against %s", plot_gp_col_name(fr, fr->y_cols[0]), plot_gp_col_name(fr, fr->x_col));
		else
			custom = xasprintf("%s by %s", plot_gp_col_name(fr, fr->y_cols[0]), plot_gp_col_name(fr, fr->label_col));
		title = q->kind == PLOT_SCATTER || q->kind == PLOT_SCALING ? custom : title;
	}
	fr->title = xasprintf("%s: %s", title, name);
	free(custom);
}
