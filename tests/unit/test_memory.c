/* Memory per GPU against closed forms: mixed-precision Adam's 16 bytes per
 * parameter, ZeRO's sharding, the workspace and the total; a LoRA
 * finetune's frozen base in the run's precision, a stated one, or QLoRA's
 * NF4 with its quantization constants. */
#include "testutil.h"

#include <string.h>

#include "models/kernel/transformer.h"
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

/* A llama3-8b finetune on one DGX H100 (tp given, pp 1, dp 8 / tp) in
 * `precision`, with the finetune object `ft`. */
static void finetune_of(const char *precision, const char *ft, int tp, struct scenario *s, struct train_plan *p)
{
	char text[2048];
	struct cs_error err;
	snprintf(text, sizeof text,
		 "{\"workload\": {\"kind\": \"finetune\", \"model\": \"llama3-8b\", \"precision\": \"%s\", \"seq_len\": 4096,"
		 " \"global_batch_tokens\": 1048576, \"finetune\": %s, \"parallelism\": {\"tp\": %d, \"pp\": 1, \"vpp\": 1,"
		 " \"cp\": 1, \"ep\": 1, \"zero\": 1, \"micro_batch\": 1, \"schedule\": \"1f1b\", \"recompute\": \"selective\","
		 " \"sequence_parallel\": true}}, \"candidates\": [{\"preset\": \"dgx-h100\"}]}",
		 precision, ft, tp);
	assert_int_equal(scenario_of_text(text, s, &err), 0);
	char why[PARALLEL_WHY_MAX];
	assert_true(parallel_fill(&s->workload.train, &s->candidates[0], &s->workload.train.plan, p, why, sizeof why));
}

/* The closed-form parts of a LoRA run on one GPU (pp 1): the frozen layers'
 * parameters, the 16-bit embeddings' (input and output, untied) and the
 * adapters' (rank r on QKV and the output projection). */
struct lora_parts {
	double layers, embedding, adapters;
};

static struct lora_parts lora_parts_of(const struct model_spec *m, int tp, double r)
{
	double h = m->hidden, d = transformer_head_dim(m);
	double qkv_out = m->heads * d + 2.0 * m->kv_heads * d;
	struct lora_parts x;
	x.layers = m->layers * transformer_layer_params(m, false, false) / tp;
	x.embedding = 2.0 * m->vocab * h / tp;
	x.adapters = m->layers * (r * (h + qkv_out) + r * (m->heads * d + h)) / tp;
	return x;
}

/* BF16 LoRA, rank 16 on attention, tp 2: the frozen base at 2 bytes per
 * parameter of the tp shard, the adapters' weights (2), gradients (2) and
 * Adam states (12, not sharded by ZeRO: they are tiny), the activations of
 * the frozen-MLP layers (their inputs are not kept) plus fp32 logits, and
 * the workspace: nothing else. */
static void test_lora_memory_closed_form(void **state)
{
	(void)state;
	struct scenario s;
	struct train_plan p;
	struct train_memory mem;
	finetune_of("bf16", "{\"method\": \"lora\", \"rank\": 16, \"targets\": \"attn\"}", 2, &s, &p);
	const struct train_spec *w = &s.workload.train;
	memory_per_gpu(w, &p, &mem);
	struct lora_parts x = lora_parts_of(&w->model, 2, 16);
	assert_close(mem.weights, 2 * x.layers + 2 * x.embedding + 2 * x.adapters, 1e-12);
	assert_close(mem.grads, 2 * x.adapters, 1e-12);
	assert_close(mem.optimizer, 12 * x.adapters, 1e-12);
	double act = w->model.layers * transformer_layer_activation_bytes_frozen(&w->model, 4096, 1, 2, true,
										  RECOMPUTE_SELECTIVE, true, TF_FROZEN_MLP) +
		     4.0 * 4096 * w->model.vocab / 2;
	assert_close(mem.activations, act, 1e-12);
	assert_close(mem.total, mem.weights + mem.grads + mem.optimizer + act + memory_workspace_bytes, 1e-12);
	scenario_release(&s);
}

