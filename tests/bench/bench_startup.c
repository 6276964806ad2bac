/*
 * bench_startup [CLUSTERSIM]: what a process of a sweep pays before its
 * work: `clustersim --version` against `clustersim run` and `run --dry-run`
 * of a trivial scenario (one all-reduce on one 8-GPU node), 200 processes
 * of each, taken in turns so that a change in the machine's load falls on
 * all three. Prints the median wall time of a process (spawn to exit) and
 * the mean CPU time (user + system) of each, and run's over --version's.
 * Target: run within 1.5x of --version (docs/history/performance.md).
 * CLUSTERSIM defaults to ../clustersim next to this program (make bench).
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchutil.h"

#define ROUNDS 200
#define KINDS 3

extern char **environ;

static const char scenario[] =
	"{\"name\": \"tiny\", \"workload\": {\"kind\": \"collective\","
	" \"collective\": {\"op\": \"all_reduce\", \"bytes\": 1048576}},"
	" \"candidates\": [{\"name\": \"8x H100\", \"preset\": \"dgx-h100\", \"nodes\": 1}]}";

static double cpu_children_s(void)
{
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
	       (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

/* One process of argv, its output to /dev/null; its wall time, or -1. */
static double one(char *const argv[], double *cpu_s)
{
	posix_spawn_file_actions_t fa;
	double t0, c0 = cpu_children_s();
	int status = -1;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	t0 = bench_now_s();
	if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return -1;
	}
	waitpid(pid, &status, 0);
	double dt = bench_now_s() - t0;
	posix_spawn_file_actions_destroy(&fa);
	*cpu_s += cpu_children_s() - c0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? dt : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	char bin[4096], path[] = "/tmp/clustersim-bench-XXXXXX";
	static double wall[KINDS][ROUNDS];
	double cpu[KINDS] = { 0 }, med[KINDS];
	static const char *const names[KINDS] = { "--version", "run", "run --dry-run" };

	int len;
	if (argc > 1)
		len = snprintf(bin, sizeof bin, "%s", argv[1]);
	else {
		const char *slash = strrchr(argv[0], '/');
		len = snprintf(bin, sizeof bin, "%.*s../clustersim", slash ? (int)(slash - argv[0] + 1) : 0, argv[0]);
	}
	if (len < 0 || (size_t)len >= sizeof bin) {
		fprintf(stderr, "bench_startup: the binary's path is longer than %zu bytes\n", sizeof bin - 1);
		return 2;
	}
	int fd = mkstemp(path);
	if (fd < 0 || write(fd, scenario, sizeof scenario - 1) != (ssize_t)(sizeof scenario - 1)) {
		perror(path);
		return 1;
	}
	close(fd);
	static char version[] = "--version", run[] = "run", dry_run[] = "--dry-run";
	char *const cmds[KINDS][5] = {
		{ bin, version, NULL },
		{ bin, run, path, NULL },
		{ bin, run, dry_run, path, NULL },
	};
	for (int r = 0; r < ROUNDS; r++)
		for (int k = 0; k < KINDS; k++)
			if ((wall[k][r] = one(cmds[k], &cpu[k])) < 0) {
				fprintf(stderr, "bench_startup: %s %s failed\n", bin, names[k]);
				unlink(path);
				return 1;
			}
	unlink(path);
	for (int k = 0; k < KINDS; k++) {
		qsort(wall[k], ROUNDS, sizeof wall[k][0], cmp_double);
		med[k] = wall[k][ROUNDS / 2];
		printf("%-14s %d processes: median %.2f ms wall, mean %.2f ms CPU\n", names[k], ROUNDS,
		       1e3 * med[k], 1e3 * cpu[k] / ROUNDS);
	}
	printf("run / --version: %.2fx wall, %.2fx CPU (a trivial collective scenario; target 1.5x)\n",
	       med[1] / med[0], cpu[1] / cpu[0]);
	return 0;
}
