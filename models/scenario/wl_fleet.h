/*
 * wl_fleet: the fields of a fleet workload (docs/explanation/fleet.md): the `fleet`
 * block (duration_h, warmup_h, scheduler with policy, preemption and
 * per-team quotas, objective wait_p90_h and the groups it applies_to, and
 * the job classes: name, team, priority, arrival (poisson at rate_per_h,
 * or a trace file in sacct or csv format; an sacct trace's jobs' teams
 * from partition_teams, the stated team, then the Partition or QOS),
 * gpus, duration_s (a number or a distribution) or a nested training,
 * finetune, inference or collective workload, estimate_factor)
 * and the workload's `failures` (the whole-run failure model, read as
 * training reads it), applied to the fleet's nodes.
 *
 * It allocates w->fleet, each class's nested workload (read by the reader
 * it is given, which wl.c's table makes wl_read: the reader of its kind)
 * and each trace (fleet_trace.h); wl_fleet_release() frees them all. Never prints; every failure names the file, the JSON
 * path and the value.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_WL_FLEET_H
#define CLUSTERSIM_MODELS_SCENARIO_WL_FLEET_H

#include "models/scenario/wl_reader.h"

/* The reader of kind "fleet": a wl_read_fn but for `nested`, the reader of
 * its job classes' workloads (wl_read, which the table gives it). */
int wl_fleet_read(struct jread *r, const json_t *v, const char *file, const catalog *cat,
		  struct workload_spec *w, wl_read_fn *nested);

/* Free what wl_fleet_read() allocated in *w; safe on any workload and twice. */
void wl_fleet_release(struct workload_spec *w);

#endif
