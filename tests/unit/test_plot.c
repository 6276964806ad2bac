/* Chart scripts: the Pareto front against a hand-worked set, the ideal
 * scaling line's closed form, the stacked bars' running sums, only ok rows
 * drawn, sweep labels, quoting, and the errors that name the column and
 * the file; then what an input must never do to a script: carry a
 * command (a name with a newline, a quote gnuplot's scanner misreads, a
 * data line that ends its block), overflow a buffer (long names), stop
 * the axis code (denormals), reach an infinite number (1e308), or take
 * time quadratic in the points (groups, labels). */
#include "testutil.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/csvtable.h"
#include "output/plot.h"
#include "output/results_column.h"

static void load(struct csvtable *t, const char *text)
{
	struct cs_error err;
	error_clear(&err);
	assert_int_equal(csvtable_parse(t, text, strlen(text), CSVTABLE_STRICT, "results", "r.csv", &err), 0);
}

static struct plot_request request(enum plot_kind kind)
{
	struct plot_request q;
	memset(&q, 0, sizeof q);
	q.kind = kind;
	q.format = PLOT_PNG;
	q.input = "r.csv";
	q.image_path = "out.png";
	q.script_path = "out.gp";
	return q;
}

/* The script for text, which must succeed (caller frees). */
static char *script_of(const char *text, const struct plot_request *q, struct plot_info *info)
{
	struct csvtable t;
	struct cs_error err;
	char *s;
	load(&t, text);
	error_clear(&err);
	s = plot_script(&t, q, info, &err);
	if (s == NULL)
		print_error("plot_script: %s\n", err.msg);
	assert_non_null(s);
	csvtable_release(&t);
	return s;
}

/* The error for text (the script must fail). */
static void error_of(const char *text, const struct plot_request *q, struct cs_error *err)
{
	struct csvtable t;
	struct plot_info info;
	load(&t, text);
	error_clear(err);
	assert_null(plot_script(&t, q, &info, err));
	assert_int_equal(err->kind, ERROR_INPUT);
	csvtable_release(&t);
}

/* The lines of inline block NAME ("$NAME << EOD" ... "EOD"), as one string (caller frees). */
static char *block(const char *script, const char *name)
{
	char head[64];
	const char *p, *end;
	snprintf(head, sizeof head, "$%s << EOD\n", name);
	p = strstr(script, head);
	assert_non_null(p);
	p += strlen(head);
	end = strstr(p, "EOD\n");
	assert_non_null(end);
	return strndup(p, (size_t)(end - p));
}

static void test_pareto_front(void **state)
{
	(void)state;
	/* (1,5) (2,3) (3,4) (4,1) (2,3) again (5,1): (3,4) is beaten by (2,3),
	 * (5,1) by (4,1) (as cheap, faster); of the two (2,3) only the first */
	const double x[] = { 1, 2, 3, 4, 2, 5 }, y[] = { 5, 3, 4, 1, 3, 1 };
	const bool want[] = { true, true, false, true, false, false };
	bool got[6];
	plot_pareto_front(x, y, 6, got);
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(got[i], want[i]);
	/* one point is its own front */
	plot_pareto_front(x, y, 1, got);
	assert_true(got[0]);
}

static const char training[] =
	"scenario,candidate,row_id,seed,status,reason,gpu,gpus,tokens_per_s,wall_time_p50_h,cost_usd_p50,"
	"usd_per_mtok,frac_compute,frac_comm_exposed,frac_bubble\n"
	"s,a,0,1,ok,,H100-SXM,8,100,10,500,2.5,0.5,0.3,0.2\n"
	"s,b,1,1,ok,,H100-SXM,16,190,6,800,1.25,0.6,0.3,0.1\n"
	"s,c,2,1,ok,,H200-SXM,32,350,4,400,0.75,0.7,0.2,0.1\n"
	"s,d,3,1,invalid,\"does not divide\",H200-SXM,64,1,1,1,1,0.1,0.1,0.8\n"
	"s,e,4,1,oom,\"needs 99 GiB\",H200-SXM,64,,,,,,,\n";

static void test_pareto_script(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_PARETO);
	struct plot_info info;
	char *s, *front;

	q.deadline_h = 8;
	q.budget_usd = 600;
	s = script_of(training, &q, &info);
	assert_int_equal(info.rows, 5);
	assert_int_equal(info.ok, 3);
	assert_int_equal(info.charted, 3);
	assert_non_null(strstr(s, "# columns: x wall_time_p50_h, y cost_usd_p50, label candidate, group gpu\n"));
	assert_non_null(strstr(s, "set xlabel 'Wall time, P50 (h)'\n"));
	assert_non_null(strstr(s, "set ylabel 'Cost, P50 (USD)'\n"));
	assert_non_null(strstr(s, "set terminal pngcairo size 1600,1000 font 'Sans,18'"));
	assert_non_null(strstr(s, "if (!exists(\"outfile\")) outfile = 'out.png'\n"));
	/* c (4 h, $400) beats a and b in both: the front is c alone */
	front = block(s, "front0");
	assert_string_equal(front, "4 400\n");
	free(front);
	/* the invalid row's (1 h, $1) is never drawn */
	assert_null(strstr(s, "'d'"));
	assert_null(strstr(s, "\n1 1\n"));
	/* the deadline spans the costs drawn, the budget the times */
	front = block(s, "deadline");
	assert_string_equal(front, "8 400\n8 800\n");
	free(front);
	front = block(s, "budget");
	assert_string_equal(front, "4 600\n10 600\n");
	free(front);
	assert_non_null(strstr(s, "title 'deadline 8 h'"));
	assert_non_null(strstr(s, "title 'budget $600'"));
	assert_non_null(strstr(s, "title 'Wall time and cost, Pareto front: s'"));
	free(s);
}

