/* Memory per GPU against closed forms: mixed-precision Adam's 16 bytes per
 * parameter, ZeRO's sharding, the workspace and the total; a LoRA
 * finetune's frozen base in the run's precision, a stated one, or QLoRA's
 * NF4 with its quantization constants. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "models/comm/collective.h"
#include "models/kernel/transformer.h"
#include "models/run/ckpt.h"
#include "models/scenario/scenario.h"
#include "models/train/bucket.h"
#include "models/train/layer.h"
#include "models/train/memory.h"
#include "models/train/parallel.h"
#include "models/train/pipeline.h"
#include "models/train/train.h"

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
		double n = parallel_vstage_params(&s->workload.model.arch, p, vs, p->pp);
		if (n > most)
			most = n;
	}
	return most;
}

/* Without ZeRO every GPU holds bf16 weights (2), gradients in fp32 (4, the
 * default: Megatron's main_grad buffer) and fp32 master weights, momentum
 * and variance (12): 18 bytes per parameter of its shard, Megatron's
 * theoretical_memory_usage.py without the distributed optimizer; the parts
 * add up to the total. */
static void test_adam_16_bytes_per_param(void **state)
{
	(void)state;
	struct scenario s;
	struct train_plan p;
	struct train_memory m;
	plan_of(1, 1, 0, &s, &p);
	memory_per_gpu(&s.workload.train, &p, &m);
	double n = heaviest_params(&s, &p);
	assert_close(m.weights + m.grads + m.optimizer, 18 * n, 1e-12);
	assert_close(m.weights, 2 * n, 1e-12);
	assert_close(m.grads, 4 * n, 1e-12);
	assert_close(m.workspace, memory_workspace_bytes, 0);
	assert_close(m.total, m.weights + m.grads + m.optimizer + m.activations + m.workspace, 1e-12);

	/* BF16 moments (parallelism.optimizer_moments "bf16"; DeepSeek-V3
	 * 3.3.3, Megatron's precision-aware optimizer): the fp32 master copy
	 * and two 2-byte moments, 8 bytes per parameter where fp32 moments take
	 * 12; the checkpoint holds 4 bytes a parameter less and Adam's step
	 * moves 22 bytes a parameter where it moved 30 */
	double ck = ckpt_bytes(&s.workload.train, &p);
	struct train_result r32;
	/* 18 bytes a parameter of 8B do not fit in 80 GB, and a plan that does
	 * not fit gets no step: a GPU with room for it, to time the optimizer */
	s.candidates[0].gpu.memory_bytes = 1e12;
	train_evaluate(&s.workload.train, &s.candidates[0], NULL, &r32);
	assert_int_equal(r32.outcome.status, OUTCOME_OK);
	assert_close(m.optimizer, 12 * n, 1e-12);
	s.workload.train.plan.optimizer_moments = MOMENTS_BF16;
	struct train_plan q;
	char why[PARALLEL_WHY_MAX];
	assert_true(parallel_fill(&s.workload.train, &s.candidates[0], &s.workload.train.plan, &q, why, sizeof why));
	memory_per_gpu(&s.workload.train, &q, &m);
	assert_close(m.optimizer, 8 * n, 1e-12);
	double total = transformer_params_total(&s.workload.model.arch);
	assert_close(ck - ckpt_bytes(&s.workload.train, &q), 4 * total, 1e-12);
	struct train_result r16;
	train_evaluate(&s.workload.train, &s.candidates[0], NULL, &r16);
	assert_int_equal(r16.outcome.status, OUTCOME_OK);
	assert_close(r16.br.optimizer / r32.br.optimizer, 22.0 / 30, 1e-3);
	scenario_release(&s);
}

