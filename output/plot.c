#include "plot.h"

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
#include "output/plot_bars.h"
#include "output/plot_frame.h"
#include "output/plot_gp.h"
#include "output/plot_lines.h"
#include "output/plot_pareto.h"
#include "output/plot_points.h"
#include "util/xalloc.h"

const char *const plot_kind_names[PLOT_KIND_COUNT + 1] = {
	[PLOT_PARETO] = "pareto",
	[PLOT_BREAKDOWN] = "breakdown",
	[PLOT_SCALING] = "scaling",
	[PLOT_LATENCY] = "latency",
	[PLOT_COST] = "cost",
	[PLOT_SCATTER] = "scatter",
	[PLOT_WAITS] = "waits",
	[PLOT_TEAM_COST] = "team-cost",
	[PLOT_UTILIZATION] = "utilization",
	[PLOT_KIND_COUNT] = NULL,
};

static const struct plot_kind_spec kinds[PLOT_KIND_COUNT] = {
	[PLOT_PARETO] = { .title = "Wall time and cost, Pareto front", .x = "wall_time_p50_h",
			  .y = "cost_usd_p50", .group = "gpu", .label = "candidate", .emit = plot_pareto_emit },
	[PLOT_BREAKDOWN] = { .title = "Where held GPU time goes", .x = NULL, .y = "frac_*",
			     .group = NULL, .label = "candidate", .emit = plot_bars_breakdown },
	[PLOT_SCALING] = { .title = "Scaling with GPU count", .x = "gpus", .y = "tokens_per_s|throughput_tok_s",
			   .group = "gpu", .label = "candidate", .emit = plot_lines_scaling },
	[PLOT_LATENCY] = { .title = "Serving latency against load", .x = "rate_per_s",
			   .y = "ttft_p50_ms,ttft_p99_ms,tpot_p50_ms,tpot_p99_ms", .group = "candidate",
			   .label = "candidate", .emit = plot_lines_latency },
	/* titled by its column's words: which tokens the cost is per (output, or prompt and output) */
	[PLOT_COST] = { .title = NULL, .x = NULL, .y = "usd_per_mtok_output|usd_per_mtok", .group = NULL,
			.label = "candidate", .emit = plot_bars_cost },
	[PLOT_SCATTER] = { .title = NULL, .x = NULL, .y = NULL, .group = NULL, .label = "candidate",
			   .emit = plot_lines_scatter },
	[PLOT_WAITS] = { .title = "Queue wait per team", .x = NULL,
			 .y = "queue_wait_p50_h,queue_wait_p90_h,queue_wait_p99_h", .group = NULL, .label = "team",
			 .emit = plot_bars_waits, .team_rows = true },
	[PLOT_TEAM_COST] = { .title = "Dollars per team", .x = NULL, .y = "usd_total,idle_usd", .group = NULL,
			     .label = "team", .emit = plot_bars_team_cost, .team_rows = true },
	[PLOT_UTILIZATION] = { .title = "Utilization over time", .x = "time_h",
			       .y = "allocated_frac,busy_frac,queued_jobs", .group = "candidate", .label = "candidate",
			       .emit = plot_lines_utilization },
};

bool plot_kind_parse(const char *name, enum plot_kind *out)
{
	for (int k = 0; k < PLOT_KIND_COUNT; k++)
		if (strcmp(name, plot_kind_names[k]) == 0) {
			*out = (enum plot_kind)k;
			return true;
		}
	return false;
}

bool plot_format_of(const char *path, enum plot_format *out)
{
	size_t n = strlen(path);
	if (n > 4 && strcasecmp(path + n - 4, ".png") == 0) {
		*out = PLOT_PNG;
		return true;
	}
	if (n > 4 && strcasecmp(path + n - 4, ".svg") == 0) {
		*out = PLOT_SVG;
		return true;
	}
	return false;
}

/* The legend's entries, at most: a group's (one per y column where each
 * draws several lines), plus the reference lines and the front. */
static size_t legend_entries(const struct plot_frame *fr)
{
	size_t per_group = fr->req->kind == PLOT_LATENCY || fr->req->kind == PLOT_UTILIZATION ? fr->ny : 1;
	return fr->ngroups * per_group + fr->ny + 3;
}

/*
 * The picture's height: PLOT_HEIGHT_PX, taller by a line (30 pixels) for
 * each row past two that a legend below the plot needs, so that gnuplot,
 * which shrinks the plot to make room for its key, never squeezes it
 * flat nor pushes the key out of the picture. A row holds as many entries
 * as fit across (an 18-point character about 11 pixels, the sample line
 * and gaps 100). At most PLOT_HEIGHT_MAX_PX.
 */
static int canvas_height(const struct plot_frame *fr)
{
	size_t longest = 0, n = legend_entries(fr), per_row, rows;
	for (size_t g = 0; g < fr->ngroups; g++) {
		size_t l = strlen(fr->groups[g]) + 8;  /* and " p99" or the like */
		longest = l > longest ? l : longest;
	}
	per_row = (size_t)(PLOT_WIDTH_PX - 100) / (longest * 11 + 100);
	per_row = per_row > 0 ? per_row : 1;
	rows = (n + per_row - 1) / per_row;
	if (rows <= 2)
		return PLOT_HEIGHT_PX;
	return rows - 2 > (size_t)(PLOT_HEIGHT_MAX_PX - PLOT_HEIGHT_PX) / 30 ? PLOT_HEIGHT_MAX_PX
									     : PLOT_HEIGHT_PX + (int)(rows - 2) * 30;
}

