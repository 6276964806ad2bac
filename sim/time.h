/*
 * time: simulated time.
 *
 * Simulated time is an int64_t count of nanoseconds from the start of a run:
 * 2^63 ns is 292 years, so a multi-month run fits with room to spare and,
 * unlike a double, the clock does not lose resolution as it grows. Rates and
 * remaining work stay doubles; a completion is scheduled at
 * now + ceil(remaining / rate) so it is never early.
 */
#ifndef CLUSTERSIM_SIM_TIME_H
#define CLUSTERSIM_SIM_TIME_H

#include <math.h>
#include <stdint.h>

#define SIM_NS_PER_S INT64_C(1000000000)
#define SIM_TIME_MAX INT64_MAX
/* A second safely before the clock's end (2^63 ns is 9.223e9 s, 292
 * years): a model whose inputs could reach the end states a bound below it
 * or stops here, so that an event saturated at SIM_TIME_MAX never runs. */
#define SIM_TIME_MAX_S 9.2e9

/* Seconds to nanoseconds: the one conversion of a time or a duration to the
 * engine's clock. Rounded up, so that work scheduled at its end is never
 * early; a negative value is 0; a value at or past the clock's end (2^63
 * ns, exact in a double), +inf and NaN saturate at SIM_TIME_MAX instead of
 * overflowing. */
static inline int64_t sim_time_from_s(double s)
{
	double ns = ceil(s * 1e9);
	if (!(ns < 9223372036854775808.0))  /* 2^63 */
		return SIM_TIME_MAX;
	if (ns < 0)
		return 0;
	return (int64_t)ns;
}

/* Seconds to the nearest nanosecond (half away from zero), saturating as
 * sim_time_from_s() does. For showing a time computed in seconds (a trace
 * span's ends), never for scheduling: an event goes on the clock through
 * sim_time_from_s(). (Rounding the trace's spans up instead would move
 * most of their ends by 1 ns in the trace's output.) */
static inline int64_t sim_time_round_s(double s)
{
	double ns = s * 1e9;
	if (!(ns < 9223372036854775808.0))  /* 2^63 */
		return SIM_TIME_MAX;
	if (ns < 0)
		return 0;
	return (int64_t)llround(ns);
}

/* a + b (both >= 0) in nanoseconds, saturating at SIM_TIME_MAX: a time past
 * the clock's end stays there (an event at SIM_TIME_MAX runs only if the run
 * goes that far), never wraps to the past. */
static inline int64_t sim_time_add(int64_t a, int64_t b)
{
	return b > SIM_TIME_MAX - a ? SIM_TIME_MAX : a + b;
}

/* Nanoseconds to seconds. */
static inline double sim_time_to_s(int64_t ns)
{
	return (double)ns * 1e-9;
}

#endif