/* ZeRO-1 (Megatron's distributed optimizer) shards the optimizer states
 * over dp: 6 + 12 / dp bytes per parameter of the tp x pp shard, the
 * estimator's num_bytes_per_parameter; ZeRO-2 the fp32 gradients too:
 * 2 + 16 / dp. */
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
	assert_close(m.weights + m.grads + m.optimizer, (6 + 12.0 / p.dp) * n, 1e-12);
	scenario_release(&s);

	plan_of(4, 2, 2, &s, &p);
	memory_per_gpu(&s.workload.train, &p, &m);
	assert_close(m.weights + m.grads + m.optimizer, (2 + 16.0 / p.dp) * n, 1e-12);
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
 * parameter of the tp shard, the adapters' weights (2), gradients (4) and
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
	struct lora_parts x = lora_parts_of(&w->model->arch, 2, 16);
	assert_close(mem.weights, 2 * x.layers + 2 * x.embedding + 2 * x.adapters, 1e-12);
	assert_close(mem.grads, 4 * x.adapters, 1e-12);
	assert_close(mem.optimizer, 12 * x.adapters, 1e-12);
	double act = w->model->arch.layers * transformer_layer_activation_bytes_frozen(&w->model->arch, 4096, 1, 2, true,
										  RECOMPUTE_SELECTIVE, RECMOD_DEFAULT, true,
										  TF_FROZEN_MLP) +
		     /* each of the two adapters' rank-16 intermediate, 16-bit, split by sp */
		     w->model->arch.layers * 4096.0 * 2 * 16 * 2 / 2 + 4.0 * 4096 * w->model->arch.vocab / 2;
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
	struct lora_parts x = lora_parts_of(&s.workload.model.arch, 4, 16);
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
	struct lora_parts x = lora_parts_of(&s.workload.model.arch, 1, 16);
	assert_close(mem.weights, nf4 * x.layers + 2 * x.embedding + 2 * x.adapters, 1e-12);
	/* the base's GEMMs read bf16: each use dequantizes NF4 (read) to bf16 (write) */
	assert_close(memory_base_cast_bytes_per_param(&s.workload.train), nf4 + 2, 1e-15);
	scenario_release(&s);
	/* an FP8 LoRA's GEMMs read its FP8 base as stored: no cast */
	finetune_of("fp8", "{\"method\": \"lora\"}", 1, &s, &p);
	assert_close(memory_base_cast_bytes_per_param(&s.workload.train), 0, 0);
	scenario_release(&s);
}

/* A scenario given as text, its plan filled. */
static void plan_text(const char *text, struct scenario *s, struct train_plan *p)
{
	struct cs_error err;
	assert_int_equal(scenario_of_text(text, s, &err), 0);
	char why[PARALLEL_WHY_MAX];
	bool ok = parallel_fill(&s->workload.train, &s->candidates[0], &s->workload.train.plan, p, why, sizeof why);
	if (!ok)
		print_error("%s\n", why);
	assert_true(ok);
}

/* A GPT shape (f = 4h, GELU, dropout, MHA) of 32 layers, h 4096, a 32,
 * vocab 51200, trained at seq 2048 with tp 4 + sequence parallelism,
 * selective recompute, pp 4, cp as given and dp 2 on 32 cp H100s, with the schedule, vpp and
 * micro-batches per step given. */
static void gpt_plan(const char *schedule, int vpp, int microbatches, int zero, int cp, const char *grad,
		     struct scenario *s, struct train_plan *p)
{
	char text[2048];
	snprintf(text, sizeof text,
		 "{\"workload\": {\"kind\": \"training\", \"model\": {\"layers\": 32, \"hidden\": 4096,"
		 " \"heads\": 32, \"kv_heads\": 32, \"ffn\": 16384, \"mlp\": \"gelu\", \"vocab\": 51200,"
		 " \"tied_embeddings\": true, \"dropout\": true}, \"seq_len\": 2048, \"global_batch_tokens\": %d,"
		 " \"kernels\": {\"flash_attention\": false},"
		 " \"parallelism\": {\"tp\": 4, \"pp\": 4, \"vpp\": %d, \"cp\": %d, \"ep\": 1, \"zero\": %d,"
		 " \"micro_batch\": 1, \"schedule\": \"%s\", \"recompute\": \"selective\","
		 " \"sequence_parallel\": true, \"grad_reduce_precision\": \"%s\"}},"
		 " \"candidates\": [{\"preset\": \"dgx-h100\", \"nodes\": %d}]}",
		 2048 * microbatches * 2, vpp, cp, zero, schedule, grad, 4 * cp);
	plan_text(text, s, p);
	assert_int_equal(p->dp, 2);
	assert_int_equal(p->microbatches, microbatches);
}

/* Megatron's theoretical_memory_usage.py, compute_activation_memory (SP
 * and selective recompute, Korthikanti et al. 2022 Table 2): the first
 * stage holds s b h (18 + 4 f/h) per layer (34 s b h for f = 4h) for all L
 * layers, times 1 + (p - 1)/(p v) when interleaved, times min(1, m/p)
 * under 1F1B, plus 8 s b p + s b h p (the embedding's input and dropout
 * mask), all over t. clustersim keeps the layers' part exactly and leaves
 * * out the embedding terms (0.37% here), and the first stage is the
 * heaviest. */
