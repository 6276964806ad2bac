/*
 * pipeline_direct: a pipeline schedule's step evaluated in dependency
 * order, without the event engine.
 *
 * Once the plan is chosen, each stage's order of operations is fixed
 * (pipeline_stage_ops), and an operation starts at the later of its
 * stage's last end and its input's arrival, both on the engine's
 * nanosecond clock. So the step can be computed operation by operation,
 * each stage advancing until its next input is not known yet, with no
 * priority queue: the same floating-point operations in the same order as
 * pipeline_run's events, so every result field is the same to the bit
 * (test_pipeline_direct holds the two equal on random plans of every
 * schedule). ZB-H1's weight gradients fill a wait exactly as there: a
 * stage runs its oldest pending W when its next F or B has not arrived by
 * the time it is free.
 *
 * That equality rests on facts of the event engine that it checks rather
 * than assumes. Every time is under 4e6 s, where seconds = ns x 1e-9 is
 * strictly increasing in ns, so comparing seconds (as pipeline.c does) is
 * comparing nanoseconds. A stage is woken at its own last end and at each
 * arrival of its inputs, so its next operation starts at the later of the
 * two whatever the order of one instant's events, even when an operation
 * takes no time (a virtual stage without layers). Only ZB-H1's choice
 * between its next F or B and a pending W is made once, at the instant
 * the stage is free: an input that a 0 ns operation started at that same
 * instant sends is there or not by the order of the instant's events, so
 * there an F or B of 0 ns is declined (a W of 0 ns sends nothing).
 * Declined, the caller runs pipeline_run. It never traces and has no
 * hooks (training's full mode runs the engine). O(p v m) time and memory.
 */
#ifndef CLUSTERSIM_MODELS_TRAIN_PIPELINE_DIRECT_H
#define CLUSTERSIM_MODELS_TRAIN_PIPELINE_DIRECT_H

#include <stdbool.h>

#include "models/train/pipeline.h"

/* Evaluate c into *r (arrays allocated here: release with
 * pipeline_result_release) and return true; or return false, with *r
 * untouched, where the direct evaluation does not apply (above). */
bool pipeline_direct_run(const struct pipeline_config *c, struct pipeline_result *r);

#endif