static void test_scaling_ideal(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_SCALING);
	struct plot_info info;
	char *s, *b;
	const char *rows = "candidate,status,gpu,gpus,tokens_per_s,wall_time_p50_h\n"
			   "x,ok,H100-SXM,16,190,6\n"
			   "y,ok,H100-SXM,8,100,10\n"
			   "z,ok,H100-SXM,32,350,4\n";

	/* a rate: ideal = y0 x gpus / gpus0 from the smallest point (8 GPUs, 100) */
	q.group = "gpu";
	s = script_of(rows, &q, &info);
	b = block(s, "group0");
	assert_string_equal(b, "8 100\n16 190\n32 350\n");
	free(b);
	b = block(s, "ideal0");
	assert_string_equal(b, "8 100\n16 200\n32 400\n");
	free(b);
	assert_non_null(strstr(s, "set ylabel 'Training throughput (tokens/s)'\n"));
	free(s);
	/* a time: ideal = y0 x gpus0 / gpus */
	q.y = "wall_time_p50_h";
	s = script_of(rows, &q, &info);
	b = block(s, "ideal0");
	assert_string_equal(b, "8 10\n16 5\n32 2.5\n");
	free(b);
	free(s);
	/* two configurations at 16 GPUs: the line joins the faster (the lower
	 * time), every point is still drawn */
	{
		const char *two = "candidate,status,gpu,gpus,tokens_per_s,wall_time_p50_h\n"
				  "x,ok,H100-SXM,16,190,6\n"
				  "w,ok,H100-SXM,16,150,7\n"
				  "y,ok,H100-SXM,8,100,10\n";
		s = script_of(two, &q, &info);
		b = block(s, "group0");
		assert_string_equal(b, "8 10\n16 6\n");
		free(b);
		b = block(s, "all0");
		assert_string_equal(b, "8 10\n16 6\n16 7\n");
		free(b);
		free(s);
	}
	/* neither: no ideal line */
	q.y = "gpus";
	s = script_of(rows, &q, &info);
	assert_null(strstr(s, "$ideal0"));
	free(s);
}

static void test_breakdown_sums(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_BREAKDOWN);
	struct plot_info info;
	char *s = script_of(training, &q, &info), *b;

	/* each bar: label, its y (first row on top), then the running sums */
	b = block(s, "bars0");
	assert_string_equal(b, "\"a\" 2 0 0.5 0.8 1\n\"b\" 1 0 0.6 0.9 1\n\"c\" 0 0 0.7 0.9 1\n");
	free(b);
	assert_non_null(strstr(s, "# columns: y frac_compute, frac_comm_exposed, frac_bubble, label candidate\n"));
	assert_non_null(strstr(s, "title 'comm exposed'"));
	assert_non_null(strstr(s, "set xrange [0:1]"));
	free(s);
}

static void test_cost_order(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_COST);
	struct plot_info info;
	char *s = script_of(training, &q, &info), *b;

	/* cheapest at the top */
	b = block(s, "bars0");
	assert_string_equal(b, "\"c\" 2 0.75\n\"b\" 1 1.25\n\"a\" 0 2.5\n");
	free(b);
	assert_non_null(strstr(s, "set xlabel 'Cost per million tokens (USD)'\n"));
	free(s);
}

static void test_latency_panels(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_LATENCY);
	struct plot_info info;
	const char *rows = "candidate,status,rate_per_s,ttft_p50_ms,ttft_p99_ms,tpot_p50_ms,tpot_p99_ms\n"
			   "g,ok,2,30,60,5,7\n"
			   "g,ok,1,28,50,4,6\n"
			   "h,ok,1,100,180,25,28\n";
	char *s, *b;

	q.slo_ttft_ms = 500;
	s = script_of(rows, &q, &info);
	assert_non_null(strstr(s, "set multiplot layout 1,2 "));
	b = block(s, "group0");  /* g, by rate */
	assert_string_equal(b, "1 28 50 4 6\n2 30 60 5 7\n");
	free(b);
	b = block(s, "slo_a");
	assert_string_equal(b, "1 500\n2 500\n");
	free(b);
	assert_null(strstr(s, "$slo_b"));  /* no TPOT SLO given */
	assert_non_null(strstr(s, "title 'h p99'"));
	assert_non_null(strstr(s, "set title 'TTFT: time to first token'"));
	free(s);
}