static double megatron_estimator_activations(double L, double s, double b, double h, double f, double t, double p,
					     double v, double m, bool interleaved, double *layers_part)
{
	double per_layer = s * b * h * (18 + 4 * f / h);
	double act = per_layer * L + 8 * s * b * p + s * b * h * p;
	double factor = interleaved ? 1 + (p - 1) / (p * v) : (m / p < 1 ? m / p : 1);
	*layers_part = per_layer * L * factor / t;
	return act * factor / t;
}

static void test_interleaved_activations_megatron_estimator(void **state)
{
	(void)state;
	struct scenario s;
	struct train_plan p;
	struct train_memory mem;
	double layers_part;
	/* interleaved, v = 2, m = 8: the first stage holds 32 (1 + 3/8) = 44
	 * layer-micro-batches: the warm-up's 2(p - 1) + (v - 1)p = 10 chunk
	 * forwards of 4 layers, and one more */
	gpt_plan("interleaved", 2, 8, 1, 1, "fp32", &s, &p);
	memory_per_gpu(&s.workload.train, &p, &mem);
	double est = megatron_estimator_activations(32, 2048, 1, 4096, 16384, 4, 4, 2, 8, true, &layers_part);
	assert_close(mem.activations, layers_part, 1e-12);
	assert_close(mem.activations, 44 * 34.0 * 2048 * 4096 / 4, 1e-12);
	assert_close(mem.activations, est, 4e-3);
	scenario_release(&s);
	/* v = 4: 32 (1 + 3/16) = 38 */
	gpt_plan("interleaved", 4, 8, 1, 1, "fp32", &s, &p);
	memory_per_gpu(&s.workload.train, &p, &mem);
	megatron_estimator_activations(32, 2048, 1, 4096, 16384, 4, 4, 4, 8, true, &layers_part);
	assert_close(mem.activations, layers_part, 1e-12);
	scenario_release(&s);
	/* 1F1B: all L layers (p micro-batches of L/p), or m/p of that when
	 * m < p (the estimator's discount) */
	gpt_plan("1f1b", 1, 8, 1, 1, "fp32", &s, &p);
	memory_per_gpu(&s.workload.train, &p, &mem);
	megatron_estimator_activations(32, 2048, 1, 4096, 16384, 4, 4, 1, 8, false, &layers_part);
	assert_close(mem.activations, layers_part, 1e-12);
	scenario_release(&s);
	gpt_plan("1f1b", 1, 2, 1, 1, "fp32", &s, &p);
	memory_per_gpu(&s.workload.train, &p, &mem);
	megatron_estimator_activations(32, 2048, 1, 4096, 16384, 4, 4, 1, 2, false, &layers_part);
	assert_close(mem.activations, layers_part, 1e-12);
	assert_close(mem.activations, 16 * 34.0 * 2048 * 4096 / 4, 1e-12);
	scenario_release(&s);
}

/* DualPipeV (pipeline.h): every stage's peak is 2p + 1 chunk-micro-batches
 * (the DualPipe README's PP + 1 for PP = 2p virtual stages), here 9 chunks
 * of 4 layers = 36 layer-micro-batches against 1F1B's p of 8 = 32; and the
 * first stage holds the first and the last virtual stage, the embedding
 * and the output layer (tied: one matrix), so its peak also has one
 * micro-batch's fp32 logits, s V / t x 4 bytes. */
static void test_dualpipev_activations(void **state)
{
	(void)state;
	struct scenario s;
	struct train_plan p;
	struct train_memory mem;
	double logits = 2048 * 51200 * 4.0 / 4;
	gpt_plan("dualpipev", 2, 8, 1, 1, "fp32", &s, &p);
	memory_per_gpu(&s.workload.train, &p, &mem);
	assert_close(mem.activations, 36 * 34.0 * 2048 * 4096 / 4 + logits, 1e-12);
	const struct model_spec *m = &s.workload.model.arch;
	int P = p.pp * p.vpp;
	assert_int_equal(pipeline_vstage(p.pp, p.schedule, 0, 1), P - 1);
	/* tied: the output layer is the embedding the stage already holds */
	assert_close(parallel_vstage_embedding_params(m, &p, 0, P), (double)m->vocab * m->hidden / 4, 1e-12);
	assert_close(parallel_vstage_embedding_params(m, &p, P - 1, P), 0, 0);
	scenario_release(&s);
	/* m = 12: still 2p + 1 */
	gpt_plan("dualpipev", 2, 12, 1, 1, "fp32", &s, &p);
	memory_per_gpu(&s.workload.train, &p, &mem);
	assert_close(mem.activations, 36 * 34.0 * 2048 * 4096 / 4 + logits, 1e-12);
	scenario_release(&s);
}

