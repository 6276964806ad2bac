/*
 * import: the files and command lines users already have, as clustersim
 * JSON: a Hugging Face config.json as a catalog model entry, Megatron-LM
 * arguments as a training workload, `vllm serve` arguments as a serving
 * workload.
 *
 * Each importer maps only to keys clustersim has. What it cannot represent
 * is an input error naming the field and value when it would change the
 * model's shape, and otherwise one line in the import's notes ("not
 * modelled", "unknown argument", "default written"), never dropped
 * silently. It never prints and never writes a file: the command does.
 */
#ifndef CLUSTERSIM_MODELS_IMPORT_IMPORT_H
#define CLUSTERSIM_MODELS_IMPORT_IMPORT_H

#include <jansson.h>
#include <stddef.h>

#include "models/hw/hw.h"
#include "util/error.h"

/* The lines an import reports beside its fragment, in order. */
struct import_notes {
	char **lines;   /* owned */
	size_t n, cap;
};

/* Append one line (printf format) to notes. */
void import_note(struct import_notes *notes, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Free what notes own and leave them empty. */
void import_notes_release(struct import_notes *notes);

/* An argument list: argv of a command line or of an argument file, each
 * with where it came from for messages. */
struct import_args {
	char **argv;     /* owned */
	long *line;      /* owned: the file's line of each, 0 from a command line */
	size_t n, cap;
	const char *file;  /* borrowed: the argument file, NULL for a command line */
};

/* Append a copy of arg (from line `line`, 0 for a command line). */
void import_args_add(struct import_args *a, const char *arg, long line);

/* Read an argument file as a launch script holds its arguments: words
 * split at blanks, '...' and "..." quoting (with \ escapes inside "..."),
 * `\` at the end of a line continuing it, `#` starting a comment at the
 * start of a word; the words appended to a with their lines. A word that
 * holds an unexpanded shell variable ($NAME, ${NAME}, $(...)) is an input
 * error naming the file and line, as is an unterminated quote,
 * a control byte (not a text file) or a file over 1 MiB. Returns 0, or -1 with err set. */
int import_args_read_file(struct import_args *a, const char *file, struct cs_error *err);

/* Free what a owns and leave it empty. */
void import_args_release(struct import_args *a);

/* "file 'F' line L" or "argument N" for argument i of a, into buf. */
void import_args_where(const struct import_args *a, size_t i, char *buf, size_t size);

/* A model imported from a Hugging Face config.json. */
struct import_hf_result {
	struct model_spec model;  /* as clustersim reads it back (for its counts) */
	char arch[64];            /* the model_type it was read as */
	double config_params;     /* counted from the config's own fields (biases and norms included) */
	double config_active_params;
};

/* The catalog fragment {"models": [ENTRY]} for the config.json at `file`,
 * its entry named `name`. Returns a new reference, or NULL with err set:
 * the file not JSON, a required field missing or not a positive integer,
 * an unknown model_type / architectures, a field that changes the shape in
 * a way the model cannot represent. res gets the model and the config's
 * own parameter count; notes get what is not modelled. */
json_t *import_hf(const char *file, const char *name, struct import_hf_result *res,
		  struct import_notes *notes, struct cs_error *err);

/* The model_type names import_hf() reads, ", "-separated. */
const char *import_hf_known(void);

/* The scenario fragment {"workload": {...}} for Megatron-LM / NeMo
 * arguments a. Returns a new reference, or NULL with err set naming the
 * argument (file and line, or its position) and the value: a value
 * missing or not a number, a choice Megatron-LM does not have. notes get
 * the arguments not modelled or unknown, and the Megatron-LM defaults
 * written for arguments not given. */
json_t *import_megatron(const struct import_args *a, struct import_notes *notes, struct cs_error *err);

/* The scenario fragment {"workload": {...}} for `vllm serve` arguments a
 * (a leading "vllm serve" or "python -m vllm.entrypoints.openai.api_server"
 * and the model, operand or --model, allowed). As
 * import_megatron(). */
json_t *import_vllm(const struct import_args *a, struct import_notes *notes, struct cs_error *err);

#endif
