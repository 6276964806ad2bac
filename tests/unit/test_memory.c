/* Memory per GPU against closed forms: mixed-precision Adam's 16 bytes per
 * parameter, ZeRO's sharding, the workspace and the total. */
#include "testutil.h"

#include <string.h>

#include "models/scenario/scenario.h"
#include "models/train/memory.h"
#include "models/train/parallel.h"

#include "catalog_fixture.h"

/* llama3-8b on 16 H100s with tp, pp and zero as given. */
static void plan_of(int tp, int pp, int zero, struct scenario *s, struct train_plan *p)
{
	char text[2048];
	struct cs_error err;
	snprintf(text, sizeof text,
		 "{\"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\", \"seq_len\": 4096,"
		 " \"global_batch_tokens\": 1048576, \"parallelism\": {\"tp\": %d, \"pp\": %d, \"vpp\": 1, \"cp\": 1,"
		 " \"ep\": 1, \"zero\": %d, \"micro_batch\": 1, \"schedule\": \"1f1b\", \"recompute\": \"selective\","
		 " \"sequence_parallel\": %s}}, \"candidates\": [{\"preset\": \"dgx-h100\", \"nodes\": 2}]}",
		 tp, pp, zero, tp > 1 ? "true" : "false");
	assert_int_equal(scenario_of_text(text, s, &err), 0);
	char why[PARALLEL_WHY_MAX];
	assert_true(parallel_fill(&s->workload.train, &s->candidates[0], &s->workload.train.plan, p, why, sizeof why));
}

/* The heaviest stage's parameters on one GPU. */
static double heaviest_params(const struct scenario *s, const struct train_plan *p)
{
	double most = 0;
	for (int vs = 0; vs < p->pp; vs++) {
		double n = parallel_vstage_params(&s->workload.train.model, p, vs, p->pp);
		if (n > most)
			most = n;
	}
	return most;
}

/* Without ZeRO every GPU holds bf16 weights (2), bf16 gradients (2) and
 * fp32 master weights, momentum and variance (12): 16 bytes per parameter
 * of its shard; the parts add up to the total. */
static void test_adam_16_bytes_per_param(void **state)
{
	(void)state;
	struct scenario s;
	struct train_plan p;
	struct train_memory m;
	plan_of(1, 1, 0, &s, &p);
	memory_per_gpu(&s.workload.train, &p, &m);
	double n = heaviest_params(&s, &p);
	assert_close(m.weights + m.grads + m.optimizer, 16 * n, 1e-12);
	assert_close(m.weights, 2 * n, 1e-12);
	assert_close(m.workspace, memory_workspace_bytes, 0);
	assert_close(m.total, m.weights + m.grads + m.optimizer + m.activations + m.workspace, 1e-12);
	scenario_release(&s);
}

/* ZeRO-1 shards the optimizer states over dp: 4 + 12 / dp bytes per
 * parameter of the tp x pp shard; ZeRO-2 the gradients too: 2 + 14 / dp. */
static void test_zero_shards_over_dp(void **state)
{
	(void)state;
	struct scenario s;
	struct train_plan p;
	struct train_memory m;
	plan_of(4, 2, 1, &s, &p);
	assert_int_equal(p.dp, 2);
	memory_per_gpu(&s.workload.train, &p, &m);
	double n = heaviest_params(&s, &p);
	assert_close(m.weights + m.grads + m.optimizer, (4 + 12.0 / p.dp) * n, 1e-12);
	scenario_release(&s);

	plan_of(4, 2, 2, &s, &p);
	memory_per_gpu(&s.workload.train, &p, &m);
	assert_close(m.weights + m.grads + m.optimizer, (2 + 14.0 / p.dp) * n, 1e-12);
	scenario_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_adam_16_bytes_per_param),
		cmocka_unit_test(test_zero_shards_over_dp),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