/* Llama 3 405B as Meta ran it at 8K (arXiv:2407.21783, Table 4 and section
 * 3.3.2): tp 8, pp 16, dp 64, 32 micro-batches, interleaved with v = 8 and
 * the embedding and the loss each in a layer's slot, so every chunk holds
 * one layer but the first stage's first chunk (the embedding) and the last
 * stage's last (the loss). Walking Megatron's order: stage 0 holds its 7
 * layers for the first 16 micro-batches (112; the rest of its warm-up,
 * 2 x 15 forwards, falls on the embedding chunk); stage 1 holds
 * 2(p - 2) + (v - 1)p + 1 = 141 one-layer chunks, the heaviest. Without the
 * split, chunks do not fit (pp x vpp = 128 > 126 layers). */
static void test_llama3_split_peak(void **state)
{
	(void)state;
	struct scenario s;
	struct train_plan p;
	struct train_memory mem;
	const char *text =
		"{\"workload\": {\"kind\": \"training\", \"model\": \"llama3-405b\", \"seq_len\": 8192,"
		" \"global_batch_tokens\": 16777216, \"parallelism\": {\"tp\": 8, \"pp\": 16, \"vpp\": 8, \"cp\": 1,"
		" \"ep\": 1, \"zero\": 2, \"micro_batch\": 1, \"schedule\": \"interleaved\", \"recompute\": \"none\","
		" \"sequence_parallel\": true, \"pipeline_split\": \"embedding+loss\"}},"
		" \"candidates\": [{\"preset\": \"dgx-h100\", \"nodes\": 1024}]}";
	plan_text(text, &s, &p);
	assert_int_equal(p.microbatches, 32);
	const struct train_spec *w = &s.workload.train;
	int first, count, total = 0;
	for (int vs = 0; vs < 128; vs++) {
		parallel_vstage_layers(&p, 126, 128, vs, &first, &count);
		assert_int_equal(count, vs == 0 || vs == 127 ? 0 : 1);
		assert_int_equal(first, vs == 0 ? 0 : vs - 1);
		total += count;
	}
	assert_int_equal(total, 126);
	memory_per_gpu(w, &p, &mem);
	double per_layer = transformer_layer_activation_bytes(&w->model->arch, 8192, 1, 8, true, RECOMPUTE_NONE, true);
	assert_close(mem.activations, 141 * per_layer, 1e-12);
	/* stage 1's 8 layers, no embedding: ZeRO-2 shards grads and Adam over dp 64 */
	double params = 8 * transformer_layer_params(&w->model->arch, false, false) / 8;
	assert_close(mem.weights, 2 * params, 1e-12);
	assert_close(mem.grads + mem.optimizer, 16 * params / 64, 1e-12);
	scenario_release(&s);
	char why[PARALLEL_WHY_MAX];
	plan_text(text, &s, &p);
	s.workload.train.plan.pipeline_split = SPLIT_LAYERS;
	assert_false(parallel_fill(&s.workload.train, &s.candidates[0], &s.workload.train.plan, &p, why, sizeof why));
	assert_non_null(strstr(why, "exceeds the 126 layers"));
	scenario_release(&s);
}

/* The same run with each stage's input freed early (Llama 3 section 3.3.2,
 * parallelism.free_stage_input): each of stage 1's 141 one-layer chunks in
 * flight gives back its input, 2 s b h / tp bytes under sequence
 * parallelism, and the total fits the 80 GiB H100, where it did not
 * before (81.6 GiB with the 5 GiB workspace). */