static void test_sweep_labels(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_COST);
	struct plot_info info;
	/* a sweep varies candidate a and repeats b unchanged at each point */
	const char *rows = "candidate,row_id,status,usd_per_mtok,set:candidates[0].nodes\n"
			   "a,0,ok,2,4\n"
			   "b,0,ok,3,4\n"
			   "a,1,ok,1,8\n"
			   "b,1,ok,3,8\n";
	char *s = script_of(rows, &q, &info), *b;

	assert_int_equal(info.charted, 3);  /* b's repeat dropped */
	b = block(s, "bars0");
	assert_string_equal(b, "\"a [8]\" 2 1\n\"a [4]\" 1 2\n\"b\" 0 3\n");
	free(b);
	free(s);
}

static void test_quoting(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_PARETO);
	struct plot_info info;
	const char *rows = "candidate,status,wall_time_p50_h,cost_usd_p50\n"
			   "\"it's \"\"big\"\"\nnode\",ok,1,2\n";
	char *s;

	q.image_path = "a'b.png";
	s = script_of(rows, &q, &info);
	/* a quote as a joined "\047" (output/gpquote.h), the newline a space:
	 * the string cannot end early */
	assert_non_null(strstr(s, "set label 1 'it'.\"\\047\".'s \"big\" node' at 1, 2"));
	assert_non_null(strstr(s, "outfile = 'a'.\"\\047\".'b.png'\n"));
	free(s);
}

static void test_same_bytes(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_PARETO);
	struct plot_info info;
	char *a = script_of(training, &q, &info), *b = script_of(training, &q, &info);
	assert_string_equal(a, b);
	free(a);
	free(b);
}

static void test_errors(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_PARETO);
	struct cs_error err;

	error_of("candidate,status,wall_time_p50_h\nx,ok,1\n", &q, &err);
	assert_string_equal(err.msg, "results 'r.csv': no column 'cost_usd_p50' (the pareto chart needs it; "
				     "--x or --y chooses another)");
	q.y = "nope";
	error_of(training, &q, &err);
	assert_string_equal(err.msg, "results 'r.csv': no column 'nope' (given to --y)");
	q.y = NULL;
	error_of("candidate,status,wall_time_p50_h,cost_usd_p50\n", &q, &err);
	assert_string_equal(err.msg, "results 'r.csv': no rows to chart (only a header)");
	error_of("candidate,status,wall_time_p50_h,cost_usd_p50\na,oom,,\nb,oom,,\nc,invalid,,\n", &q, &err);
	assert_string_equal(err.msg, "results 'r.csv': no row has status ok, nothing to chart (3 rows: 2 oom, "
				     "1 invalid)");
	error_of("candidate,status,wall_time_p50_h,cost_usd_p50\na,ok,1,\n", &q, &err);
	assert_string_equal(err.msg, "results 'r.csv': none of the 1 rows with status ok has a value in "
				     "'cost_usd_p50', nothing to chart");
	error_of("candidate,status,wall_time_p50_h,cost_usd_p50\na,ok,1,2\nb,ok,1,x2\n", &q, &err);
	assert_string_equal(err.msg, "results 'r.csv': line 3: column 'cost_usd_p50': expected a number, got \"x2\"");
	q = request(PLOT_SCATTER);
	error_of(training, &q, &err);
	assert_string_equal(err.msg, "plot: the scatter chart needs --x COLUMN and --y COLUMN");
}

/* Every line of s is one of the writer's: a comment, a command it writes
 * (set, unset, plot, if), a plot's continuation, or a data line inside a
 * block that ends with exactly "EOD". (The full check, gnuplot's own
 * reading of the script, is the fuzz target tests/fuzz/fuzz_plot.c.) */
static void assert_lines_are_commands(const char *s)
{
	bool data = false;
	for (const char *p = s; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n;
		assert_non_null(nl);
		n = (size_t)(nl - p);
		if (data) {
			if (n >= 3 && strncmp(p, "EOD", 3) == 0) {
				assert_int_equal(n, 3);
				data = false;
			} else {
				/* a number or a quoted label first: never the terminator */
				assert_true(p[0] == '"' || p[0] == '-' || (p[0] >= '0' && p[0] <= '9'));
			}
		} else if (p[0] == '$') {
			assert_true(n > 7 && strncmp(nl - 7, " << EOD", 7) == 0);
			data = true;
		} else if (!(p[0] == '#' || strncmp(p, "set ", 4) == 0 || strncmp(p, "unset ", 6) == 0 ||
			     strncmp(p, "plot ", 5) == 0 || strncmp(p, "if (", 4) == 0 ||
			     strncmp(p, "     $", 6) == 0 || strncmp(p, "     '' ", 8) == 0)) {
			fail_msg("a line the writer does not write: %.*s", (int)(n > 200 ? 200 : n), p);
		}
		/* a comment never goes on to the next line */
		assert_false(p[0] == '#' && n > 0 && p[n - 1] == '\\');
		p = nl + 1;
	}
	assert_false(data);
}

/* A header cell with a newline, then a gnuplot command. */
static const char injected[] =
	"candidate,status,frac_compute,\"frac_x\nsystem(\"\"touch pwned\"\")\"\n"
	"a,ok,0.5,0.5\n";

