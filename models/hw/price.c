/* price: the names of price types as users write them (hw.h): the type's
 * name from price_type_names (catalog.c), with a reserved price's
 * commitment term. */
#include "models/hw/hw.h"

#include <assert.h>
#include <stdio.h>

void price_type_label(enum price_type type, const char *term, char *buf, size_t size)
{
	assert(size >= PRICE_TYPE_LABEL_MAX);
	if (type == PRICE_RESERVED && term != NULL && term[0] != '\0')
		snprintf(buf, size, "%s-%s", price_type_names[type], term);
	else
		snprintf(buf, size, "%s", price_type_names[type]);
}
