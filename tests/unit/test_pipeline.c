/* Pipeline schedules: bubbles equal the closed forms when communication is free. */
#include "testutil.h"

#include <stdlib.h>

#include "models/train/pipeline.h"

/* Run with uniform per-chunk times f, b (and w); returns the span. */
static double run(int p, int v, int m, enum schedule_kind s, double f, double b, double w,
		  double send, struct pipeline_result *r)
{
	int P = p * v;
	double *fs = calloc(P, sizeof *fs), *bs = calloc(P, sizeof *bs), *ws = calloc(P, sizeof *ws);
	double *sf = calloc(P, sizeof *sf), *sb = calloc(P, sizeof *sb);
	for (int i = 0; i < P; i++) {
		fs[i] = f;
		bs[i] = b;
		ws[i] = w;
		sf[i] = sb[i] = send;
	}
	struct pipeline_config c = { .p = p, .v = v, .m = m, .schedule = s, .f_s = fs, .b_s = bs,
				 .w_s = s == SCHED_ZB_H1 || s == SCHED_DUALPIPEV ? ws : NULL, .send_f_s = sf, .send_b_s = sb };
	pipeline_run(&c, r, NULL);
	free(fs); free(bs); free(ws); free(sf); free(sb);
	return r->span_s;
}

/* 1F1B and GPipe: span = (m + p - 1)(f + b); bubble relative to ideal = (p-1)/m. */
static void test_1f1b_and_gpipe_bubble(void **state)
{
	(void)state;
	const int ps[] = { 1, 2, 4, 8 }, ms[] = { 1, 4, 8, 32 };
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			struct pipeline_result r;
			int p = ps[i], m = ms[j];
			double f = 1e-3, b = 2e-3;
			double span = run(p, 1, m, SCHED_1F1B, f, b, 0, 0, &r);
			assert_close(span, (m + p - 1) * (f + b), 1e-6);
			double ideal = m * (f + b);
			assert_close((span - ideal) / ideal, (double)(p - 1) / m, 1e-6);
			/* every stage computed m (f + b) */
			for (int s = 0; s < p; s++)
				assert_close(r.stage_busy_s[s], ideal, 1e-9);
			pipeline_result_release(&r);
			span = run(p, 1, m, SCHED_GPIPE, f, b, 0, 0, &r);
			assert_close(span, (m + p - 1) * (f + b), 1e-6);
			pipeline_result_release(&r);
		}
}

/* Interleaved 1F1B with v chunks per stage: bubble relative = (p-1)/(v m). */
static void test_interleaved_bubble(void **state)
{
	(void)state;
	const int ps[] = { 2, 4, 8 }, vs[] = { 2, 3, 4 };
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < 3; k++) {
			struct pipeline_result r;
			int p = ps[i], v = vs[k], m = 4 * p;
			double f = 1e-3 / v, b = 2e-3 / v;  /* a chunk is 1/v of the stage's layers */
			double span = run(p, v, m, SCHED_INTERLEAVED, f, b, 0, 0, &r);
			double ideal = m * v * (f + b);
			/* durations are whole nanoseconds: 1/3 us rounds up */
			assert_close((span - ideal) / ideal, (double)(p - 1) / (v * m), 1e-4);
			pipeline_result_release(&r);
		}
}

/* ZB-H1 with f = b = w: about a third of 1F1B's bubble (Qi et al. ICLR'24:
 * (p-1)(f + b - w) against (p-1)(f + b + w)). */
static void test_zero_bubble_third(void **state)
{
	(void)state;
	struct pipeline_result r;
	int p = 8, m = 32;
	double t = 1e-3;
	double span_zb = run(p, 1, m, SCHED_ZB_H1, t, t, t, 0, &r);
	pipeline_result_release(&r);
	double span_1f1b = run(p, 1, m, SCHED_1F1B, t, 2 * t, 0, 0, &r);
	pipeline_result_release(&r);
	double ideal = m * 3 * t;
	double ratio = (span_zb - ideal) / (span_1f1b - ideal);
	assert_close(ratio, 1.0 / 3, 0.05);
}

/*
 * Transfers delay the pipeline. By hand, p = 2, m = 2, f = 1, b = 2, x = 0.1:
 * stage 0 runs F0 [0,1], F1 [1,2]; stage 1 F0 [1.1,2.1], B0 [2.1,4.1],
 * F1 [4.1,5.1], B1 [5.1,7.1]; stage 0 B0 [4.2,6.2], B1 [7.2,9.2]: span 9.2.
 * In general the span is at least (m + p - 1)(f + b) + 2 (p - 1) x.
 */