static void test_control_in_names(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_BREAKDOWN);
	struct cs_error err;

	/* the breakdown picks every frac_ column itself: a header cell with a
	 * newline ended the script's "# columns:" comment, and the rest ran
	 * as a command (system() runs a shell) */
	error_of(injected, &q, &err);
	assert_string_equal(err.msg, "results 'r.csv': column \"frac_x\\x0asystem(\\\"touch pwned\\\")\": a control "
				     "character (byte 0x0a at offset 6) in the name, which plot refuses");
	/* a column chosen by name, each option */
	q = request(PLOT_SCATTER);
	q.x = "frac_compute";
	q.y = "frac_x\nsystem(\"touch pwned\")";
	error_of(injected, &q, &err);
	assert_string_equal(err.msg, "--y \"frac_x\\x0asystem(\\\"touch pwned\\\")\": a control character (byte 0x0a "
				     "at offset 6) in the name, which plot refuses");
	q.y = "frac_compute";
	q.group = "g\r";
	error_of(injected, &q, &err);
	assert_string_equal(err.msg, "--group \"g\\x0d\": a control character (byte 0x0d at offset 1) in the name, "
				     "which plot refuses");
	/* a column the chart does not read may have one */
	q = request(PLOT_PARETO);
	error_of("candidate,status,wall_time_p50_h,cost_usd_p50,\"g\x7f\"\na,ok,1,x,x\n", &q, &err);
	assert_null(strstr(err.msg, "control"));
	q.group = "g\x7f";
	error_of("candidate,status,wall_time_p50_h,cost_usd_p50,\"g\x7f\"\na,ok,1,2,x\n", &q, &err);
	assert_non_null(strstr(err.msg, "a control character (byte 0x7f at offset 1)"));
	/* the file names the script carries */
	q = request(PLOT_PARETO);
	q.image_path = "a\nb.png";
	error_of(training, &q, &err);
	assert_string_equal(err.msg, "plot: the image \"a\\x0ab.png\": a control character (byte 0x0a at offset 1) "
				     "in the name, which plot refuses");
	q = request(PLOT_PARETO);
	q.input = "r\t.csv";
	error_of(training, &q, &err);
	assert_non_null(strstr(err.msg, "plot: the results file \"r\\x09.csv\": a control character"));
	q = request(PLOT_PARETO);
	q.script_path = "\x1b.gp";
	error_of(training, &q, &err);
	assert_non_null(strstr(err.msg, "plot: the script \"\\x1b.gp\""));
}

static void test_names_in_comments(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_SCATTER);
	struct plot_info info;
	/* no control character, but everything else gnuplot treats specially */
	const char *rows = "candidate,status,\"a\\\",\"b'`touch x`@y#\xc3\xbc\"\n"
			   "c,ok,1,2\n";
	char *s;

	q.x = "a\\";
	q.y = "b'`touch x`@y#\xc3\xbc";
	s = script_of(rows, &q, &info);
	/* in comments: '\' (which at the end of a line carries the comment
	 * on) and bytes from 0x7f escaped */
	assert_non_null(strstr(s, "# columns: x a\\x5c, y b'`touch x`@y#\\xc3\\xbc, label candidate\n"));
	/* in commands: single-quoted, the quote joined as "\047" */
	assert_non_null(strstr(s, "set xlabel 'a\\'\n"));
	assert_non_null(strstr(s, "set ylabel 'b'.\"\\047\".'`touch x`@y#\xc3\xbc'\n"));
	assert_lines_are_commands(s);
	free(s);
}

static void test_quote_at_start(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_PARETO);
	struct plot_info info;
	/* gnuplot's scanner ends a string at a '' that follows its opening
	 * quote or another '': these names made gnuplot fail on the chart */
	const char *rows = "candidate,status,gpu,wall_time_p50_h,cost_usd_p50\n"
			   "'a,ok,'H100,1,2\n"
			   "b''c,ok,'H100,2,1\n";
	char *s = script_of(rows, &q, &info);

	assert_non_null(strstr(s, " ''.\"\\047\".'a' at 1, 2 "));
	assert_non_null(strstr(s, " 'b'.\"\\047\".''.\"\\047\".'c' at 2, 1 "));
	assert_non_null(strstr(s, "title ''.\"\\047\".'H100'"));
	assert_null(strstr(s, "''''"));
	assert_lines_are_commands(s);
	free(s);
}

static void test_data_lines(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_COST);
	struct plot_info info;
	/* labels that would end the block (EOD at a line's start, a newline
	 * then EOD), end a field ("), or be read as an escape (\) */
	const char *rows = "candidate,status,usd_per_mtok\n"
			   "EOD,ok,1\n"
			   "\"x\nEOD\nsystem('touch pwned')\",ok,2\n"
			   "\"q\"\"1\\n\",ok,3\n";
	char *s = script_of(rows, &q, &info), *b;

	b = block(s, "bars0");
	assert_string_equal(b, "\"EOD\" 2 1\n\"x EOD system('touch pwned')\" 1 2\n\"q\\00421\\\\n\" 0 3\n");
	free(b);
	assert_lines_are_commands(s);
	free(s);
}

