#include "jread.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "text.h"
#include "xalloc.h"

void jread_init(struct jread *r, const char *what, const char *file, struct cs_error *err)
{
	r->what = what;
	r->file = file;
	r->path[0] = '\0';
	r->path_len = 0;
	r->err = err;
}

static size_t jread_append(struct jread *r, const char *seg)
{
	size_t mark = r->path_len;
	size_t n = strlen(seg);
	if (r->path_len + n >= sizeof r->path)
		n = sizeof r->path - 1 - r->path_len;
	memcpy(r->path + r->path_len, seg, n);
	r->path_len += n;
	r->path[r->path_len] = '\0';
	return mark;
}

size_t jread_enter_key(struct jread *r, const char *key)
{
	char seg[128];
	char safe[96];
	size_t i;
	/* Keys from the document are untrusted: keep them printable and short. */
	for (i = 0; key[i] && i < sizeof safe - 1; i++) {
		unsigned char c = (unsigned char)key[i];
		safe[i] = (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
	}
	safe[i] = '\0';
	snprintf(seg, sizeof seg, "%s%s", r->path_len ? "." : "", safe);
	return jread_append(r, seg);
}

size_t jread_enter_index(struct jread *r, size_t index)
{
	char seg[32];
	snprintf(seg, sizeof seg, "[%zu]", index);
	return jread_append(r, seg);
}

void jread_leave(struct jread *r, size_t mark)
{
	r->path_len = mark;
	r->path[mark] = '\0';
}

int jread_fail(struct jread *r, const char *fmt, ...)
{
	char reason[ERROR_MSG_MAX / 2];
	const char *file = strcmp(r->file, "-") == 0 ? "<stdin>" : r->file;
	va_list ap;

	va_start(ap, fmt);
	text_vsetf(reason, sizeof reason, fmt, ap);
	va_end(ap);
	return error_set(r->err, "%s '%s': %s: %s", r->what, file,
			 r->path_len ? r->path : "(top level)", reason);
}

void jread_describe(const json_t *v, char *buf, size_t size)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		snprintf(buf, size, "an object");
		break;
	case JSON_ARRAY:
		snprintf(buf, size, "an array");
		break;
	case JSON_STRING:
		text_quote(json_string_value(v), buf, size);
		break;
	case JSON_INTEGER:
		snprintf(buf, size, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		snprintf(buf, size, "%.10g", json_real_value(v));
		break;
	case JSON_TRUE:
		snprintf(buf, size, "true");
		break;
	case JSON_FALSE:
		snprintf(buf, size, "false");
		break;
	case JSON_NULL:
	default:
		snprintf(buf, size, "null");
		break;
	}
}

int jread_fail_value(struct jread *r, const json_t *v, const char *expected)
{
	char got[128];
	jread_describe(v, got, sizeof got);
	return jread_fail(r, "expected %s, got %s", expected, got);
}

int jread_object(struct jread *r, const json_t *v, const char *const allowed[])
{
	const char *key;
	json_t *value;

	if (!json_is_object(v))
		return jread_fail_value(r, v, "an object");
	json_object_foreach((json_t *)v, key, value) {
		bool known = false;
		(void)value;
		for (size_t i = 0; allowed[i] != NULL; i++) {
			if (strcmp(allowed[i], key) == 0) {
				known = true;
				break;
			}
		}
		if (!known) {
			struct text_suggest s;
			char hint[256], q[128];
			text_suggest_init(&s, key);
			for (size_t i = 0; allowed[i] != NULL; i++)
				text_suggest_add(&s, allowed[i]);
			text_suggest_format(&s, hint, sizeof hint);
			text_quote(key, q, sizeof q);
			return jread_fail(r, "unknown key %s%s", q, hint);
		}
	}
	return 0;
}

/* Look up obj[key]; *v is NULL when absent. Fails only for a required key. */
static int jread_lookup(struct jread *r, const json_t *obj, const char *key, bool required,
			json_t **v)
{
	*v = json_object_get(obj, key);
	if (*v == NULL && required) {
		size_t mark = jread_enter_key(r, key);
		jread_fail(r, "missing required key");
		jread_leave(r, mark);
		return -1;
	}
	return 0;
}

static const char *jread_int_expectation(int64_t min, int64_t max, char *buf, size_t size)
{
	if (min == 1 && max == INT64_MAX)
		snprintf(buf, size, "a positive integer");
	else if (min == 0 && max == INT64_MAX)
		snprintf(buf, size, "a non-negative integer");
	else
		snprintf(buf, size, "an integer from %" PRId64 " to %" PRId64, min, max);
	return buf;
}

