/*
 * container: the struct that holds an embedded member.
 *
 * An engine handler (or any member embedded in its owner) comes back to its
 * callback as a pointer to the member; container_of() turns it into a
 * pointer to the owner. It never checks at run time that ptr really points
 * into a `type`: the caller knows which member it registered.
 */
#ifndef CLUSTERSIM_UTIL_CONTAINER_H
#define CLUSTERSIM_UTIL_CONTAINER_H

#include <stddef.h>

/* The `type` whose `member` ptr points to. A macro, not an inline function
 * (STYLE 9), because it takes a type and a member name. The unevaluated
 * arm of the conditional makes the compiler check that ptr points to the
 * member's type. */
#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(1 ? (ptr) : &((type *)NULL)->member) - offsetof(type, member)))

#endif
