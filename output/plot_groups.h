/*
 * plot_groups: the points of a chart numbered by group (the group
 * column's value), in order of first appearance. Pure: no output.
 */
#ifndef CLUSTERSIM_OUTPUT_PLOT_GROUPS_H
#define CLUSTERSIM_OUTPUT_PLOT_GROUPS_H

#include <stddef.h>

/*
 * Number n names by distinct value, in order of first appearance:
 * group_of[i] is the number of names[i] (names[0] gets 0); returns how
 * many distinct names there are. O(n log n) (a sort, never a search of
 * the groups so far per name). names are borrowed.
 */
size_t plot_groups(const char *const *names, size_t n, size_t *group_of);

#endif