static void test_llama3_free_stage_input(void **state)
{
	(void)state;
	struct scenario s;
	struct train_plan p;
	struct train_memory mem;
	const char *text =
		"{\"workload\": {\"kind\": \"training\", \"model\": \"llama3-405b\", \"seq_len\": 8192,"
		" \"global_batch_tokens\": 16777216, \"parallelism\": {\"tp\": 8, \"pp\": 16, \"vpp\": 8, \"cp\": 1,"
		" \"ep\": 1, \"zero\": 2, \"micro_batch\": 1, \"schedule\": \"interleaved\", \"recompute\": \"none\","
		" \"sequence_parallel\": true, \"pipeline_split\": \"embedding+loss\", \"free_stage_input\": true}},"
		" \"candidates\": [{\"preset\": \"dgx-h100\", \"nodes\": 1024}]}";
	plan_text(text, &s, &p);
	assert_true(p.free_stage_input);
	const struct train_spec *w = &s.workload.train;
	memory_per_gpu(w, &p, &mem);
	double per_layer = transformer_layer_activation_bytes(&w->model->arch, 8192, 1, 8, true, RECOMPUTE_NONE, true);
	double input = 2.0 * 8192 * w->model->arch.hidden / 8;
	assert_close(mem.activations, 141 * (per_layer - input), 1e-12);
	assert_true(mem.total < 80.0 * 1073741824.0);
	scenario_release(&s);
}

/* Megatron's distributed optimizer and its gradient buffers use the
 * data-parallel group with context parallelism: with cp 2 ZeRO-1 holds
 * 6 + 12/(dp cp) bytes per parameter, ZeRO-2 2 + 16/(dp cp), and the
 * buckets go over that group. */
static void test_zero_shards_over_dp_cp(void **state)
{
	(void)state;
	struct scenario s;
	struct train_plan p;
	struct train_memory m;
	for (int zero = 1; zero <= 2; zero++) {
		gpt_plan("1f1b", 1, 8, zero, 2, "fp32", &s, &p);
		assert_int_equal(p.cp, 2);
		memory_per_gpu(&s.workload.train, &p, &m);
		double n = heaviest_params(&s, &p);
		double shard = 2.0 * 2;
		assert_close(m.weights + m.grads + m.optimizer, zero == 1 ? (6 + 12 / shard) * n : (2 + 16 / shard) * n,
			     1e-12);
		/* and the gradients are reduced over those dp x cp = 4 ranks: in
		 * tp-cp-pp-dp order the two cp ranks share a node (tp 4 x cp 2 =
		 * its 8 GPUs) and the two dp replicas are 32 GPUs apart */
		struct layer_ctx x;
		struct cs_error err;
		struct collective_group g;
		assert_int_equal(layer_ctx_init(&x, &s.workload.train, &s.candidates[0], &p, &err), 0);
		layer_dp_cp_group_shape(&x, &g);
		assert_int_equal(g.n, 4);
		assert_int_equal(g.nodes, 2);
		assert_int_equal(g.per_node, 2);
		scenario_release(&s);
	}
}

/* grad_reduce_precision bf16 halves the gradient buffer (4 -> 2 bytes per
 * parameter without ZeRO-2) and every data-parallel bucket's bytes; the
 * default of a bf16 run is fp32 (Megatron), of an fp16 run 16-bit. */
static void test_grad_reduce_precision(void **state)
{
	(void)state;
	struct scenario s;
	struct train_plan p32, p16;
	struct train_memory m32, m16;
	struct scenario s16;
	gpt_plan("1f1b", 1, 8, 1, 1, "fp32", &s, &p32);
	gpt_plan("1f1b", 1, 8, 1, 1, "bf16", &s16, &p16);
	assert_close(p32.grad_bytes, 4, 0);
	assert_close(p16.grad_bytes, 2, 0);
	memory_per_gpu(&s.workload.train, &p32, &m32);
	memory_per_gpu(&s16.workload.train, &p16, &m16);
	assert_close(m32.grads, 2 * m16.grads, 1e-12);
	assert_close(m32.grads - m16.grads, 2 * heaviest_params(&s, &p32), 1e-12);

	struct layer_ctx x32, x16;
	struct cs_error err;
	assert_int_equal(layer_ctx_init(&x32, &s.workload.train, &s.candidates[0], &p32, &err), 0);
	assert_int_equal(layer_ctx_init(&x16, &s16.workload.train, &s16.candidates[0], &p16, &err), 0);
	struct collective_group dpg;
	layer_group_shape(&x32, DIM_DP, p32.dp, &dpg);
	struct bucket_chunk b32, b16;
	double params = 1e9;
	bucket_chunk_init(&b32, &x32, &dpg, 8, params);
	bucket_chunk_init(&b16, &x16, &dpg, 8, params);
	assert_close(b32.bytes, 4 * params / 8, 1e-15);
	assert_close(b32.bytes, 2 * b16.bytes, 1e-15);
	/* the fp32 bucket costs what a 16-bit one of twice the bytes costs */
	struct coll_cost c;
	const char *why;
	assert_true(collective_analytic(&x16.topo, &dpg, b16.op, ALGO_AUTO, 2 * b16.bytes, &c, &why));
	assert_close(b32.cost.time_s, c.time_s, 1e-12);
	assert_true(b16.cost.time_s < b32.cost.time_s);
	scenario_release(&s);
	scenario_release(&s16);

	finetune_of("fp16", "{\"method\": \"full\"}", 1, &s, &p32);
	assert_close(p32.grad_bytes, 2, 0);
	scenario_release(&s);
	assert_close(parallel_grad_bytes(PREC_BF16, GRAD_REDUCE_AUTO), 4, 0);
	assert_close(parallel_grad_bytes(PREC_FP8, GRAD_REDUCE_AUTO), 4, 0);
	assert_close(parallel_grad_bytes(PREC_FP16, GRAD_REDUCE_FP32), 4, 0);
}

