#include "sweep_resume.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/sweep/sweep_point.h"
#include "cli/sweep/sweep_sink.h"
#include "output/csvreader.h"
#include "output/outfile.h"
#include "output/writer.h"
#include "util/text.h"
#include "util/xalloc.h"

/*
 * A group is a run of consecutive rows of one point of this shard (rows of
 * other shards and rows without a row_id of this sweep are skipped). Only a
 * group whose point comes after that of the last group counts, so each point
 * has at most one and the kept ones come in point order; a point seen again
 * later (a file given twice) is dropped, as merge drops repeated rows.
 */
struct sweep_resume {
	const struct sweep_run *run;
	struct sweep_resume_shard sh;
	unsigned char *kept;         /* a bit per shard index, set when FILE holds it complete */
	uint64_t nkept;
	const char *file;
	FILE *f;
	struct csvreader r;
	bool open;
	struct csvtable_row ahead;   /* the first row of the next group, when has_ahead */
	uint64_t ahead_k;
	bool has_ahead;
	uint64_t last_k;             /* the point of the last group in order */
	bool any;
};

/*
 * What the rows of a point must be: the expected head of each row it yields
 * (scenario, candidate, row_id, seed, the set:PATH cells and the
 * fingerprint), and the rows of the group that matched so far.
 */
struct point_check {
	rowset *expect;
	rowset *rows;                /* the group's rows kept, as text cells */
	size_t matched;
	bool broken;
};

/* ---- one point's rows ---------------------------------------------------- */

/* Is cell (row, col) written as text? As writer_csv() writes it. */
static bool cell_is(const rowset *rs, size_t row, size_t col, const char *text)
{
	char buf[WRITER_CELL_MAX];
	return strcmp(writer_csv_cell(rs, row, col, buf, sizeof buf), text) == 0;
}

/* Does the file's row repeat expected row `e`'s head and tail cells? */
static bool row_matches(const struct sweep_run *run, const rowset *ex, size_t e,
			const struct csvtable_row *row)
{
	for (size_t c = 0; c < run->ncols; c++) {
		bool checked = c < 4 || c >= run->nresult;  /* scenario, candidate, row_id, seed; the tail */
		if (checked && !cell_is(ex, e, c, row->cells[c]))
			return false;
	}
	return true;
}

/* Does the file's row repeat, cell for cell, a row the group already kept? */
static bool row_repeats(const struct point_check *pc, const struct csvtable_row *row)
{
	for (size_t r = 0; r < rowset_nrows(pc->rows); r++) {
		size_t c = 0;
		while (c < row->ncells && cell_is(pc->rows, r, c, row->cells[c]))
			c++;
		if (c == row->ncells)
			return true;
	}
	return false;
}

static void point_check_start(struct point_check *pc, const struct sweep_run *run, uint64_t k)
{
	pc->expect = sweep_point_expected(run, k);
	pc->rows = sweep_run_rowset(run);
	pc->matched = 0;
	pc->broken = false;
}

static void point_check_release(struct point_check *pc)
{
	rowset_free(pc->expect);
	rowset_free(pc->rows);
	memset(pc, 0, sizeof *pc);
}

/* One row of the group: the next one the point yields, a repeat of one
 * already kept (dropped), or anything else (the point is not complete). */
static void point_check_feed(struct point_check *pc, const struct sweep_run *run,
			     const struct csvtable_row *row)
{
	if (pc->broken)
		return;
	if (!row->terminated || row->ncells != run->ncols) {
		pc->broken = true;
	} else if (pc->matched < rowset_nrows(pc->expect) && row_matches(run, pc->expect, pc->matched, row)) {
		size_t r = rowset_add_row(pc->rows);
		for (size_t c = 0; c < run->ncols; c++)
			if (row->cells[c][0] != '\0')
				rowset_set_text(pc->rows, r, c, row->cells[c]);
		pc->matched++;
	} else if (!row_repeats(pc, row)) {
		pc->broken = true;
	}
}

static bool point_check_complete(const struct point_check *pc)
{
	return !pc->broken && pc->matched == rowset_nrows(pc->expect);
}

/* ---- FILE as a stream of groups ------------------------------------------ */

/* A complete row of another sweep: FILE is not to be continued. */
static int refuse_other_sweep(const struct sweep_resume *rr, const struct csvtable_row *row,
			      struct cs_error *err)
{
	const char *cell = row->cells[rr->run->ncols - 1];
	char shown[40];
	if (sweep_fingerprint_valid(cell))
		text_copy(shown, sizeof shown, cell);
	else
		text_quote(cell, shown, sizeof shown);
	return error_set(err, "sweep: --resume: '%s': line %zu: computed from another sweep (fingerprint %s, this sweep %s): another --seed, --set, --dry-run, base, axes, version, or contents of a catalog or trace it reads (remove it or choose another -o)",
			 rr->file, row->line, shown, rr->run->fingerprint);
}

