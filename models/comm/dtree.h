/*
 * dtree: the shape of NCCL's double binary tree over m nodes.
 *
 * Two binary trees over the same m ranks, the second mirrored or shifted so
 * that a leaf of one is inside the other (NVIDIA/nccl src/graph/trees.cc).
 * Pure arithmetic on rank numbers: it knows nothing of bytes, links or time.
 */
#ifndef CLUSTERSIM_MODELS_DTREE_H
#define CLUSTERSIM_MODELS_DTREE_H

/* Parent of rank i in tree `which` (0 or 1) over m ranks, or -1 for its root. */
int dtree_parent(int i, int m, int which);

/*
 * The most one rank sends over both trees, in edges: one to its parent
 * (reduce) and one to each child (broadcast). 4 for a rank inside one tree
 * and a leaf of the other; less for small trees. O(m), allocates nothing
 * the caller sees.
 */
int dtree_max_out(int m);

/*
 * With ranks in leaf groups of `ranks_per_group` consecutive ranks: the most
 * edges (both trees) with exactly one end in one group, divided by the
 * group's size. O(m).
 */
double dtree_spine_load(int m, int ranks_per_group);

#endif