int jread_value_int(struct jread *r, const json_t *v, int64_t min, int64_t max, int64_t *out)
{
	char expect[96];
	int64_t x;

	jread_int_expectation(min, max, expect, sizeof expect);
	if (json_is_integer(v)) {
		x = json_integer_value(v);
	} else if (json_is_real(v)) {
		double d = json_real_value(v);
		/* 9.2e18 is the largest double below INT64_MAX's neighbourhood we trust. */
		if (isfinite(d) && d == floor(d) && d > 9.2e18 && min >= 0) {
			snprintf(expect, sizeof expect, "an integer from %" PRId64 " to %" PRId64, min, max);
			return jread_fail_value(r, v, expect);
		}
		if (!isfinite(d) || d != floor(d) || d < -9.2e18 || d > 9.2e18)
			return jread_fail_value(r, v, expect);
		x = (int64_t)d;
	} else {
		return jread_fail_value(r, v, expect);
	}
	if (x > max && min >= 0 && max == INT64_MAX) {
		/* "non-negative" would be wrong for a value that is merely too big */
		snprintf(expect, sizeof expect, "an integer from %" PRId64 " to %" PRId64, min, max);
		return jread_fail_value(r, v, expect);
	}
	if (x < min || x > max)
		return jread_fail_value(r, v, expect);
	*out = x;
	return 0;
}

int jread_int(struct jread *r, const json_t *obj, const char *key, bool required,
	      int64_t min, int64_t max, int64_t *out)
{
	json_t *v;
	size_t mark;
	int rc;

	if (jread_lookup(r, obj, key, required, &v) < 0)
		return -1;
	if (v == NULL)
		return 0;
	mark = jread_enter_key(r, key);
	rc = jread_value_int(r, v, min, max, out);
	jread_leave(r, mark);
	return rc;
}

int jread_int32(struct jread *r, const json_t *obj, const char *key, bool required,
		int min, int max, int *out)
{
	int64_t x;
	if (jread_int(r, obj, key, required, min, max, &x) < 0)
		return -1;
	if (json_object_get(obj, key) != NULL)
		*out = (int)x;
	return 0;
}

int jread_value_real(struct jread *r, const json_t *v, double min, double max, double *out)
{
	char expect[128];
	double d;

	if (min == 0.0 && max >= 1e300)
		snprintf(expect, sizeof expect, "a non-negative number");
	else if (max >= 1e300)
		snprintf(expect, sizeof expect, "a number of at least %g", min);
	else
		snprintf(expect, sizeof expect, "a number from %g to %g", min, max);
	if (!json_is_number(v))
		return jread_fail_value(r, v, expect);
	d = json_number_value(v);
	if (!isfinite(d) || d < min || d > max)
		return jread_fail_value(r, v, expect);
	*out = d;
	return 0;
}

int jread_real(struct jread *r, const json_t *obj, const char *key, bool required,
	       double min, double max, double *out)
{
	json_t *v;
	size_t mark;
	int rc;

	if (jread_lookup(r, obj, key, required, &v) < 0)
		return -1;
	if (v == NULL)
		return 0;
	mark = jread_enter_key(r, key);
	rc = jread_value_real(r, v, min, max, out);
	jread_leave(r, mark);
	return rc;
}

int jread_value_string(struct jread *r, const json_t *v, char *buf, size_t size)
{
	if (!json_is_string(v))
		return jread_fail_value(r, v, "a string");
	if (json_string_length(v) >= size)
		return jread_fail_value(r, v, "a shorter string");
	if (strlen(json_string_value(v)) != json_string_length(v))
		return jread_fail(r, "string contains a NUL character");
	memcpy(buf, json_string_value(v), json_string_length(v) + 1);
	return 0;
}

int jread_string(struct jread *r, const json_t *obj, const char *key, bool required,
		 char *buf, size_t size)
{
	json_t *v;
	size_t mark;
	int rc;

	if (jread_lookup(r, obj, key, required, &v) < 0)
		return -1;
	if (v == NULL)
		return 0;
	mark = jread_enter_key(r, key);
	rc = jread_value_string(r, v, buf, size);
	jread_leave(r, mark);
	return rc;
}

int jread_bool(struct jread *r, const json_t *obj, const char *key, bool required, bool *out)
{
	json_t *v;
	size_t mark;

	if (jread_lookup(r, obj, key, required, &v) < 0)
		return -1;
	if (v == NULL)
		return 0;
	if (!json_is_boolean(v)) {
		mark = jread_enter_key(r, key);
		jread_fail_value(r, v, "true or false");
		jread_leave(r, mark);
		return -1;
	}
	*out = json_is_true(v);
	return 0;
}

int jread_enum(struct jread *r, const json_t *obj, const char *key, bool required,
	       const char *const names[], int *out)
{
	json_t *v;
	size_t mark;
	char expect[256];
	size_t used = 0;

	if (jread_lookup(r, obj, key, required, &v) < 0)
		return -1;
	if (v == NULL)
		return 0;
	if (json_is_string(v)) {
		for (int i = 0; names[i] != NULL; i++) {
			if (strcmp(names[i], json_string_value(v)) == 0) {
				*out = i;
				return 0;
			}
		}
	}
	expect[0] = '\0';
	for (int i = 0; names[i] != NULL && used < sizeof expect; i++)
		used += (size_t)snprintf(expect + used, sizeof expect - used, "%s\"%s\"",
					 i == 0 ? "one of " : ", ", names[i]);
	mark = jread_enter_key(r, key);
	jread_fail_value(r, v, expect);
	jread_leave(r, mark);
	return -1;
}