/* A string of n copies of c (caller frees). */
static char *repeat(char c, size_t n)
{
	char *s = malloc(n + 1);
	assert_non_null(s);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

static void test_long_names(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_LATENCY);
	struct plot_info info;
	char *a = repeat('a', 3000), *g = repeat('g', 2000), *col, *rows, *s, *want;

	/* a --y of 200+ characters overflowed a 200-byte buffer in the latency
	 * chart (a crash); no text is cut now either */
	col = malloc(3100);
	rows = malloc(10000);
	want = malloc(7000);
	assert_non_null(col);
	assert_non_null(rows);
	assert_non_null(want);
	snprintf(col, 3100, "%s_p50_ms", a);
	snprintf(rows, 10000, "candidate,status,rate_per_s,%s,gpus,usd_total,%s\n%s,ok,1,2,8,10,x\n%s,ok,2,3,16,20,y\n",
		 col, g, g, g);
	q.y = col;
	s = script_of(rows, &q, &info);
	snprintf(want, 7000, "set ylabel '%s'\n", col);
	assert_non_null(strstr(s, want));
	for (char *c = a; *c; c++)
		*c = 'A';
	snprintf(want, 7000, "set title '%s'\n", a);  /* the family in capitals, whole */
	assert_non_null(strstr(s, want));
	snprintf(want, 7000, "title '%s p50'", g);
	assert_non_null(strstr(s, want));
	free(s);
	/* every chart with the long names: bars labelled, stacked, titled */
	for (int k = 0; k < PLOT_KIND_COUNT; k++) {
		struct cs_error err;
		struct csvtable t;
		q = request((enum plot_kind)k);
		q.x = k == PLOT_SCATTER || k == PLOT_SCALING || k == PLOT_UTILIZATION ? "gpus" : g;
		q.y = k == PLOT_BREAKDOWN || k == PLOT_WAITS || k == PLOT_UTILIZATION ? col : "usd_total";
		q.group = k == PLOT_SCATTER || k == PLOT_SCALING || k == PLOT_UTILIZATION ? "candidate" : NULL;
		load(&t, rows);
		error_clear(&err);
		s = plot_script(&t, &q, &info, &err);
		csvtable_release(&t);
		if (k == PLOT_PARETO || k == PLOT_LATENCY) {  /* their x is a number: --x gggg... is text */
			assert_null(s);
			continue;
		}
		if (s == NULL)
			fail_msg("%s: %s", plot_kind_names[k], err.msg);
		assert_lines_are_commands(s);
		if (k == PLOT_BREAKDOWN) {
			snprintf(want, 7000, "set xlabel '%s'\n", col);
			assert_non_null(strstr(s, want));
		}
		if (k == PLOT_SCALING || k == PLOT_SCATTER) {
			snprintf(want, 7000, "title '%s'", g);
			assert_non_null(strstr(s, want));
		}
		if (k == PLOT_UTILIZATION) {
			snprintf(want, 7000, "title '%s %s'", g, col);
			assert_non_null(strstr(s, want));
		}
		free(s);
	}
	free(want);
	free(rows);
	free(col);
	free(g);
	free(a);
}

/* The ticks of an axis's `set Xtics (...)` list (0 when it has none). */
static size_t tick_count(const char *s, const char *axis)
{
	char head[32];
	const char *p;
	size_t n = 1;
	snprintf(head, sizeof head, "set %stics (", axis);
	p = strstr(s, head);
	if (p == NULL)
		return 0;
	for (; *p != '\n'; p++)
		n += *p == ',';
	return n;
}

static void test_extreme_axes(void **state)
{
	(void)state;
	static const char *const cases[] = {
		/* a denormal on a log axis looped forever (10^-324 is 0, times 10 still 0) */
		"a,ok,5e-324,1\nb,ok,1e-320,2\n",
		"a,ok,5e-324,1e300\nb,ok,1e300,5e-324\nc,ok,1,1\n",
		"a,ok,1e-320,1e-320\n",
		"a,ok,5e-324,5e-324\n",
		"a,ok,1e300,-1e300\nb,ok,-1e300,1e300\n",
		"a,ok,1e300,1e300\n",
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct plot_info info;
		char text[256], *s;
		snprintf(text, sizeof text, "candidate,status,wall_time_p50_h,cost_usd_p50\n%s", cases[i]);
		for (int k = 0; k < 2; k++) {
			struct plot_request q = request(k ? PLOT_SCATTER : PLOT_PARETO);
			q.x = k ? "wall_time_p50_h" : NULL;
			q.y = k ? "cost_usd_p50" : NULL;
			s = script_of(text, &q, &info);
			/* decades past 12 are thinned: at most 13 ticks an axis */
			assert_true(tick_count(s, "x") <= 13 && tick_count(s, "y") <= 13);
			assert_null(strstr(s, "inf"));
			assert_null(strstr(s, "nan"));
			assert_lines_are_commands(s);
			if (i == 1)  /* 1e-312, 1e-260 ... 1e+248: a tick each 52 decades */
				assert_int_equal(tick_count(s, "x"), 12);
			if (i == 3)  /* one denormal: a range around it at least DBL_MIN wide */
				assert_non_null(strstr(s, "set xrange [-2.22507e-308:2.22507e-308]\n"));
			free(s);
		}
	}
}

