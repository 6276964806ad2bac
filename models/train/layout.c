#include "layout.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The longest expansion accepted (a layout of 512 stages of 100 layers is
 * far below it) and the largest repeat count. */
#define LAYOUT_EXPANDED_MAX 65536
#define LAYOUT_REPEAT_MAX 10000

struct expansion {
	char buf[LAYOUT_EXPANDED_MAX];
	size_t n;
};

static int append(struct expansion *x, const char *s, size_t len, char *why, size_t why_size)
{
	if (x->n + len >= sizeof x->buf) {
		snprintf(why, why_size, "expands to more than %d characters", LAYOUT_EXPANDED_MAX);
		return -1;
	}
	memcpy(x->buf + x->n, s, len);
	x->n += len;
	return 0;
}

/* "*n" at s: the count into *n and the characters used into *used (0 when
 * s does not start with '*'). */
static int repeat_count(const char *s, int *n, size_t *used, char *why, size_t why_size)
{
	*used = 0;
	*n = 1;
	if (*s != '*')
		return 0;
	const char *p = s + 1;
	if (!isdigit((unsigned char)*p)) {
		snprintf(why, why_size, "'*' must be followed by a count");
		return -1;
	}
	long v = 0;
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (*p - '0');
		if (v > LAYOUT_REPEAT_MAX) {
			snprintf(why, why_size, "a repeat count exceeds %d", LAYOUT_REPEAT_MAX);
			return -1;
		}
		p++;
	}
	if (v < 1) {
		snprintf(why, why_size, "a repeat count must be at least 1");
		return -1;
	}
	*n = (int)v;
	*used = (size_t)(p - s);
	return 0;
}

/* Expand s[0, len) (no parentheses inside a group: Megatron-Core's
 * pattern does not nest) into x: "x*n" and "(...)*n" repeated. */
static int expand(const char *s, size_t len, bool in_group, struct expansion *x, char *why, size_t why_size)
{
	size_t i = 0;
	while (i < len) {
		char c = s[i];
		if (c == ',') {  /* cosmetic */
			i++;
			continue;
		}
		if (c == ')') {
			snprintf(why, why_size, "')' without '('");
			return -1;
		}
		if (c == '(') {
			if (in_group) {
				snprintf(why, why_size, "nested parentheses");
				return -1;
			}
			const char *close = memchr(s + i + 1, ')', len - i - 1);
			if (close == NULL) {
				snprintf(why, why_size, "'(' without ')'");
				return -1;
			}
			size_t inner = (size_t)(close - (s + i + 1)), used;
			if (memchr(s + i + 1, '(', inner) != NULL) {
				snprintf(why, why_size, "nested parentheses");
				return -1;
			}
			int n;
			if (repeat_count(close + 1, &n, &used, why, why_size) < 0)
				return -1;
			if (used == 0) {
				snprintf(why, why_size, "a group '(...)' must be followed by '*' and a count");
				return -1;
			}
			struct expansion *g = malloc(sizeof *g);
			if (g == NULL) {
				snprintf(why, why_size, "out of memory");
				return -1;
			}
			g->n = 0;
			int rc = expand(s + i + 1, inner, true, g, why, why_size);
			for (int k = 0; rc == 0 && k < n; k++)
				rc = append(x, g->buf, g->n, why, why_size);
			free(g);
			if (rc < 0)
				return -1;
			i = (size_t)(close + 1 - s) + used;
			continue;
		}
		if (strchr("EtmL|", c) == NULL || c == '\0') {
			if (isprint((unsigned char)c))
				snprintf(why, why_size, "'%c' is not a layer: use E (embedding), t (decoder layer), "
					 "m (MTP module), L (loss), '|' between stages", c);
			else
				snprintf(why, why_size, "a character that is not a layer: use E, t, m, L and '|'");
			return -1;
		}
		size_t used;
		int n;
		if (repeat_count(s + i + 1, &n, &used, why, why_size) < 0)
			return -1;
		for (int k = 0; k < n; k++)
			if (append(x, &c, 1, why, why_size) < 0)
				return -1;
		i += 1 + used;
	}
	return 0;
}

int layout_parse(const char *text, struct pipeline_layout *out, char *why, size_t why_size)
{
	memset(out, 0, sizeof *out);
	size_t len = strlen(text);
	if (len == 0) {
		snprintf(why, why_size, "empty");
		return -1;
	}
	if (len >= sizeof out->text) {
		snprintf(why, why_size, "longer than %d characters", LAYOUT_TEXT_MAX - 1);
		return -1;
	}
	memcpy(out->text, text, len + 1);
	struct expansion *x = malloc(sizeof *x);
	if (x == NULL) {
		snprintf(why, why_size, "out of memory");
		return -1;
	}
	x->n = 0;
	if (expand(text, len, false, x, why, why_size) < 0) {
		free(x);
		return -1;
	}

	int stage = 0, embeddings = 0, losses = 0, mtp_stage = -1, loss_stage = -1;
	bool seen_mtp = false, seen_loss = false;
	const char *err = NULL;
	for (size_t i = 0; i < x->n && err == NULL; i++) {
		char c = x->buf[i];
		if (c == '|') {
			if (++stage >= LAYOUT_MAX_STAGES)
				err = "more virtual stages than the 512 accepted";
			continue;
		}
		if (seen_loss)
			err = "L (the loss) must be the last layer";
		else if (c == 'E') {
			if (i != 0)
				err = "E (the embedding) must be the first layer";
			embeddings++;
		} else if (c == 'L') {
			seen_loss = true;
			loss_stage = stage;
			losses++;
		} else if (c == 't') {
			if (seen_mtp)
				err = "decoder layers must come before the MTP modules";
			else if (out->decoders[stage] == 65535)
				err = "more than 65535 decoder layers in one virtual stage";
			else
				out->decoders[stage]++;
			out->decoders_total++;
		} else { /* 'm' */
			if (mtp_stage >= 0 && mtp_stage != stage)
				err = "the MTP modules must all be in one virtual stage";
			else if (out->mtp[stage] == 255)
				err = "more than 255 MTP modules";
			else
				out->mtp[stage]++;
			mtp_stage = stage;
			seen_mtp = true;
			out->mtp_total++;
		}
	}
	if (err == NULL && embeddings != 1)
		err = "E (the embedding) must appear exactly once, first";
	if (err == NULL && losses != 1)
		err = "L (the loss) must appear exactly once, last";
	if (err == NULL && loss_stage != stage)
		err = "L (the loss) must be in the last virtual stage";
	free(x);
	if (err != NULL) {
		snprintf(why, why_size, "%s", err);
		return -1;
	}
	out->stages = stage + 1;
	return 0;
}

int layout_first_layer(const struct pipeline_layout *l, int vs)
{
	int first = 0;
	for (int i = 0; i < vs && i < l->stages; i++)
		first += l->decoders[i];
	return first;
}
