/*
 * straggler: what waiting for the slowest GPU costs a synchronising step.
 *
 * A step ends with collectives that every GPU of the job joins (the
 * data-parallel gradient reduction, the gradient-norm and loss
 * all-reduces), so it lasts as long as its slowest GPU's compute. When
 * each GPU's compute time per step varies by a relative standard deviation
 * sigma, iid across GPUs, the step waits sigma x E[max of N standard
 * normals] x the compute time beyond the mean (David and Nagaraja, "Order
 * Statistics", 3rd ed., 2003, section 4.5; the asymptote sqrt(2 ln N) is
 * theirs too). sigma is the training engine's straggler_sigma in the catalog (engines).
 * It only computes; step.h adds the cost to the step.
 */
#ifndef CLUSTERSIM_MODELS_TRAIN_STRAGGLER_H
#define CLUSTERSIM_MODELS_TRAIN_STRAGGLER_H

/* E[max of n iid standard normal draws]: 0 for n <= 1, 1/sqrt(pi) for n 2;
 * numerical integration up to STRAGGLER_EXACT_MAX_N ranks, the asymptotic
 * expansion above. */
double straggler_expected_max(long n);

/* Seconds a step whose GPUs compute compute_s each waits for the slowest
 * of n GPUs: sigma x E[max of n] x compute_s (0 for one GPU). */
double straggler_wait_s(double compute_s, long n, double sigma);

/* Ranks up to which E[max] is integrated numerically. */
#define STRAGGLER_EXACT_MAX_N 1000000000L

#endif