/* The next row of this shard into rr->ahead: 1, 0 at the end, -1 with err set. */
static int resume_read_row(struct sweep_resume *rr, struct cs_error *err)
{
	const struct sweep_run *run = rr->run;
	struct csvtable_row *row = &rr->ahead;
	int rc;

	while ((rc = csvreader_next(&rr->r, row, err)) == 1) {
		uint64_t k;
		if (row->terminated && row->ncells == run->ncols &&
		    strcmp(row->cells[run->ncols - 1], run->fingerprint) != 0) {
			rc = refuse_other_sweep(rr, row, err);
			csvtable_row_release(row);
			return rc;
		}
		if (row->ncells > 2 && csvtable_row_id(row->cells[2], &k) && k < sweep_points(run->sw) &&
		    k % rr->sh.nshards == rr->sh.shard) {
			rr->ahead_k = k;
			rr->has_ahead = true;
			return 1;
		}
		csvtable_row_release(row);
	}
	return rc;
}

/*
 * The next group: its point into *k and whether it comes in order (after the
 * last group's point). Returns 1, 0 at the end, -1 with err set. Then
 * resume_take_group() reads its rows.
 */
static int resume_next_group(struct sweep_resume *rr, uint64_t *k, bool *in_order, struct cs_error *err)
{
	int rc = rr->has_ahead ? 1 : resume_read_row(rr, err);
	if (rc <= 0)
		return rc;
	*k = rr->ahead_k;
	*in_order = !rr->any || *k > rr->last_k;
	if (*in_order) {
		rr->last_k = *k;
		rr->any = true;
	}
	return 1;
}

/* The rows of the group whose point is k into pc (or dropped when pc is
 * NULL), up to the first row of the next group. 0, or -1 with err set. */
static int resume_take_group(struct sweep_resume *rr, uint64_t k, struct point_check *pc, struct cs_error *err)
{
	int rc = 1;
	while (rc == 1 && rr->has_ahead && rr->ahead_k == k) {
		if (pc != NULL)
			point_check_feed(pc, rr->run, &rr->ahead);
		csvtable_row_release(&rr->ahead);
		rr->has_ahead = false;
		rc = resume_read_row(rr, err);
	}
	return rc < 0 ? -1 : 0;
}

/* Read FILE from its first row again (after its header). */
static int resume_rewind(struct sweep_resume *rr, struct cs_error *err)
{
	if (rr->open)
		csvreader_close(&rr->r);
	rr->open = false;
	csvtable_row_release(&rr->ahead);
	rr->has_ahead = rr->any = false;
	rr->last_k = 0;
	rewind(rr->f);
	if (csvreader_open_stream(&rr->r, rr->f, rr->file, CSVTABLE_SALVAGE, "results", err) < 0)
		return -1;
	rr->open = true;
	return 0;
}

/* ---- the two passes ------------------------------------------------------ */

/* Group k's rows checked; when complete, mark its shard index kept. */
static int mark_group(struct sweep_resume *rr, uint64_t k, struct cs_error *err)
{
	struct point_check pc;
	int rc;

	point_check_start(&pc, rr->run, k);
	rc = resume_take_group(rr, k, &pc, err);
	if (rc == 0 && point_check_complete(&pc)) {
		uint64_t i = k / rr->sh.nshards;
		rr->kept[i / 8] |= (unsigned char)(1u << (i % 8));
		rr->nkept++;
	}
	point_check_release(&pc);
	return rc;
}

/* First pass: mark the points FILE holds complete, in order. */
static int resume_mark_kept(struct sweep_resume *rr, struct cs_error *err)
{
	uint64_t k;
	bool in_order;
	int rc;

	rr->kept = xcalloc(rr->sh.npoints / 8 + 1, 1);
	while ((rc = resume_next_group(rr, &k, &in_order, err)) == 1) {
		rc = in_order ? mark_group(rr, k, err) : resume_take_group(rr, k, NULL, err);
		if (rc < 0)
			return -1;
	}
	return rc;
}

/* The rows of the group of kept point k, which comes next in FILE. */
static rowset *take_kept_group(struct sweep_resume *rr, uint64_t k, struct cs_error *err)
{
	struct point_check pc;
	rowset *rows = NULL;

	point_check_start(&pc, rr->run, k);
	if (resume_take_group(rr, k, &pc, err) < 0) {
		/* err says why */
	} else if (point_check_complete(&pc)) {
		rows = pc.rows;
		pc.rows = NULL;
	} else {
		error_runtime(err, "sweep: --resume: '%s' changed while the sweep read it (point %" PRIu64 ")",
			      rr->file, k);
	}
	point_check_release(&pc);
	return rows;
}

