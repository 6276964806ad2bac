/* clustersim trace: one training step as a Chrome/Perfetto trace. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "models/hw/placement.h"
#include "models/train/train.h"
#include "output/outfile.h"
#include "output/trace.h"
#include "util/xalloc.h"

static const char *const usage_text =
	"usage: clustersim trace SCENARIO.json [--candidate NAME] [--set PATH=VALUE]... [-o FILE.json]\n\n"
	"Simulates one training step of the candidate (the first by default) with its plan\n"
	"(searched when \"auto\") and writes it in Chrome's trace event format: one track per\n"
	"GPU stream. Open it in chrome://tracing or https://ui.perfetto.dev.\n";

int cmd_trace(int argc, char **argv, struct cs_error *err)
{
	static const struct option longopts[] = {
		{ "candidate", required_argument, NULL, 'C' },
		CLI_OPT_OUTPUT,
		CLI_OPT_SET,
		CLI_OPT_SEED,
		CLI_OPT_CATALOG,
		CLI_OPT_HELP,
		{ NULL, 0, NULL, 0 },
	};
	struct cli_options o;
	struct scenario s;
	catalog *cat = NULL;
	const char *want = NULL, *file;
	bool loaded = false;
	int ch, status = EXIT_OK;
	struct timeline log = { 0 };
	long *stage_gpu = NULL;

	cli_options_init(&o);
	while ((ch = cli_next_option(&o, "trace", argc, argv, ":o:h", longopts, err)) != -1) {
		switch (ch) {
		case 'C': want = optarg; break;
		case 'h':
			fputs(usage_text, stdout);
			cli_options_release(&o);
			return EXIT_OK;
		default:
			status = EXIT_USAGE;  /* CLI_OPTION_ERROR: err says why */
			goto out;
		}
	}
	if ((status = cli_one_operand(argc, argv, "trace", "SCENARIO.json", &file, err)) != 0)
		goto out;
	cat = cli_catalog(&o, err);
	if (cat == NULL || scenario_load(file, o.sets, o.n_sets, o.seed, cat, &s, err) < 0) {
		status = cli_status(err);
		goto out;
	}
	loaded = true;
	if (s.workload.kind != WORKLOAD_TRAINING && s.workload.kind != WORKLOAD_FINETUNE) {
		status = cli_usage_error(err, "trace", "'%s' is a %s workload; trace shows training and fine-tuning steps",
					 file, workload_kind_names[s.workload.kind]);
		goto out;
	}
	size_t ci = 0;
	if (want != NULL) {
		for (ci = 0; ci < s.n_candidates; ci++)
			if (strcmp(s.candidates[ci].name, want) == 0)
				break;
		if (ci == s.n_candidates) {
			status = cli_usage_error(err, "trace", "no candidate named '%.60s' in '%s'", want, file);
			goto out;
		}
	}
	{
		struct train_result r;
		struct placement pl;
		struct outfile out;
		char title[512];
		train_evaluate(&s.workload.train, &s.candidates[ci], &log, &r);
		if (r.status != TRAIN_OK) {
			error_runtime(err, "trace: candidate '%s' cannot run: %s: %s", s.candidates[ci].name,
				      train_status_names[r.status], r.reason);
			status = EXIT_RUNTIME;
			goto out;
		}
		placement_init(&pl, r.plan.tp, r.plan.cp, r.plan.pp, r.plan.dp, r.plan.order, err);
		stage_gpu = xcalloc((size_t)r.plan.pp, sizeof *stage_gpu);
		for (int i = 0; i < r.plan.pp; i++) {
			int c[DIM_COUNT] = { 0, 0, i, 0 };
			stage_gpu[i] = placement_gpu(&pl, c);
		}
		snprintf(title, sizeof title, "%.100s / %.100s: tp %d pp %d vpp %d dp %d, %s, step %.3f s",
			 s.name, s.candidates[ci].name, r.plan.tp, r.plan.pp, r.plan.vpp, r.plan.dp,
			 schedule_names[r.plan.schedule], r.step_time_s);
		if (outfile_open(&out, o.output, err) < 0) {
			status = cli_status(err);
			goto out;
		}
		if (trace_write(out.f, title, &log, r.plan.pp, stage_gpu) < 0) {
			int e = errno;
			outfile_abort(&out);
			error_runtime(err, "cannot write %s: %s", o.output ? o.output : "standard output", strerror(e ? e : EIO));
			status = EXIT_RUNTIME;
			goto out;
		}
		if (outfile_commit(&out, err) < 0)
			status = cli_status(err);
	}
out:
	free(stage_gpu);
	timeline_release(&log);
	if (loaded)
		scenario_release(&s);
	catalog_free(cat);
	cli_options_release(&o);
	return status;
}