static void preamble(FILE *f, const struct plot_frame *fr, const struct plot_info *info)
{
	int height = canvas_height(fr);
	const struct plot_request *q = fr->req;
	fprintf(f, "# clustersim plot --chart %s of '", plot_kind_names[q->kind]);
	gpquote_comment(f, q->input);
	fprintf(f, "': %zu points from the %zu of %zu rows with status ok\n", info->charted, info->ok, info->rows);
	fputs("# columns:", f);
	if (fr->x_col >= 0) {
		fputs(" x ", f);
		gpquote_comment(f, plot_gp_col_name(fr, fr->x_col));
		fputc(',', f);
	}
	fputs(" y", f);
	for (size_t k = 0; k < fr->ny; k++) {
		fputs(k ? ", " : " ", f);
		gpquote_comment(f, plot_gp_col_name(fr, fr->y_cols[k]));
	}
	if (fr->label_col >= 0) {
		fputs(", label ", f);
		gpquote_comment(f, plot_gp_col_name(fr, fr->label_col));
	}
	if (fr->group_col >= 0) {
		fputs(", group ", f);
		gpquote_comment(f, plot_gp_col_name(fr, fr->group_col));
	}
	fputs("\n# render: gnuplot '", f);
	gpquote_comment(f, q->script_path != NULL ? q->script_path : "FILE.gp");
	fputs("' writes '", f);
	gpquote_comment(f, q->image_path);
	fputs("' (gnuplot -e \"outfile='other.png'\" ... writes another file)\n", f);
	fputs("if (!exists(\"outfile\")) outfile = ", f);
	gpquote_file(f, q->image_path);
	fputc('\n', f);
	if (q->format == PLOT_SVG)
		fprintf(f, "set terminal svg size %d,%d dynamic font 'Sans,%d' noenhanced background rgb 'white'\n",
			PLOT_WIDTH_PX, height, PLOT_FONT_PT);
	else
		fprintf(f, "set terminal pngcairo size %d,%d font 'Sans,%d' noenhanced background rgb 'white'\n",
			PLOT_WIDTH_PX, height, PLOT_FONT_PT);
	fputs("set output outfile\nset encoding utf8\nset grid lw 1 lc rgb '#cccccc'\nset border lw 1.5\n", f);
	for (size_t i = 0; i < PLOT_GP_PALETTE_N; i++)
		fprintf(f, "set linetype %zu lc rgb '%s' lw 3 pt %d ps 2\n", i + 1, plot_gp_palette[i], plot_gp_point_types[i]);
	fprintf(f, "set linetype cycle %d\n", PLOT_GP_PALETTE_N);
}

static void frame_release(struct plot_frame *fr)
{
	for (size_t i = 0; i < fr->n; i++)
		free(fr->pts[i].label);
	free(fr->pts);
	free(fr->yv);
	for (size_t g = 0; g < fr->ngroups; g++)
		free(fr->groups[g]);
	free(fr->groups);
	free(fr->members);
	free(fr->group_start);
	free(fr->title);
}

/* What the request carries into the script besides the table: the file
 * names and the column options without control characters, the values
 * within PLOT_VALUE_MAX. */
static int check_request(const struct plot_request *req, struct cs_error *err)
{
	const struct {
		const char *option;
		double v;
	} values[] = {
		{ "--deadline-h", req->deadline_h },
		{ "--budget-usd", req->budget_usd },
		{ "--slo-ttft-ms", req->slo_ttft_ms },
		{ "--slo-tpot-ms", req->slo_tpot_ms },
	};
	const struct {
		const char *what, *name;
	} names[] = {
		{ "plot: the results file", req->input },
		{ "plot: the image", req->image_path },
		{ "plot: the script", req->script_path },
		{ "--x", req->x },
		{ "--y", req->y },
		{ "--group", req->group },
		{ "--xlabel", req->xlabel },
		{ "--ylabel", req->ylabel },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].name != NULL && plot_gp_refuse_control(names[i].name, names[i].what, err) < 0)
			return -1;
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
		if (!(fabs(values[i].v) <= PLOT_VALUE_MAX))
			return error_set(err, "%s: %g is too large to chart (at most 1e300)", values[i].option,
					 values[i].v);
	return 0;
}

char *plot_script(const struct csvtable *t, const struct plot_request *req, struct plot_info *info,
		  struct cs_error *err)
{
	struct plot_frame fr;
	char *buf = NULL;
	size_t len = 0, rows_max = req->rows_max ? req->rows_max : PLOT_ROWS_MAX;
	FILE *f;

	memset(&fr, 0, sizeof fr);
	memset(info, 0, sizeof *info);
	fr.t = t;
	fr.req = req;
	fr.spec = &kinds[req->kind];
	fr.kind_name = plot_kind_names[req->kind];
	if (check_request(req, err) < 0)
		return NULL;
	if (t->header == NULL) {
		error_set(err, "results '%s': no header line, nothing to chart", req->input);
		return NULL;
	}
	if (t->nrows > rows_max) {
		error_set(err, "results '%s': %zu rows, more than plot charts (at most %zu)", req->input, t->nrows,
			  rows_max);
		return NULL;
	}
	if (plot_points_columns(&fr, err) < 0 || plot_points_read(&fr, info, err) < 0) {
		frame_release(&fr);
		return NULL;
	}
	plot_points_shape(&fr, info);
	plot_points_title(&fr);
	f = open_memstream(&buf, &len);
	if (f == NULL) {
		frame_release(&fr);
		error_runtime(err, "plot: out of memory");
		return NULL;
	}
	preamble(f, &fr, info);
	fr.spec->emit(f, &fr);
	fclose(f);
	frame_release(&fr);
	return buf;
}