static void test_huge_values(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_PARETO);
	struct plot_info info;
	struct cs_error err;
	char *s;

	/* 1.7e308: its range widened by a tenth was infinite (an assertion);
	 * a deadline of 1.797e308, a tick past it */
	error_of("candidate,status,wall_time_p50_h,cost_usd_p50\na,ok,1.7e308,1\n", &q, &err);
	assert_string_equal(err.msg, "results 'r.csv': line 2: column 'wall_time_p50_h': \"1.7e308\" is too large to "
				     "chart (at most 1e300 in magnitude)");
	error_of("candidate,status,wall_time_p50_h,cost_usd_p50\na,ok,1,-1e301\n", &q, &err);
	assert_non_null(strstr(err.msg, "\"-1e301\" is too large to chart"));
	q.deadline_h = 1.797e308;
	error_of(training, &q, &err);
	assert_string_equal(err.msg, "--deadline-h: 1.797e+308 is too large to chart (at most 1e300)");
	q.deadline_h = 0;
	q.budget_usd = 1.7e308;
	error_of(training, &q, &err);
	assert_string_equal(err.msg, "--budget-usd: 1.7e+308 is too large to chart (at most 1e300)");
	/* 1e300 is charted: the limits, 16 stacked segments of it */
	q.deadline_h = 1e300;
	q.budget_usd = 1e300;
	s = script_of(training, &q, &info);
	assert_non_null(strstr(s, "title 'deadline 1.00000e+300 h'"));
	assert_lines_are_commands(s);
	free(s);
	{
		char rows[1024] = "candidate,status";
		size_t used = strlen(rows);
		for (int k = 0; k < 16; k++)
			used += (size_t)snprintf(rows + used, sizeof rows - used, ",v%d", k);
		used += (size_t)snprintf(rows + used, sizeof rows - used, "\na,ok");
		for (int k = 0; k < 16; k++)
			used += (size_t)snprintf(rows + used, sizeof rows - used, ",1e300");
		snprintf(rows + used, sizeof rows - used, "\n");
		q = request(PLOT_BREAKDOWN);
		q.y = "v0,v1,v2,v3,v4,v5,v6,v7,v8,v9,v10,v11,v12,v13,v14,v15";
		s = script_of(rows, &q, &info);
		assert_non_null(strstr(s, " 1.60000e+301\n"));
		free(s);
	}
	/* ideal scaling that overflows (1e300 x 1e10 / 1) is not drawn */
	q = request(PLOT_SCALING);
	s = script_of("candidate,status,gpu,gpus,tokens_per_s\na,ok,H,1,1e300\nb,ok,H,1e10,1e300\n", &q, &info);
	assert_null(strstr(s, "$ideal0"));
	assert_null(strstr(s, "inf"));
	free(s);
}

static void test_groups(void **state)
{
	(void)state;
	const char *names[] = { "b", "a", "b", "c", "a", "b" };
	size_t got[6];
	const size_t want[] = { 0, 1, 0, 2, 1, 0 };
	enum { N = 200000 };
	char **many = calloc(N, sizeof *many);
	size_t *group_of = calloc(N, sizeof *group_of);

	assert_int_equal(plot_groups(names, 6, got), 3);
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(got[i], want[i]);
	assert_int_equal(plot_groups(names, 0, got), 0);
	/* 200,000 distinct names, numbered in order: a sort, O(n log n) (a
	 * search of the groups so far per name is 2e10 comparisons) */
	assert_non_null(many);
	assert_non_null(group_of);
	for (size_t i = 0; i < N; i++) {
		many[i] = malloc(16);
		assert_non_null(many[i]);
		snprintf(many[i], 16, "%zu", (size_t)N - i);
	}
	assert_int_equal(plot_groups((const char *const *)many, N, group_of), N);
	for (size_t i = 0; i < N; i++)
		assert_int_equal(group_of[i], i);
	for (size_t i = 0; i < N; i++)
		free(many[i]);
	free(many);
	free(group_of);
}

static void test_many_points(void **state)
{
	(void)state;
	enum { N = 100000 };
	size_t cap = (size_t)N * 40 + 100, used;
	char *rows = malloc(cap), *s;
	struct plot_request q;
	struct plot_info info;

	/* 100,000 points, every one its own group and on the Pareto front: the
	 * groups were found by a search per point and the points of each group
	 * by a pass over all (1e10 steps), the labels sorted by insertion and
	 * each checked against every other (minutes). Now O(n log n) and at
	 * most PLOT_LABELS_MAX labels; this asserts what is drawn, not a time. */
	assert_non_null(rows);
	used = (size_t)snprintf(rows, cap, "candidate,status,wall_time_p50_h,cost_usd_p50\n");
	for (size_t i = 1; i <= N; i++)
		used += (size_t)snprintf(rows + used, cap - used, "c%zu,ok,%zu,%zu\n", i, i, (size_t)N + 1 - i);
	q = request(PLOT_SCATTER);
	q.x = "wall_time_p50_h";
	q.y = "cost_usd_p50";
	q.group = "candidate";
	s = script_of(rows, &q, &info);
	assert_int_equal(info.charted, N);
	assert_non_null(strstr(s, "$group99999 << EOD\n100000 1\nEOD\n"));
	free(s);
	q = request(PLOT_PARETO);
	s = script_of(rows, &q, &info);
	{
		char *front = block(s, "front0");
		size_t lines = 0;
		for (char *c = front; *c; c++)
			lines += *c == '\n';
		assert_int_equal(lines, N);  /* every point on the front, drawn */
		free(front);
	}
	/* 100 labels spread along the front, both ends among them */
	assert_non_null(strstr(s, "\nset label 100 "));
	assert_null(strstr(s, "\nset label 101 "));
	assert_non_null(strstr(s, " 'c1' at 1, 100000 "));
	assert_non_null(strstr(s, " 'c100000' at 100000, 1 "));
	free(s);
	free(rows);
}

