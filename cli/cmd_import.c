/* clustersim import: a user's Hugging Face config.json, Megatron-LM
 * arguments or `vllm serve` arguments -> a clustersim JSON fragment. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "models/import/import.h"
#include "models/kernel/transformer.h"
#include "output/outfile.h"
#include "util/jread.h"
#include "util/text.h"

static const char usage_text[] =
	"usage: clustersim import hf CONFIG.json [--name NAME] [-o FILE]\n"
	"       clustersim import megatron [ARGS...] [--file ARGS.txt] [-o FILE]\n"
	"       clustersim import vllm [ARGS...] [--file ARGS.txt] [-o FILE]\n\n"
	"Writes what a user already has as clustersim JSON, to standard output or FILE:\n"
	"  hf        a Hugging Face config.json -> a catalog fragment {\"models\": [ENTRY]}, a catalog\n"
	"            file for run, plan and sweep (model_type llama, mistral, qwen2, qwen3, gemma, gemma2,\n"
	"            gemma3(_text), mixtral, qwen3_moe, deepseek_v3, gpt2, gpt_neox); the parameter\n"
	"            count (clustersim's, and the config's own with its biases and norms) goes to\n"
	"            standard error. NAME defaults to the file's name without .json (its folder's\n"
	"            name for config.json)\n"
	"  megatron  Megatron-LM / NeMo arguments (tensor-model-parallel-size 8 ...) -> a\n"
	"            training workload {\"workload\": {...}}: parallelism, precision, batch,\n"
	"            sequence, recompute, optimizer sharding, and the model when its shape is given;\n"
	"            arguments not given take Megatron-LM's defaults (each default written is said)\n"
	"  vllm      `vllm serve MODEL` arguments -> a serving workload {\"workload\": {...}},\n"
	"            engine vllm-v1; a leading `vllm serve` or `python -m\n"
	"            vllm.entrypoints.openai.api_server` is skipped\n"
	"Every argument or field clustersim does not model is listed on standard error, never\n"
	"dropped silently; one that would change the model's shape is an error (exit 2).\n"
	"--file reads the arguments from a file as a launch script holds them: blanks split,\n"
	"quotes, `\\` line continuations and # comments; an unexpanded $VARIABLE is an error.\n"
	"-o, --file, --name and --help are clustersim's wherever they stand; every other word\n"
	"after megatron or vllm is the tool's.\n"
	"  -o, --output FILE  write the fragment to FILE (atomically; never over an input)\n"
	"  --file FILE        (megatron, vllm) read the arguments from FILE (- = standard input)\n"
	"  --into SCENARIO    (megatron, vllm) write SCENARIO with the fragment merged into it\n"
	"                     (objects merged key by key, the fragment's values win)\n"
	"  --name NAME        (hf) the catalog entry's name\n"
	"  -h, --help         print this help\n";

/* clustersim's own options among the words after the kind. */
struct import_opts {
	const char *output, *file, *name, *config, *into;
	bool help;
};

/* Split the words after the kind into clustersim's options and the tool's
 * arguments (appended to args); hf takes its one CONFIG operand. */
static int split_options(char **w, size_t n, bool hf, struct import_opts *o, struct import_args *args,
			 struct cs_error *err)
{
	for (size_t i = 0; i < n; i++) {
		const char *s = w[i];
		const char **slot = NULL;
		const char *opt = s;
		if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
			o->help = true;
			return 0;
		}
		if (strcmp(s, "-o") == 0 || strcmp(s, "--output") == 0)
			slot = &o->output;
		else if (!hf && strcmp(s, "--file") == 0)
			slot = &o->file;
		else if (!hf && strcmp(s, "--into") == 0)
			slot = &o->into;
		else if (hf && strcmp(s, "--name") == 0)
			slot = &o->name;
		else if (strncmp(s, "--output=", 9) == 0 || (!hf && strncmp(s, "--file=", 7) == 0) ||
			 (hf && strncmp(s, "--name=", 7) == 0)) {
			const char *v = strchr(s, '=') + 1;
			*(s[2] == 'o' ? &o->output : s[2] == 'f' ? &o->file : &o->name) = v;
			continue;
		}
		if (slot != NULL) {
			if (i + 1 >= n)
				return cli_usage_error(err, "import", "option '%s' needs a value", opt);
			if (*slot != NULL)
				return cli_usage_error(err, "import", "option '%s' given twice", opt);
			*slot = w[++i];
			continue;
		}
		if (hf) {
			if (o->config != NULL)
				return cli_usage_error(err, "import", "unexpected argument '%.60s' (hf reads one config)", s);
			o->config = s;
			continue;
		}
		import_args_add(args, s, 0);
	}
	return 0;
}

/* The entry's default name: the file's name without .json, or for
 * config.json the name of its folder. */
static void default_name(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t len;
	base = base != NULL ? base + 1 : path;
	len = strlen(base);
	if (len > 5 && strcmp(base + len - 5, ".json") == 0)
		len -= 5;
	if (len == 6 && strncmp(base, "config", 6) == 0 && base != path) {
		const char *end = base - 1, *start = end;
		while (start > path && start[-1] != '/')
			start--;
		if (end > start) {
			text_setf(buf, size, "%.*s", (int)(end - start), start);
			return;
		}
	}
	if (strcmp(path, "-") == 0 || len == 0)
		text_setf(buf, size, "imported");
	else
		text_setf(buf, size, "%.*s", (int)len, base);
}