int jread_int_or_auto(struct jread *r, const json_t *obj, const char *key,
		      int min, int max, int auto_value, int *out)
{
	json_t *v = json_object_get(obj, key);
	if (v != NULL && json_is_string(v)) {
		if (strcmp(json_string_value(v), "auto") == 0) {
			*out = auto_value;
			return 0;
		}
		size_t mark = jread_enter_key(r, key);
		char expect[96];
		snprintf(expect, sizeof expect, "an integer from %d to %d or \"auto\"", min, max);
		jread_fail_value(r, v, expect);
		jread_leave(r, mark);
		return -1;
	}
	if (v != NULL) {
		int64_t x;
		size_t mark = jread_enter_key(r, key);
		if (!json_is_number(v) || jread_value_int(r, v, min, max, &x) < 0) {
			char expect[96];
			snprintf(expect, sizeof expect, "an integer from %d to %d or \"auto\"", min, max);
			jread_fail_value(r, v, expect);
			jread_leave(r, mark);
			return -1;
		}
		jread_leave(r, mark);
		*out = (int)x;
	}
	return 0;
}

int jread_real_or_auto(struct jread *r, const json_t *obj, const char *key,
		       double min, double max, double auto_value, double *out)
{
	json_t *v = json_object_get(obj, key);
	if (v != NULL && json_is_string(v)) {
		if (strcmp(json_string_value(v), "auto") == 0) {
			*out = auto_value;
			return 0;
		}
		size_t mark = jread_enter_key(r, key);
		char expect[96];
		snprintf(expect, sizeof expect, "a number from %g to %g or \"auto\"", min, max);
		jread_fail_value(r, v, expect);
		jread_leave(r, mark);
		return -1;
	}
	return jread_real(r, obj, key, false, min, max, out);
}

/* Largest scenario or sweep file we read: far above any real one, and it
 * keeps a wrong path (a log, a dataset) from being slurped into memory. */
#define INPUT_MAX_BYTES (64u << 20)

/* ---- reading documents -------------------------------------------------- */

json_t *jread_load(const char *what, const char *file, struct cs_error *err)
{
	const char *shown = strcmp(file, "-") == 0 ? "<stdin>" : file;
	FILE *f;
	char *buf;
	size_t len;
	bool too_big;
	int failed;
	json_t *root;

	if (strcmp(file, "-") == 0) {
		f = stdin;
	} else {
		struct stat st;
		f = fopen(file, "rb");
		if (f == NULL) {
			error_set(err, "%s '%s': cannot open: %s", what, shown, strerror(errno));
			return NULL;
		}
		if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
			fclose(f);
			error_set(err, "%s '%s': is a directory", what, shown);
			return NULL;
		}
	}
	errno = 0;
	buf = text_read_stream(f, INPUT_MAX_BYTES, &len, &too_big);
	failed = ferror(f) ? (errno ? errno : EIO) : 0;
	if (f != stdin)
		fclose(f);
	if (failed) {
		free(buf);
		error_set(err, "%s '%s': cannot read: %s", what, shown, strerror(failed));
		return NULL;
	}
	if (too_big) {
		free(buf);
		error_set(err, "%s '%s': file is larger than %u bytes (%u MiB), the bound on a JSON input",
			  what, shown, INPUT_MAX_BYTES, INPUT_MAX_BYTES >> 20);
		return NULL;
	}
	root = jread_load_buffer(what, file, buf, len, err);
	free(buf);
	return root;
}


json_t *jread_load_buffer(const char *what, const char *file, const char *buf, size_t len,
			  struct cs_error *err)
{
	const char *shown = strcmp(file, "-") == 0 ? "<stdin>" : file;
	json_error_t jerr;
	json_t *root;

	if (len == 0) {
		error_set(err, "%s '%s': file is empty", what, shown);
		return NULL;
	}
	if (len > INPUT_MAX_BYTES) {
		error_set(err, "%s '%s': file is larger than %u bytes (%u MiB), the bound on a JSON input",
			  what, shown, INPUT_MAX_BYTES, INPUT_MAX_BYTES >> 20);
		return NULL;
	}
	if (memchr(buf, '\0', len) != NULL) {
		error_set(err, "%s '%s': not a JSON text file (contains a NUL byte)", what, shown);
		return NULL;
	}
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	/* jansson names every defect of a text; it gives no reason (and line
	 * -1) when an allocation failed while it built the tree. Not the
	 * document's fault: a runtime failure, said as such. */
	if (root == NULL && (json_error_code(&jerr) == json_error_out_of_memory || jerr.text[0] == '\0')) {
		error_runtime(err, "%s '%s': out of memory while parsing the JSON (%zu bytes)", what, shown, len);
		return NULL;
	}
	if (root == NULL) {
		error_set(err, "%s '%s': line %d, column %d: %s", what, shown, jerr.line, jerr.column,
			  jerr.text);
		return NULL;
	}
	if (!json_is_object(root)) {
		char got[64];
		jread_describe(root, got, sizeof got);
		json_decref(root);
		error_set(err, "%s '%s': (top level): expected an object, got %s", what, shown, got);
		return NULL;
	}
	return root;
}