static void test_transfers_delay(void **state)
{
	(void)state;
	struct pipeline_result r;
	double span = run(2, 1, 2, SCHED_1F1B, 1, 2, 0, 0.1, &r);
	assert_close(span, 9.2, 1e-9);
	assert_close(r.grads_final_s[0], 9.2, 1e-9);  /* stage 0's gradients are final last */
	assert_close(r.grads_final_s[1], 7.1, 1e-9);
	pipeline_result_release(&r);
	int p = 4, m = 8;
	double f = 1e-3, b = 2e-3, x = 1e-4;
	span = run(p, 1, m, SCHED_1F1B, f, b, 0, x, &r);
	assert_true(span >= (m + p - 1) * (f + b) + 2 * (p - 1) * x - 1e-12);
	pipeline_result_release(&r);
}

/*
 * DualPipeV with F = B = W = t (B the input gradient): every stage computes
 * its 2m chunk-micro-batches, 2m (f + b + w), and the bubble is the
 * README's (PP/2 - 1)(F&B + B - 3W) for PP = 2p virtual stages, with F&B =
 * f + b + w the overlapped pair and B = b + w the whole backward: 2 (p - 1) t
 * (deepseek-ai/DualPipe README, "Pipeline Bubbles and Memory Usage").
 * Every virtual stage's gradients become final, the first stage's last.
 */
static void test_dualpipev_bubble(void **state)
{
	(void)state;
	const int ps[] = { 1, 2, 4, 8, 16 };
	for (int i = 0; i < 5; i++)
		for (int k = 0; k < 3; k++) {
			struct pipeline_result r;
			int p = ps[i], m = (k == 0 ? 2 * p : k == 1 ? 4 * p : 5 * p + 1) + (p == 1);
			double t = 1e-3;
			double span = run(p, 2, m, SCHED_DUALPIPEV, t, t, t, 0, &r);
			double work = 2.0 * m * 3 * t;
			for (int s = 0; s < p; s++)
				assert_close(r.stage_busy_s[s], work, 1e-9);
			assert_close(span, work + 2.0 * (p - 1) * t, 1e-9);
			for (int vs = 0; vs < 2 * p; vs++)
				assert_true(r.grads_final_s[vs] > 0 && r.grads_final_s[vs] <= span + 1e-12);
			pipeline_result_release(&r);
		}
}

/* The V: chunk 0 of stage i is virtual stage i, chunk 1 is 2p - 1 - i, so
 * the first stage holds the first and the last; the order has each chunk's
 * m forwards and m backwards, and a W for every backward split from its
 * weight gradient. */
static void test_dualpipev_order(void **state)
{
	(void)state;
	int p = 4, m = 10;
	assert_int_equal(pipeline_vstage(p, SCHED_DUALPIPEV, 0, 1), 2 * p - 1);
	assert_int_equal(pipeline_vstage(p, SCHED_DUALPIPEV, p - 1, 1), p);
	assert_int_equal(pipeline_stage(p, SCHED_DUALPIPEV, 2 * p - 1), 0);
	assert_int_equal(pipeline_stage(p, SCHED_DUALPIPEV, p), p - 1);
	assert_int_equal(pipeline_vstage(p, SCHED_INTERLEAVED, 1, 1), p + 1);
	struct pipeline_step *st = calloc(PIPELINE_DUALPIPEV_MAX_STEPS(m), sizeof *st);
	for (int i = 0; i < p; i++) {
		int n = pipeline_dualpipev_order(p, i, m, st), f[2] = { 0, 0 }, b[2] = { 0, 0 }, split = 0, w = 0;
		for (int k = 0; k < n; k++) {
			if (st[k].kind == PIPE_F) {
				f[st[k].chunk]++;
				if (st[k].paired)
					b[st[k].pair_chunk]++;
			} else if (st[k].kind == PIPE_B) {
				b[st[k].chunk]++;
				split += st[k].split;
			} else
				w++;
		}
		assert_int_equal(f[0], m);
		assert_int_equal(f[1], m);
		assert_int_equal(b[0], m);
		assert_int_equal(b[1], m);
		assert_int_equal(w, split);
		assert_int_equal(w, 2 * (p - i - 1) + i + 1);
	}
	free(st);
}

static void test_checks(void **state)
{
	(void)state;
	assert_null(pipeline_check(4, 2, 8, SCHED_INTERLEAVED));
	assert_non_null(pipeline_check(4, 2, 6, SCHED_INTERLEAVED));
	assert_non_null(pipeline_check(4, 2, 8, SCHED_1F1B));
	assert_null(pipeline_check(4, 2, 8, SCHED_DUALPIPEV));
	assert_null(pipeline_check(4, 2, 9, SCHED_DUALPIPEV));
	assert_non_null(pipeline_check(4, 2, 7, SCHED_DUALPIPEV));
	assert_non_null(pipeline_check(4, 1, 8, SCHED_DUALPIPEV));
	assert_non_null(pipeline_check(4, 3, 12, SCHED_DUALPIPEV));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_1f1b_and_gpipe_bubble),
		cmocka_unit_test(test_interleaved_bubble),
		cmocka_unit_test(test_zero_bubble_third),
		cmocka_unit_test(test_transfers_delay),
		cmocka_unit_test(test_dualpipev_bubble),
		cmocka_unit_test(test_dualpipev_order),
		cmocka_unit_test(test_checks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