/* MLPerf v5.0's Llama 2 70B LoRA on one B200 (config_DGXB200_1x8x1xtp1pp1cp1.sh):
 * tp 1, cp 1, micro-batch 1, sequence 8192, FP8 with the MLP activation's
 * input stored in FP8, rank 16 on QKV and the output projection, `targets`
 * as given. */
static void mlperf_b200_of(const char *targets, struct scenario *s, struct train_plan *p)
{
	char text[2048];
	struct cs_error err;
	snprintf(text, sizeof text,
		 "{\"workload\": {\"kind\": \"finetune\", \"model\": \"llama2-70b\", \"precision\": \"fp8\","
		 " \"seq_len\": 8192, \"global_batch_tokens\": 65536, \"finetune\": {\"method\": \"lora\", \"rank\": 16,"
		 " \"targets\": \"%s\"}, \"parallelism\": {\"tp\": 1, \"pp\": 1, \"vpp\": 1, \"dp\": 8, \"cp\": 1,"
		 " \"ep\": 1, \"zero\": 1, \"micro_batch\": 1, \"schedule\": \"1f1b\", \"recompute\": \"none\","
		 " \"sequence_parallel\": false, \"activation_func_fp8_input_store\": true}},"
		 " \"candidates\": [{\"preset\": \"dgx-b200\", \"nodes\": 1}]}",
		 targets);
	assert_int_equal(scenario_of_text(text, s, &err), 0);
	char why[PARALLEL_WHY_MAX];
	assert_true(parallel_fill(&s->workload.train, &s->candidates[0], &s->workload.train.plan, p, why, sizeof why));
}

/* What one layer keeps, operation by operation (Korthikanti et al. 2022,
 * section 4.1, applied to what a LoRA run keeps), bytes per token at tp 1,
 * FlashAttention, no dropout in the base:
 * - the two RMSNorms' inputs, 2h each (their backward needs them);
 * - a frozen linear's input for its weight gradient: 0 (there is none);
 *   an adapted linear keeps its input once (the adapter's A reads it) and
 *   the rank-r intermediate x A (2r) for dB;
 * - FlashAttention's Q (2h), K and V (2 x 2gd) and output O (2h, also the
 *   output projection's input);
 * - SwiGLU's inputs gate and up (2f elements) in FP8 (1 byte each), its
 *   product (the down projection's input) only when down is adapted.
 * Attention adapted, MLP frozen (MLPerf's targets):
 *   4h + (2h + 2 x 2r) + 2h + 4gd + 2h + 2f. */
static void test_lora_per_operation_closed_form(void **state)
{
	(void)state;
	struct scenario s;
	struct train_plan p;
	mlperf_b200_of("attn", &s, &p);
	const struct model_spec *m = &s.workload.model.arch;
	double h = m->hidden, gd = m->kv_heads * transformer_head_dim(m), f = m->ffn, r = 16, sb = 8192;
	double attn_adapted = 4 * h + (2 * h + 2 * 2 * r) + 2 * h + 4 * gd + 2 * h + 2 * f;
	assert_close(memory_layer_activation_bytes(&s.workload.train, &p), sb * attn_adapted, 1e-12);
	scenario_release(&s);
	/* MLP adapted, attention frozen: no QKV input (its adapters are gone),
	 * O still kept (FlashAttention's backward reads it); the MLP keeps its
	 * input (2h), gate and up in FP8 (2f), the product for down (2f) and
	 * three rank-r intermediates */
	mlperf_b200_of("mlp", &s, &p);
	double mlp_adapted = 4 * h + 2 * h + 4 * gd + 2 * h + (2 * h + 3 * 2 * r) + 2 * f + 2 * f;
	assert_close(memory_layer_activation_bytes(&s.workload.train, &p), sb * mlp_adapted, 1e-12);
	scenario_release(&s);
}