rowset *sweep_resume_take(struct sweep_resume *rr, uint64_t k, struct cs_error *err)
{
	uint64_t g;
	bool in_order;
	int rc;

	while ((rc = resume_next_group(rr, &g, &in_order, err)) == 1 && !(in_order && g == k))
		if (resume_take_group(rr, g, NULL, err) < 0)
			return NULL;
	if (rc == 1)
		return take_kept_group(rr, k, err);
	if (rc == 0)
		error_runtime(err, "sweep: --resume: '%s' changed while the sweep read it (point %" PRIu64 " is gone)",
			      rr->file, k);
	return NULL;
}

bool sweep_resume_kept(const struct sweep_resume *rr, uint64_t i)
{
	return rr != NULL && rr->kept != NULL && (rr->kept[i / 8] >> (i % 8) & 1u) != 0;
}

uint64_t sweep_resume_nkept(const struct sweep_resume *rr)
{
	return rr != NULL ? rr->nkept : 0;
}

void sweep_resume_free(struct sweep_resume *rr)
{
	if (rr == NULL)
		return;
	if (rr->open)
		csvreader_close(&rr->r);
	csvtable_row_release(&rr->ahead);
	if (rr->f != NULL)
		fclose(rr->f);
	free(rr->kept);
	free(rr);
}

/* ---- opening FILE -------------------------------------------------------- */

/* Why FILE's first got bytes (line) are not the header: a one-line reason. */
static void header_mismatch(const char *line, size_t got, const char *header, size_t len, char *why, size_t size)
{
	const char *nl = memchr(line, '\n', got);
	size_t first = nl != NULL ? (size_t)(nl - line) : got, m = 0, col = 1;

	while (m < got && m < len && line[m] == header[m])
		m++;
	for (size_t i = 0; i < m; i++)
		col += header[i] == ',';
	if (memchr(line, '\0', first) != NULL)
		snprintf(why, size, "it is not CSV (a NUL byte in its first line)");
	else
		snprintf(why, size, "its first line differs from the header this sweep writes at column %zu", col);
}

/*
 * FILE (open as f) must start with exactly this sweep's header. Returns 1
 * when it does, 0 when it holds no more than a beginning of it (a run
 * stopped while writing it), -1 with err set otherwise.
 */
static int check_header(const struct sweep_run *run, FILE *f, const char *file, struct cs_error *err)
{
	char *header = NULL, *line;
	size_t len = 0, got;
	int rc;

	if (sweep_sink_header(run, &header, &len) < 0)
		return error_runtime(err, "sweep: --resume: '%s': %s", file, strerror(errno ? errno : ENOMEM));
	line = xmalloc(len + 1);
	got = fread(line, 1, len, f);
	if (ferror(f)) {
		rc = error_runtime(err, "sweep: --resume: cannot read '%s': %s", file, strerror(errno ? errno : EIO));
	} else if (got == len && memcmp(line, header, len) == 0) {
		rc = 1;
	} else if (got < len && memcmp(line, header, got) == 0) {
		rc = 0;
	} else {
		char why[128];
		header_mismatch(line, got, header, len, why, sizeof why);
		rc = error_set(err, "sweep: --resume: '%s': %s: it holds other results (remove it or choose another -o)",
			       file, why);
	}
	free(line);
	free(header);
	return rc;
}

/* FILE for --resume opened, or NULL with err set (a directory, unreadable:
 * runtime errors) or *absent true (no such file, or one written through
 * rather than replaced: a device, a pipe, /dev/stdout, which is written as
 * for a fresh run). */
static FILE *open_file(const char *file, bool *absent, struct cs_error *err)
{
	struct stat st;
	bool found = stat(file, &st) == 0;
	char *journal = outfile_journal_name(file);
	FILE *f;

	*absent = found ? !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) : errno == ENOENT;
	if (found && S_ISREG(st.st_mode) && journal == NULL)
		*absent = true;
	free(journal);
	if (*absent)
		return NULL;
	if (found && S_ISDIR(st.st_mode)) {
		error_runtime(err, "cannot write '%s': is a directory", file);
		return NULL;
	}
	f = fopen(file, "r");
	if (f == NULL)
		error_runtime(err, "sweep: --resume: cannot read '%s': %s", file, strerror(errno));
	return f;
}

int sweep_resume_open(const struct sweep_run *run, const struct sweep_resume_shard *shard,
		      const char *file, struct sweep_resume **out, struct cs_error *err)
{
	struct sweep_resume *rr;
	bool absent;
	FILE *f = open_file(file, &absent, err);
	int rc;

	*out = NULL;
	if (f == NULL)
		return absent ? 0 : -1;
	rc = check_header(run, f, file, err);
	if (rc <= 0) {
		fclose(f);
		return rc;
	}
	rr = xcalloc(1, sizeof *rr);
	*rr = (struct sweep_resume){ .run = run, .sh = *shard, .file = file, .f = f };
	if (resume_rewind(rr, err) < 0 || resume_mark_kept(rr, err) < 0 || resume_rewind(rr, err) < 0) {
		sweep_resume_free(rr);
		return -1;
	}
	*out = rr;
	return 0;
}
