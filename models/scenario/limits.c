#include "limits.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* MemAvailable of /proc/meminfo in bytes (the kernel's estimate of what can
 * be allocated without swapping), or 0 when it cannot be read. */
static uint64_t meminfo_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kb = 0;
	bool found = false;

	if (f == NULL)
		return 0;
	while (!found && fgets(line, sizeof line, f) != NULL)
		found = sscanf(line, "MemAvailable: %llu kB", &kb) == 1;
	fclose(f);
	return found ? (uint64_t)kb * 1024 : 0;
}

/* The process's address space now (VmSize, from /proc/self/statm), or 0. */
static uint64_t address_space_used(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long long pages = 0;
	long page = sysconf(_SC_PAGESIZE);
	int got;

	if (f == NULL)
		return 0;
	got = fscanf(f, "%llu", &pages);
	fclose(f);
	return got == 1 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}

void limits_memory_available(struct limits_memory *m)
{
	struct rlimit rl;

	m->bytes = meminfo_available();
	m->bound = "the memory available (MemAvailable)";
	if (m->bytes == 0) {
		long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
		if (pages > 0 && page > 0) {
			m->bytes = (uint64_t)pages * (uint64_t)page;
			m->bound = "the free memory";
		}
	}
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		uint64_t used = address_space_used(), room = rl.rlim_cur > used ? (uint64_t)rl.rlim_cur - used : 0;
		if (m->bytes == 0 || room < m->bytes) {
			m->bytes = room > 0 ? room : 1;
			m->bound = "the room left under the address-space limit (RLIMIT_AS, ulimit -v)";
		}
	}
}

int limits_check_memory(struct jread *r, const char *key, const char *what, double count, double bytes_each)
{
	struct limits_memory m;
	double need = count * bytes_each;

	limits_memory_available(&m);
	if (m.bytes == 0 || need <= (double)m.bytes)
		return 0;
	size_t mark = key != NULL ? jread_enter_key(r, key) : 0;
	jread_fail(r, "%.4g %s would need about %.3g GB (%.0f bytes each), more than the %.3g GB of %s; "
		   "ask for fewer %s", count, what, need / 1e9, bytes_each, (double)m.bytes / 1e9, m.bound, what);
	if (key != NULL)
		jread_leave(r, mark);
	return -1;
}