/* An FP8 run keeps an FP8 base (as MLPerf's Llama 2 70B LoRA submissions
 * do): its layers hold half the bytes of the BF16 run's, 1 byte per
 * parameter; embeddings and adapters are unchanged. A BF16 run stating
 * base_precision fp8 holds the same. */
static void test_fp8_base_is_half_of_bf16(void **state)
{
	(void)state;
	struct scenario s;
	struct train_plan p;
	struct train_memory bf16, fp8, stated;
	const char *ft = "{\"method\": \"lora\", \"rank\": 16, \"targets\": \"attn\"}";
	finetune_of("bf16", ft, 4, &s, &p);
	memory_per_gpu(&s.workload.train, &p, &bf16);
	struct lora_parts x = lora_parts_of(&s.workload.train.model, 4, 16);
	scenario_release(&s);
	finetune_of("fp8", ft, 4, &s, &p);
	memory_per_gpu(&s.workload.train, &p, &fp8);
	assert_int_equal(memory_base_format(&s.workload.train), FT_BASE_FP8);
	scenario_release(&s);
	double fixed = 2 * x.embedding + 2 * x.adapters;
	assert_close(bf16.weights - fixed, 2 * (fp8.weights - fixed), 1e-12);
	assert_close(fp8.weights, x.layers + fixed, 1e-12);

	finetune_of("bf16", "{\"method\": \"lora\", \"rank\": 16, \"targets\": \"attn\", \"base_precision\": \"fp8\"}", 4,
		    &s, &p);
	memory_per_gpu(&s.workload.train, &p, &stated);
	assert_close(stated.weights, fp8.weights, 1e-12);
	scenario_release(&s);
}

/* QLoRA: 4-bit NF4 values (0.5 byte) plus the constants, one per 64 weights
 * double-quantized to 8 bits in blocks of 256 with one fp32 constant each:
 * 8/64 + 32/(64 x 256) = 0.127 bits per parameter (Dettmers et al. 2023,
 * section 3). The embeddings stay 16-bit. */
static void test_qlora_base_closed_form(void **state)
{
	(void)state;
	struct scenario s;
	struct train_plan p;
	struct train_memory mem;
	double nf4 = 0.5 + 1.0 / 64 + 4.0 / (64 * 256);
	assert_close(memory_base_bytes_per_param(FT_BASE_NF4), nf4, 1e-15);
	assert_close(8 * (nf4 - 0.5), 0.127, 1e-2);
	finetune_of("bf16", "{\"method\": \"qlora\", \"rank\": 16, \"targets\": \"attn\"}", 1, &s, &p);
	memory_per_gpu(&s.workload.train, &p, &mem);
	struct lora_parts x = lora_parts_of(&s.workload.train.model, 1, 16);
	assert_close(mem.weights, nf4 * x.layers + 2 * x.embedding + 2 * x.adapters, 1e-12);
	/* the base's GEMMs read bf16: each use dequantizes NF4 (read) to bf16 (write) */
	assert_close(memory_base_cast_bytes_per_param(&s.workload.train), nf4 + 2, 1e-15);
	scenario_release(&s);
	/* an FP8 LoRA's GEMMs read its FP8 base as stored: no cast */
	finetune_of("fp8", "{\"method\": \"lora\"}", 1, &s, &p);
	assert_close(memory_base_cast_bytes_per_param(&s.workload.train), 0, 0);
	scenario_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_adam_16_bytes_per_param),
		cmocka_unit_test(test_zero_shards_over_dp),
		cmocka_unit_test(test_lora_memory_closed_form),
		cmocka_unit_test(test_fp8_base_is_half_of_bf16),
		cmocka_unit_test(test_qlora_base_closed_form),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