static void test_rows_max(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_PARETO);
	struct cs_error err;
	struct plot_info info;
	char *s;

	q.rows_max = 4;
	error_of(training, &q, &err);
	assert_string_equal(err.msg, "results 'r.csv': 5 rows, more than plot charts (at most 4)");
	q.rows_max = 5;
	s = script_of(training, &q, &info);
	free(s);
}

static void test_output_names(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_PARETO);
	struct plot_info info;
	char *s;

	/* gnuplot's `set output '|cmd'` runs cmd: the image is a file here */
	q.image_path = "|touch pwned.png";
	q.script_path = "|touch pwned.gp";
	s = script_of(training, &q, &info);
	assert_non_null(strstr(s, "if (!exists(\"outfile\")) outfile = './|touch pwned.png'\n"));
	assert_non_null(strstr(s, "# render: gnuplot '|touch pwned.gp' writes '|touch pwned.png'"));
	assert_lines_are_commands(s);
	free(s);
}

static void test_status_message(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_PARETO);
	struct cs_error err;

	/* statuses as they are, but a control character escaped: one line */
	error_of("candidate,status,wall_time_p50_h,cost_usd_p50\na,\"o\nm\",,\nb,oom,,\nc,,,\n", &q, &err);
	assert_string_equal(err.msg, "results 'r.csv': no row has status ok, nothing to chart (3 rows: 1 \"o\\x0am\", "
				     "1 oom, 1 (empty))");
}

static void test_names(void **state)
{
	(void)state;
	enum plot_kind k;
	enum plot_format fmt;
	for (int i = 0; i < PLOT_KIND_COUNT; i++) {
		assert_true(plot_kind_parse(plot_kind_names[i], &k));
		assert_int_equal(k, i);
	}
	assert_false(plot_kind_parse("bars", &k));
	assert_true(plot_format_of("a/b.PNG", &fmt));
	assert_int_equal(fmt, PLOT_PNG);
	assert_true(plot_format_of("b.svg", &fmt));
	assert_int_equal(fmt, PLOT_SVG);
	assert_false(plot_format_of("b.pdf", &fmt));
	assert_false(plot_format_of(".png", &fmt));
}

/* Axis labels in words with units, declared once with the columns
 * (output/results_column.c); a column without words of its own reads its
 * name less the unit; one of the user's own is shown as it is. */
static void test_words(void **state)
{
	(void)state;
	static const struct {
		const char *name, *label;
	} cases[] = {
		{ "cost_usd_p50", "Cost, P50 (USD)" },
		{ "wall_time_p90_h", "Wall time, P90 (h)" },
		{ "ttft_p99_ms", "Time to first token, P99 (ms)" },
		{ "usd_per_mtok_output", "Cost per million output tokens (USD)" },
		{ "usd_per_mtok_total", "Cost per million prompt and output tokens (USD)" },
		{ "t_bubble_s", "T bubble (s)" },           /* derived: the unit said once */
		{ "provider", "Provider" },                 /* text: no unit */
		{ "my_own_col", "my_own_col" },             /* no entry: as it is */
		{ "set:workload.tp", "set:workload.tp" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *l = results_column_axis_label(cases[i].name);
		assert_string_equal(l, cases[i].label);
		free(l);
	}
}

/* --xlabel and --ylabel replace the words, quoted so that nothing in
 * them is a command; a control character in one is refused. */
static void test_axis_label_options(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_PARETO);
	struct plot_info info;
	struct cs_error err;
	char *s;

	q.xlabel = "Time to train (hours)";
	q.ylabel = "It's `touch x` @y $(rm -rf z)";
	s = script_of(training, &q, &info);
	assert_non_null(strstr(s, "set xlabel 'Time to train (hours)'\n"));
	assert_non_null(strstr(s, "set ylabel 'It'.\"\\047\".'s `touch x` @y $(rm -rf z)'\n"));
	assert_null(strstr(s, "set xlabel 'Wall time"));
	assert_lines_are_commands(s);
	free(s);
	/* a bar chart's x is its values: --xlabel names them */
	q = request(PLOT_COST);
	q.xlabel = "USD per Mtok";
	s = script_of(training, &q, &info);
	assert_non_null(strstr(s, "set xlabel 'USD per Mtok'\n"));
	assert_non_null(strstr(s, "set ylabel 'Candidate'\n"));
	free(s);
	q.xlabel = "two\nlines";
	error_of(training, &q, &err);
	assert_non_null(strstr(err.msg, "--xlabel"));
	assert_non_null(strstr(err.msg, "control character"));
}

/* The waits chart draws the P90 objective the fleet's row carries, a
 * vertical line across every bar. */
