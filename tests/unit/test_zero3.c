/*
 * ZeRO-3 (FSDP) per-layer traffic against its closed form: before each
 * layer's forward its weights are all-gathered over the data-parallel group
 * (prefetched under the previous layer's forward, so only the part the
 * forward does not cover is exposed), and in the backward gathered again and
 * its gradients reduce-scattered under the layer's backward, every
 * micro-batch. The exposed part is data-parallel communication in the
 * breakdown (t_comm_dp_s), and the unsharded buffers are in the memory.
 */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "models/kernel/roofline.h"
#include "models/kernel/transformer.h"
#include "models/scenario/scenario.h"
#include "models/train/layer.h"
#include "models/train/step.h"
#include "models/train/train.h"

#include "catalog_fixture.h"

static void load(int zero, struct scenario *s)
{
	char text[2048];
	struct cs_error err;
	snprintf(text, sizeof text,
		 "{\"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\", \"seq_len\": 4096,"
		 " \"global_batch_tokens\": 262144, \"parallelism\": {\"tp\": 1, \"pp\": 1, \"vpp\": 1, \"cp\": 1,"
		 " \"ep\": 1, \"dp\": 16, \"zero\": %d, \"micro_batch\": 1, \"schedule\": \"1f1b\", \"recompute\": \"none\","
		 " \"sequence_parallel\": false}}, \"candidates\": [{\"preset\": \"dgx-h100\", \"nodes\": 2}]}", zero);
	assert_int_equal(scenario_of_text(text, s, &err), 0);
}

static void test_zero3_closed_form(void **state)
{
	(void)state;
	struct scenario s;
	struct train_result r;
	struct layer_ctx x;
	struct layer_time lt;
	struct collective_group g;
	struct cs_error err;
	load(3, &s);
	const struct model_spec *m = &s.workload.model.arch;
	train_evaluate(&s.workload.train, &s.candidates[0], NULL, &r);
	assert_int_equal(r.outcome.status, OUTCOME_OK);
	assert_int_equal(r.plan.microbatches, 4);
	assert_int_equal(layer_ctx_init(&x, &s.workload.train, &s.candidates[0], &r.plan, &err), 0);
	layer_cost(&x, false, &lt);
	layer_group_shape(&x, DIM_DP, 16, &g);
	assert_int_equal(g.nodes, 2);
	assert_int_equal(g.per_node, 8);
	double bytes = TRAIN_WEIGHT_BYTES * transformer_layer_params(m, false, true);
	double ag = layer_coll_s(&x, &g, COLL_ALL_GATHER, bytes);
	/* gradients reduce-scatter in the plan's gradient precision (fp32 by default) */
	double rs = layer_coll_s(&x, &g, COLL_REDUCE_SCATTER,
				 r.plan.grad_bytes * transformer_layer_params(m, false, true));
	double per_layer = roofline_overlap_s(s.workload.model.training.overlap_slowdown, ag, lt.fwd) +
			   roofline_overlap_s(s.workload.model.training.overlap_slowdown, ag + rs, lt.bwd_input + lt.bwd_weight + lt.recompute);
	/* plus the gradient-norm all-reduce of the data-parallel tail */
	double expect = 4.0 * m->layers * per_layer + step_norm_allreduce_s(&x);
	assert_true(expect > 0);
	assert_close(r.br.comm_dp, expect, 1e-9);
	/* two gathered layers of weights and two unsharded layers of gradients
	 * on top of the 1/dp shards (FSDP's prefetch and pending reduce-scatter) */
	struct scenario s2;
	struct train_result r2;
	load(2, &s2);
	train_evaluate(&s2.workload.train, &s2.candidates[0], NULL, &r2);
	double layer = transformer_layer_params(m, false, true);
	assert_close(r.mem.grads - r2.mem.grads, 2 * layer * r.plan.grad_bytes, 1e-9);
	scenario_release(&s);
	scenario_release(&s2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero3_closed_form),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
