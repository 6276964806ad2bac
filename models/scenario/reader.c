#include "reader.h"

#include <stdio.h>
#include <string.h>

#include "util/text.h"

int reader_fail_at(struct jread *r, const char *key, const char *msg)
{
	size_t mark = jread_enter_key(r, key);
	jread_fail(r, "%s", msg);
	jread_leave(r, mark);
	return -1;
}

int reader_unknown_name(struct jread *r, const catalog *cat, enum catalog_section sec,
			const char *key, const char *what, const char *name)
{
	char hint[256], q[96];
	size_t mark = key != NULL ? jread_enter_key(r, key) : 0;
	catalog_suggest(cat, sec, name, hint, sizeof hint);
	text_quote(name, q, sizeof q);
	jread_fail(r, "unknown %s %s%s", what, q, hint);
	if (key != NULL)
		jread_leave(r, mark);
	return -1;
}

const json_t *reader_enter_required(struct jread *r, const json_t *obj, const char *key,
				    size_t *mark)
{
	const json_t *v = json_object_get(obj, key);
	if (v == NULL) {
		reader_fail_at(r, key, "missing required key");
		return NULL;
	}
	*mark = jread_enter_key(r, key);
	return v;
}

void reader_resolve_relative(const char *base_file, const char *name, char *out, size_t size)
{
	const char *slash = strrchr(base_file, '/');
	if (name[0] == '/' || slash == NULL || strcmp(base_file, "-") == 0)
		snprintf(out, size, "%s", name);
	else
		snprintf(out, size, "%.*s/%s", (int)(slash - base_file), base_file, name);
}
