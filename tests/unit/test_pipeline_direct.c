/* The direct evaluation of a pipeline schedule (pipeline_direct.h) gives
 * the event engine's results (pipeline_run) to the bit: every field, on
 * random plans of every schedule, with equal times (ties), free transfers
 * and operations of no time (but ZB-H1's F and B); and it declines where
 * that equality is not assured. */
#include "testutil.h"

#include <stdbool.h>
#include <string.h>

#include "models/train/pipeline.h"
#include "models/train/pipeline_direct.h"

/* A small deterministic generator (xorshift64*), so a failure reruns. */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (unsigned)((rng_state * 2685821657736338717u) >> 33) % n;
}

/* A random operation time: none at all one time in ten where zero_ok,
 * from a few round values half the time (so many operations end at the
 * same instant), else any value from 1 us to 10 ms. */
static double rnd_time(bool zero_ok)
{
	static const double round_s[] = { 1e-3, 2e-3, 3e-3, 0.5e-3, 1.5e-3 };
	if (zero_ok && rnd(10) == 0)
		return 0;
	if (rnd(2) == 0)
		return round_s[rnd(5)];
	return 1e-6 + 1e-2 * rnd(1u << 20) / (double)(1u << 20);
}

/* A random transfer time: free a third of the time, else round or any. */
static double rnd_send(void)
{
	switch (rnd(3)) {
	case 0: return 0;
	case 1: return rnd(2) ? 0.5e-3 : 1e-3;
	default: return 1e-3 * rnd(1000) / 1000.0;
	}
}

/* A random plan of schedule s that pipeline_check accepts. */
static void rnd_plan(enum schedule_kind s, int *p, int *v, int *m)
{
	do {
		*p = 1 + (int)rnd(8);
		*v = s == SCHED_DUALPIPEV ? 2 : s == SCHED_INTERLEAVED ? 1 + (int)rnd(4) : 1;
		*m = 1 + (int)rnd(24);
		if (s == SCHED_INTERLEAVED && *v > 1 && rnd(2))
			*m = *p * (1 + (int)rnd(6));
		if (s == SCHED_DUALPIPEV && *m < 2 * *p)
			*m = 2 * *p + (int)rnd(8);
	} while (pipeline_check(*p, *v, *m, s) != NULL);
}

static void assert_same_bits(const double *a, const double *b, int n, const char *what)
{
	if (memcmp(a, b, (size_t)n * sizeof *a) != 0) {
		for (int i = 0; i < n; i++)
			if (memcmp(&a[i], &b[i], sizeof a[i]) != 0)
				print_error("%s[%d]: events %.17g, direct %.17g\n", what, i, a[i], b[i]);
		fail();
	}
}

/* Both evaluations of one random plan of s agree to the bit. */
static void check_one(enum schedule_kind s)
{
	int p, v, m;
	rnd_plan(s, &p, &v, &m);
	int P = p * v;
	double *t = calloc((size_t)6 * P, sizeof *t);
	double *fs = t, *bs = t + P, *ws = t + 2 * P, *sf = t + 3 * P, *sb = t + 4 * P;
	bool uniform = rnd(4) == 0;  /* every virtual stage alike: the most ties */
	bool zero_fb = s != SCHED_ZB_H1;  /* what pipeline_direct_run declines */
	for (int i = 0; i < P; i++) {
		fs[i] = uniform && i > 0 ? fs[0] : rnd_time(zero_fb);
		bs[i] = uniform && i > 0 ? bs[0] : rnd_time(zero_fb);
		ws[i] = uniform && i > 0 ? ws[0] : rnd_time(true);
		sf[i] = uniform && i > 0 ? sf[0] : rnd_send();
		sb[i] = uniform && i > 0 ? sb[0] : rnd_send();
	}
	struct pipeline_config c = { .p = p, .v = v, .m = m, .schedule = s, .f_s = fs, .b_s = bs,
				     .w_s = pipeline_splits_backward(s) ? ws : NULL, .send_f_s = sf, .send_b_s = sb };
	struct pipeline_result ev, di;
	pipeline_run(&c, &ev, NULL);
	assert_true(pipeline_direct_run(&c, &di));
	assert_same_bits(&ev.span_s, &di.span_s, 1, "span_s");
	assert_same_bits(ev.stage_end_s, di.stage_end_s, p, "stage_end_s");
	assert_same_bits(ev.stage_busy_s, di.stage_busy_s, p, "stage_busy_s");
	assert_same_bits(ev.grads_final_s, di.grads_final_s, P, "grads_final_s");
	assert_same_bits(ev.last_grad_op_s, di.last_grad_op_s, P, "last_grad_op_s");
	pipeline_result_release(&ev);
	pipeline_result_release(&di);
	free(t);
}

static void check_schedule(enum schedule_kind s)
{
	for (int k = 0; k < 400; k++)
		check_one(s);
}

static void test_gpipe(void **state)
{
	(void)state;
	check_schedule(SCHED_GPIPE);
}

static void test_1f1b(void **state)
{
	(void)state;
	check_schedule(SCHED_1F1B);
}

static void test_interleaved(void **state)
{
	(void)state;
	check_schedule(SCHED_INTERLEAVED);
}

static void test_zb_h1(void **state)
{
	(void)state;
	check_schedule(SCHED_ZB_H1);
}

static void test_dualpipev(void **state)
{
	(void)state;
	check_schedule(SCHED_DUALPIPEV);
}

/* It declines (result untouched) ZB-H1's F or B of no time, where the
 * event order within an instant decides between it and a W, and a step
 * past 4e6 s. */
static void test_declines(void **state)
{
	(void)state;
	double f[2] = { 0, 1e-3 }, b[2] = { 2e-3, 2e-3 }, w[2] = { 1e-3, 1e-3 }, send[2] = { 0, 0 };
	struct pipeline_config c = { .p = 2, .v = 1, .m = 4, .schedule = SCHED_ZB_H1, .f_s = f, .b_s = b,
				     .w_s = w, .send_f_s = send, .send_b_s = send };
	struct pipeline_result r;
	memset(&r, 0, sizeof r);
	assert_false(pipeline_direct_run(&c, &r));
	assert_null(r.stage_end_s);
	f[0] = 1e-3;
	assert_true(pipeline_direct_run(&c, &r));
	pipeline_result_release(&r);
	f[1] = 1e6;  /* 4 x 1e6 s of forwards */
	assert_false(pipeline_direct_run(&c, &r));
	assert_null(r.stage_end_s);
	f[1] = 1e5;
	send[0] = 1e300;
	assert_false(pipeline_direct_run(&c, &r));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gpipe),
		cmocka_unit_test(test_1f1b),
		cmocka_unit_test(test_interleaved),
		cmocka_unit_test(test_zb_h1),
		cmocka_unit_test(test_dualpipev),
		cmocka_unit_test(test_declines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
