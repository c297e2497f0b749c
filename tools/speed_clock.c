/* blockcrypt tool: the core clock, measured rather than assumed (the TSC ticks at a fixed rate, the core does not).
 * Method: a chain of dependent register additions runs at one per core cycle on every x86-64, arm64 and s390x core. */
#include <time.h>

#include "speed.h"

#define CHAIN_ROUNDS 2048   /* 16 additions each: about 10 microseconds at 3 GHz */
#define CHAIN_TRIES 4       /* the fastest try is the one no interrupt or steal landed in */

const char speed_clock_method[] =
	"core clock measured before and after each batch by timing a chain of dependent "
	"1-cycle register additions (best of 4)";

double speed_seconds(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The empty asm makes each sum a fresh register value the compiler must produce by a real
 * addition, in order: no folding, no vectorising, no reassociation. */
#define ADD1 x += step; __asm__ volatile("" : "+r"(x));
#define ADD4 ADD1 ADD1 ADD1 ADD1
static void add_chain(unsigned long step)
{
	unsigned long x = 0;

	for (unsigned i = 0; i < CHAIN_ROUNDS; i++) {
		ADD4 ADD4 ADD4 ADD4
	}
	__asm__ volatile("" : : "r"(x));
}

double speed_core_hz(void)
{
	static volatile unsigned long step = 1;
	double best = 0;

	for (int t = 0; t < CHAIN_TRIES; t++) {
		double t0 = speed_seconds(CLOCK_MONOTONIC);

		add_chain(step);
		double dt = speed_seconds(CLOCK_MONOTONIC) - t0;

		if (dt > 0 && 16.0 * CHAIN_ROUNDS / dt > best)
			best = 16.0 * CHAIN_ROUNDS / dt;
	}
	return best;
}
