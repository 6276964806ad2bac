/* Chart scripts: the Pareto front against a hand-worked set, the ideal
 * scaling line's closed form, the stacked bars' running sums, only ok rows
 * drawn, sweep labels, quoting, and the errors that name the column and
 * the file. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "output/csvtable.h"
#include "output/plot.h"

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
	assert_non_null(strstr(s, "set xlabel 'wall_time_p50_h (h)'\n"));
	assert_non_null(strstr(s, "set ylabel 'cost_usd_p50 (USD)'\n"));
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
	assert_non_null(strstr(s, "set ylabel 'tokens_per_s (tokens/s)'\n"));
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
	assert_non_null(strstr(s, "set xlabel 'usd_per_mtok (USD)'\n"));
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
	/* single quotes doubled, the newline a space: the string cannot end early */
	assert_non_null(strstr(s, "set label 1 'it''s \"big\" node' at 1, 2"));
	assert_non_null(strstr(s, "outfile = 'a''b.png'\n"));
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