static void test_waits_objective(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_WAITS);
	struct plot_info info;
	const char *rows = "candidate,team,class,status,queue_wait_p50_h,queue_wait_p90_h,queue_wait_p99_h,"
			   "objective_wait_p90_h\n"
			   "c,,,ok,1,2,3,24\n"
			   "c,t1,,ok,0.5,30,40,\n"
			   "c,t2,,ok,0.1,0.2,0.3,\n";
	char *s = script_of(rows, &q, &info), *b;
	b = block(s, "objective");
	assert_string_equal(b, "24 -0.6\n24 1.6\n");  /* two bars: y 1 and 0 */
	free(b);
	assert_non_null(strstr(s, "$objective using 1:2 with lines dt 2 lw 4 lc rgb '#b2182b' title "
				  "'objective: P90 wait 24 h'\n"));
	assert_non_null(strstr(s, "set xlabel 'Queue wait (h)'\n"));
	free(s);
	/* without the column: no line */
	s = script_of("candidate,team,class,status,queue_wait_p50_h,queue_wait_p90_h,queue_wait_p99_h\n"
		      "c,t1,,ok,0.5,30,40\n", &q, &info);
	assert_null(strstr(s, "objective"));
	free(s);
}

/* --color-by (the request's group) on the cost chart: each group's bars
 * in its own colour, each with one legend entry, the labels at their bars. */
static void test_cost_colours(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_COST);
	struct plot_info info;
	const char *rows = "candidate,status,usd_per_mtok_output,provider,price_type\n"
			   "a,ok,3,acme,on-demand\n"
			   "b,ok,1,zeta,spot\n"
			   "c,ok,2,acme,spot\n";
	char *s, *b;
	q.group = "price_type";
	s = script_of(rows, &q, &info);
	/* groups in the file's order (on-demand 0, spot 1); bars cheapest first: b, c, a */
	b = block(s, "bars0");
	assert_string_equal(b, "\"b\" 2 1 1\n\"c\" 1 2 1\n\"a\" 0 3 0\n");
	free(b);
	assert_non_null(strstr(s, "set ytics ('b' 2, 'c' 1, 'a' 0)\n"));
	assert_non_null(strstr(s, "($4 == 0 ? $2 : 1/0):(0):3:($2-0.35):($2+0.35) with boxxyerror lt 1 title 'on-demand'"));
	assert_non_null(strstr(s, "($4 == 1 ? $2 : 1/0):(0):3:($2-0.35):($2+0.35) with boxxyerror lt 2 title 'spot'"));
	assert_non_null(strstr(s, "set title 'Cost per million output tokens: r.csv'"));
	assert_non_null(strstr(s, "set key below"));
	assert_lines_are_commands(s);
	free(s);
}

/* A legend longer than two rows below the plot makes the picture taller,
 * a line per row, so the plot is not squeezed. */
static void test_legend_room(void **state)
{
	(void)state;
	struct plot_request q = request(PLOT_PARETO);
	struct plot_info info;
	char rows[8192] = "candidate,status,wall_time_p50_h,cost_usd_p50,gpu\n", *s;
	size_t used = strlen(rows);
	/* 40 groups of 30-character names: 38 + 8 = 38 characters a legend entry with room,
	 * (1500 / (38 x 11 + 100)) = 2 a row, 43 entries (40 + 3): 22 rows, 20 past two */
	for (int i = 0; i < 40; i++)
		used += (size_t)snprintf(rows + used, sizeof rows - used, "c%d,ok,%d,%d,gpu-type-%021d\n", i, i + 1,
					 100 - i, i);
	s = script_of(rows, &q, &info);
	assert_non_null(strstr(s, "set terminal pngcairo size 1600,1600 "));
	free(s);
	s = script_of(training, &q, &info);  /* two GPUs: the usual size */
	assert_non_null(strstr(s, "set terminal pngcairo size 1600,1000 "));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pareto_front),
		cmocka_unit_test(test_pareto_script),
		cmocka_unit_test(test_scaling_ideal),
		cmocka_unit_test(test_breakdown_sums),
		cmocka_unit_test(test_cost_order),
		cmocka_unit_test(test_latency_panels),
		cmocka_unit_test(test_sweep_labels),
		cmocka_unit_test(test_quoting),
		cmocka_unit_test(test_same_bytes),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_control_in_names),
		cmocka_unit_test(test_names_in_comments),
		cmocka_unit_test(test_quote_at_start),
		cmocka_unit_test(test_data_lines),
		cmocka_unit_test(test_long_names),
		cmocka_unit_test(test_extreme_axes),
		cmocka_unit_test(test_huge_values),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_many_points),
		cmocka_unit_test(test_rows_max),
		cmocka_unit_test(test_output_names),
		cmocka_unit_test(test_status_message),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_axis_label_options),
		cmocka_unit_test(test_waits_objective),
		cmocka_unit_test(test_cost_colours),
		cmocka_unit_test(test_legend_room),
	};
	/* a watchdog, not a timing: code that loops forever (a denormal on a
	 * log axis once did) fails the run instead of hanging it; the run
	 * takes about a second, under valgrind a few minutes */
	alarm(900);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
