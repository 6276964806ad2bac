#include "straggler.h"

#include <assert.h>
#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_randist.h>

/*
 * sigma, the relative spread of GPUs' speed, is the training engine's
 * straggler_sigma in the catalog (scenarios/catalog/engines.json: 1.5%, from
 * Sinha et al., "Not All GPUs Are Created Equal", SC'22).
 */

/* The integrand of E[max of n] = int x n phi(x) Phi(x)^(n-1) dx. */
static double max_density_x(double x, void *arg)
{
	double n = *(const double *)arg;
	double P = gsl_cdf_ugaussian_P(x);
	if (P <= 0)
		return 0;
	return x * n * gsl_ran_ugaussian_pdf(x) * exp((n - 1) * log(P));
}

static double expected_max_of(long n);

/*
 * A plan search asks for the same n (the job's GPUs) for every plan it
 * simulates, and each integration takes about 20 us: a small direct-mapped
 * memo per thread keeps it to one per distinct n (the value is the same
 * double either way).
 */
#define EXPECTED_MAX_MEMO 16

double straggler_expected_max(long n)
{
	static _Thread_local struct {
		long n;  /* 0: empty */
		double value;
	} memo[EXPECTED_MAX_MEMO];
	unsigned long h = (unsigned long)n * 2654435761u % EXPECTED_MAX_MEMO;
	if (memo[h].n != n || n == 0) {
		memo[h].value = expected_max_of(n);
		memo[h].n = n;
	}
	return memo[h].value;
}

static double expected_max_of(long n)
{
	if (n <= 1)
		return 0;
	if (n == 2)
		return 1 / sqrt(M_PI);
	if (n > STRAGGLER_EXACT_MAX_N) {
		/* the leading terms of the expansion of the mode plus Euler's
		 * constant over it (David and Nagaraja, section 10.5) */
		double l = 2 * log((double)n);
		double a = sqrt(l) - (log(log((double)n)) + log(4 * M_PI)) / (2 * sqrt(l));
		return a + 0.5772156649015329 / sqrt(l);
	}
	double dn = (double)n;
	gsl_function f = { .function = max_density_x, .params = &dn };
	gsl_integration_workspace *ws = gsl_integration_workspace_alloc(200);
	double result = 0, abserr = 0;
	/* the density of the maximum lives within [-9, 10] for every n here */
	int rc = gsl_integration_qag(&f, -9.0, 10.0, 1e-10, 1e-9, 200, GSL_INTEG_GAUSS61, ws, &result, &abserr);
	gsl_integration_workspace_free(ws);
	assert(rc == GSL_SUCCESS);
	(void)rc;
	return result;
}

double straggler_wait_s(double compute_s, long n, double sigma)
{
	if (n <= 1 || !(compute_s > 0) || !(sigma > 0))
		return 0;
	return sigma * straggler_expected_max(n) * compute_s;
}
