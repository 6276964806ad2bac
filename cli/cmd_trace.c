/* clustersim trace: one training step as a Chrome/Perfetto trace. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "models/hw/placement.h"
#include "models/eval/evaluate.h"
#include "models/scenario/jobs.h"
#include "models/train/pipeline.h"
#include "output/outfile.h"
#include "output/trace.h"
#include "util/xalloc.h"
#include "util/text.h"

static const char usage_text[] =
	"usage: clustersim trace SCENARIO.json [--candidate NAME] [--set PATH=VALUE]... [--seed N]\n"
	"                        [--catalog FILE]... [-o FILE.json]\n\n"
	"Simulates one training step of the candidate (the first by default) with its plan\n"
	"(searched when \"auto\") and writes it in Chrome's trace event format: one process per\n"
	"node, one thread per GPU stream (each pipeline stage's first GPU: compute with the\n"
	"collectives on its critical path nested in each operation, data-parallel comm,\n"
	"point-to-point transfers), flow arrows from each transfer to the operation it\n"
	"feeds. Open it in chrome://tracing or https://ui.perfetto.dev. A candidate whose\n"
	"plan cannot run (oom, invalid) is bad input: exit 2, nothing written. A trace holds at\n"
	"most 1,000,000 events (about 300 MB of JSON, written as it is formed): a step that logs\n"
	"more is bad input too (exit 2, nothing written): trace fewer micro-batches or stages.\n"
	"  --candidate NAME   trace the candidate of that name\n"
	"  --set PATH=VALUE   override a field of the scenario\n"
	"  --seed N           replace the scenario's seed\n"
	"  --catalog FILE     merge a user's catalog file before reading the scenario\n"
	"  -o, --output FILE  write the trace to FILE (atomically) instead of standard output\n"
	"  -h, --help         print this help\n";

static int trace_exec(struct cli_call *call, struct cs_error *err)
{
	struct scenario *s = &call->scenario;
	const char *want = cli_value(call, 'C'), *file = call->operands[0];
	int status = EXIT_OK;
	struct timeline log = { 0 };
	struct trace_track *tracks = NULL;
	static const char *const stream_names[] = {
		[PIPE_STREAM_COMPUTE] = "compute", [PIPE_STREAM_COMM] = "comm", [PIPE_STREAM_P2P] = "p2p",
	};

	if (s->workload.kind != WORKLOAD_TRAINING && s->workload.kind != WORKLOAD_FINETUNE) {
		status = cli_usage_error(err, "trace", "'%s' is a %s workload; trace shows training and fine-tuning steps",
					 file, workload_kind_names[s->workload.kind]);
		goto out;
	}
	size_t ci = 0;
	if (want != NULL) {
		for (ci = 0; ci < s->n_candidates; ci++)
			if (strcmp(s->candidates[ci].name, want) == 0)
				break;
		if (ci == s->n_candidates) {
			status = cli_usage_error(err, "trace", "no candidate named '%.60s' in '%s'", want, file);
			goto out;
		}
	}
	{
		size_t njobs;
		struct job *jobs = jobs_from_scenario(s, false, -1, &njobs);
		struct job job = jobs[ci];
		struct result res;
		const struct train_result *r = &res.train;
		struct placement pl;
		struct outfile out;
		char title[2 * CAT_TEXT_MAX + 128];  /* both names whole (each under CAT_TEXT_MAX) */

		free(jobs);
		log.max = TRACE_EVENTS_MAX;  /* the spans kept while the step is simulated */
		job.trace = &log;
		evaluate(&job, &res);
		if (log.dropped > 0) {
			status = cli_usage_error(err, "trace", "candidate '%s': the step logs more than %zu spans, the most a "
						 "trace holds; trace a smaller step: fewer micro-batches "
						 "(global_batch_tokens), pipeline stages or layers", s->candidates[ci].name,
						 TRACE_EVENTS_MAX);
			goto out;
		}
		/* an unsupported whole run still has its step */
		if (res.outcome.status != OUTCOME_OK && res.outcome.status != OUTCOME_UNSUPPORTED) {
			status = cli_usage_error(err, "trace", "candidate '%s' cannot run: %s: %s", s->candidates[ci].name,
						 outcome_names[res.outcome.status], res.outcome.reason);
			goto out;
		}
		placement_init(&pl, r->plan.tp, r->plan.cp, r->plan.pp, r->plan.dp, r->plan.order, err);
		tracks = xcalloc((size_t)r->plan.pp, sizeof *tracks);
		for (int i = 0; i < r->plan.pp; i++) {
			int c[DIM_COUNT] = { 0, 0, i, 0 };
			tracks[i].gpu = placement_gpu(&pl, c);
			tracks[i].node = tracks[i].gpu / job.cluster->gpus_per_node;
		}
		text_setf(title, sizeof title, "%s / %s: tp %d pp %d vpp %d dp %d, %s, step %.3f s", s->name,
			  s->candidates[ci].name, r->plan.tp, r->plan.pp, r->plan.vpp, r->plan.dp,
			  schedule_names[r->plan.schedule], r->step_time_s);
		if (outfile_open(&out, call->o.output, err) < 0) {
			status = cli_status(err);
			goto out;
		}
		size_t events = 0;
		int rc = trace_write(out.f, title, &log, tracks, r->plan.pp, stream_names,
				     (int)(sizeof stream_names / sizeof stream_names[0]), TRACE_EVENTS_MAX, &events);
		if (rc == -2) {
			outfile_abort(&out);
			status = cli_usage_error(err, "trace", "candidate '%s': the trace would hold %zu events, more than "
						 "the %zu a trace holds; trace a smaller step: fewer "
						 "micro-batches (global_batch_tokens), pipeline stages or layers",
						 s->candidates[ci].name, events, TRACE_EVENTS_MAX);
			goto out;
		}
		if (rc < 0) {
			int e = errno;
			outfile_abort(&out);
			error_runtime(err, "cannot write %s: %s", call->o.output ? call->o.output : "standard output", strerror(e ? e : EIO));
			status = EXIT_RUNTIME;
			goto out;
		}
		if (outfile_commit(&out, err) < 0)
			status = cli_status(err);
	}
out:
	free(tracks);
	timeline_release(&log);
	return status;
}

static const struct cli_option trace_options[] = {
	{ .name = "candidate", .key = 'C', .takes_value = true },
	{ .name = NULL },
};

const struct cli_command cli_cmd_trace = {
	.name = "trace",
	.summary = "write one training step as a Chrome/Perfetto trace",
	.usage = usage_text,
	.common = CLI_OUTPUT | CLI_SET | CLI_SEED | CLI_CATALOG,
	.options = trace_options,
	.operands = { .min = 1, .max = 1, .name = "SCENARIO.json" },
	.load = CLI_LOAD_SCENARIO,
	.exec = trace_exec,
};