/* Write doc to o->output or standard output, atomically. */
static int write_fragment(const struct import_opts *o, json_t *doc, struct cs_error *err)
{
	struct outfile out;
	if (outfile_open(&out, o->output, err) < 0)
		return cli_status(err);
	if (json_dumpf(doc, out.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)) < 0 ||
	    fputc('\n', out.f) == EOF) {
		outfile_abort(&out);
		error_runtime(err, "cannot write '%s'", o->output != NULL ? o->output : "<stdout>");
		return EXIT_RUNTIME;
	}
	return outfile_commit(&out, err) < 0 ? cli_status(err) : EXIT_OK;
}

/* The parameter counts on standard error. */
static void print_counts(const char *name, const struct import_hf_result *res)
{
	double total = transformer_params_total(&res->model), active = transformer_params_active(&res->model);
	double diff = res->config_params > 0 ? (total / res->config_params - 1) * 100 : 0;
	if (diff > -0.005 && diff < 0.005)
		diff = 0;  /* no "-0.00%" */
	fprintf(stderr, "import hf: '%s' (model_type %s): %.2fB parameters", name, res->arch, total / 1e9);
	if (res->model.experts > 0)
		fprintf(stderr, ", %.2fB active", active / 1e9);
	fprintf(stderr, " (clustersim's count); the config's own count %.2fB", res->config_params / 1e9);
	if (res->model.experts > 0)
		fprintf(stderr, ", %.2fB active", res->config_active_params / 1e9);
	fprintf(stderr, " (%+.2f%%)\n", diff);
	if (diff > 2 || diff < -2)
		fprintf(stderr, "import hf: warning: the two counts differ by more than 2%%: a field of the config "
				"is not read as its architecture means it\n");
}

/* The options also read before the kind (cli_invoke's table); after it,
 * split_options() reads the same names. */
static const struct cli_option import_options[] = {
	{ .name = "file", .key = 'F', .takes_value = true },
	{ .name = "into", .key = 'I', .takes_value = true },
	{ .name = "name", .key = 'N', .takes_value = true },
	{ .name = NULL },
};

static int import_exec(struct cli_call *call, struct cs_error *err)
{
	const char *kind = call->operands[0];
	bool hf = strcmp(kind, "hf") == 0;
	struct import_opts o = { 0 };
	struct import_args args = { 0 };
	struct import_notes notes = { 0 };
	struct import_hf_result res;
	char name[CAT_NAME_MAX];
	json_t *doc = NULL;
	int rc = EXIT_USAGE;

	if (!hf && strcmp(kind, "megatron") != 0 && strcmp(kind, "vllm") != 0)
		return cli_usage_error(err, "import", "unknown kind '%.60s' (hf, megatron or vllm)", kind);
	o.output = call->o.output;
	o.file = cli_value(call, 'F');
	o.into = cli_value(call, 'I');
	o.name = cli_value(call, 'N');
	if ((hf && (o.file != NULL || o.into != NULL)) || (!hf && o.name != NULL)) {
		rc = cli_usage_error(err, "import", "%s does not take %s", kind, hf ? "--file or --into" : "--name");
		goto out;
	}
	if (split_options(call->operands + 1, call->n_operands - 1, hf, &o, &args, err) != 0)
		goto out;
	if (o.help) {
		fputs(usage_text, stdout);
		rc = EXIT_OK;
		goto out;
	}
	if (hf && o.config == NULL) {
		rc = cli_usage_error(err, "import", "missing CONFIG.json");
		goto out;
	}
	if (o.output != NULL &&
	    ((o.config != NULL && outfile_check_not_input(o.output, o.config, "config file", err) < 0) ||
	     (o.file != NULL && outfile_check_not_input(o.output, o.file, "argument file", err) < 0) ||
	     (o.into != NULL && outfile_check_not_input(o.output, o.into, "scenario", err) < 0)))
		goto out;
	if (hf) {
		if (o.name != NULL ? !text_setf(name, sizeof name, "%s", o.name)
				   : (default_name(o.config, name, sizeof name), false)) {
			rc = cli_usage_error(err, "import", "--name: longer than %d bytes", CAT_NAME_MAX - 1);
			goto out;
		}
		doc = import_hf(o.config, name, &res, &notes, err);
	} else {
		if (o.file != NULL && (args.n > 0 || import_args_read_file(&args, o.file, err) < 0)) {
			if (args.n > 0 && !error_is_set(err))
				rc = cli_usage_error(err, "import", "give the arguments on the command line or in --file, "
						     "not both");
			goto out;
		}
		doc = strcmp(kind, "vllm") == 0 ? import_vllm(&args, &notes, err) : import_megatron(&args, &notes, err);
	}
	if (doc != NULL && o.into != NULL) {
		json_t *base = jread_load("scenario", o.into, err);
		if (base != NULL)
			json_object_update_recursive(base, doc);
		json_decref(doc);
		doc = base;
	}
	if (doc == NULL) {
		rc = cli_status(err);
		goto out;
	}
	for (size_t i = 0; i < notes.n; i++)
		fprintf(stderr, "import %s: %s\n", kind, notes.lines[i]);
	if (hf)
		print_counts(name, &res);
	rc = write_fragment(&o, doc, err);
out:
	json_decref(doc);
	import_notes_release(&notes);
	import_args_release(&args);
	return rc;
}

const struct cli_command cli_cmd_import = {
	.name = "import",
	.summary = "a Hugging Face config, Megatron-LM or vllm serve arguments as clustersim JSON",
	.usage = usage_text,
	.common = CLI_OUTPUT,
	.options = import_options,
	.operands = { .min = 1, .max = SIZE_MAX, .name = "KIND (hf, megatron or vllm)" },
	.load = CLI_LOAD_NOTHING,
	.exec = import_exec,
	.options_before_operands = true,
};