/* A published peak: MLPerf Training v5.0, NVIDIA nyx_n1_ngc25.04_nemo
 * llama2_70b_lora (mlcommons/training_results_v5.0@0fdc28f0,
 * NVIDIA/results/nyx_n1_ngc25.04_nemo/llama2_70b_lora/result_*.txt) logs
 * max_memory_usage 168.827 with every throughput: the PyTorch allocator's
 * peak on one of the 8 B200s. The log does not state the unit; the model's
 * total per GPU (which also counts a CUDA context and NCCL workspace the
 * allocator does not see) is within 10% of it read as GiB and as GB. */
static void test_mlperf_b200_lora_peak(void **state)
{
	(void)state;
	struct scenario s;
	struct train_plan p;
	struct train_memory mem;
	mlperf_b200_of("attn", &s, &p);
	memory_per_gpu(&s.workload.train, &p, &mem);
	double gib = mem.total / 1073741824.0;
	assert_true(fabs(gib / 168.827 - 1) <= 0.10);
	assert_true(fabs(mem.total / 168.827e9 - 1) <= 0.10);
	/* and it fits the B200's 180 GiB the catalog gives, as the run did */
	assert_true(gib < 180);
	scenario_release(&s);
}

/* Megatron's --recompute-method with --recompute-num-layers N, llama3-8b
 * (32 layers, h 4096), tp 2 with sp, pp 2: 16 layers a chunk, s 4096, b 1.
 * A recomputed layer keeps its input, 2 s b h / t bytes; block N = 4 keeps
 * 4 inputs and 12 layers' whole activations per chunk and redoes 4/16 of the
 * forward; uniform N = 4 keeps one input per 4 layers and redoes every
 * forward; block over a whole chunk is the classic full recompute. */
static void test_recompute_num_layers(void **state)
{
	(void)state;
	struct scenario s;
	struct train_plan p;
	plan_of(2, 2, 1, &s, &p);
	const struct train_spec *w = &s.workload.train;
	double input = 2.0 * 4096 * 1 * 4096 / 2;
	p.recompute = RECOMPUTE_NONE;
	double none = memory_layer_activation_bytes(w, &p);
	p.recompute = RECOMPUTE_FULL;
	p.recompute_method = RECOMPUTE_UNIFORM;
	p.recompute_layers = 1;
	assert_close(memory_layer_activation_bytes(w, &p), input, 1e-12);
	assert_close(memory_recompute_share(w, &p), 1, 0);
	p.recompute_layers = 4;
	assert_close(memory_layer_activation_bytes(w, &p), input / 4, 1e-12);
	p.recompute_method = RECOMPUTE_BLOCK;
	assert_close(memory_recompute_share(w, &p), 4.0 / 16, 1e-12);
	assert_close(memory_layer_activation_bytes(w, &p), (4 * input + 12 * none) / 16, 1e-12);
	p.recompute_layers = 16;
	assert_close(memory_layer_activation_bytes(w, &p), input, 1e-12);
	scenario_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_adam_16_bytes_per_param),
		cmocka_unit_test(test_zero_shards_over_dp),
		cmocka_unit_test(test_lora_memory_closed_form),
		cmocka_unit_test(test_lora_per_operation_closed_form),
		cmocka_unit_test(test_mlperf_b200_lora_peak),
		cmocka_unit_test(test_recompute_num_layers),
		cmocka_unit_test(test_fp8_base_is_half_of_bf16),
		cmocka_unit_test(test_qlora_base_closed_form),
		cmocka_unit_test(test_interleaved_activations_megatron_estimator),
		cmocka_unit_test(test_llama3_free_stage_input),
		cmocka_unit_test(test_dualpipev_activations),
		cmocka_unit_test(test_llama3_split_peak),
		cmocka_unit_test(test_zero_shards_over_dp_cp),
		cmocka_unit_test(test_grad_reduce_precision),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
