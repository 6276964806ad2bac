#include "workers.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/xalloc.h"

/* Largest record accepted from a worker: far above any sweep point's rows. */
#define RECORD_MAX ((uint64_t)1 << 30)

static int write_full(int fd, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Read n bytes; 0 ok, -1 end of file or error, -2 interrupted by a signal. */
static int read_full(int fd, void *out, size_t n, volatile sig_atomic_t *interrupted)
{
	unsigned char *p = out;
	while (n > 0) {
		ssize_t got = read(fd, p, n);
		if (got < 0) {
			if (errno == EINTR) {
				if (interrupted != NULL && *interrupted)
					return -2;
				continue;
			}
			return -1;
		}
		if (got == 0)
			return -1;
		p += got;
		n -= (size_t)got;
	}
	return 0;
}

/*
 * In a worker: close every descriptor but standard input, output, error and
 * `keep` (its pipe). A worker must not hold the parent's output files: their
 * advisory locks (output/outfile.h) live as long as any process holds them,
 * and a worker left running by a parent that was killed would keep the
 * parent's journal locked, so that --resume would take it for a sweep still
 * at work.
 */
static void close_inherited(int keep)
{
	int fds[1024];
	size_t n = 0;
	DIR *d = opendir("/proc/self/fd");

	if (d != NULL) {
		struct dirent *de;
		int self = dirfd(d);
		while ((de = readdir(d)) != NULL && n < sizeof fds / sizeof fds[0]) {
			char *end;
			long fd = strtol(de->d_name, &end, 10);
			if (*end == '\0' && end != de->d_name && fd > 2 && fd != keep && fd != self)
				fds[n++] = (int)fd;
		}
		closedir(d);
		for (size_t i = 0; i < n; i++)
			close(fds[i]);
		if (n < sizeof fds / sizeof fds[0])
			return;
	}
	for (int fd = 3; fd < 4096; fd++)  /* no /proc, or very many: the first ones */
		if (fd != keep)
			close(fd);
}

/* Worker w of n: compute its jobs and send each one's record. Never returns. */
static void worker_main(size_t w, size_t n, uint64_t njobs, workers_job_fn fn, void *ctx, int fd)
{
	struct rowcodec_buf b = { 0 };
	int status = 0;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	close_inherited(fd);
	for (uint64_t j = w; j < njobs; j += n) {
		rowset *rows = fn(ctx, j);
		rowcodec_encode(&b, j, rows);
		rowset_free(rows);
		if (write_full(fd, b.p, b.n) < 0) {
			status = 1;
			break;
		}
	}
	free(b.p);
	close(fd);
	_exit(status);
}

void workers_stop(struct workers *ws)
{
	for (size_t w = 0; w < ws->n; w++) {
		if (ws->fd[w] >= 0)
			close(ws->fd[w]);
		if (ws->pid[w] > 0) {
			/* SIGKILL ends a stopped worker too (SIGTERM would wait for a
			 * SIGCONT), and a worker has nothing to save: its rows only
			 * ever reach the parent */
			kill(ws->pid[w], SIGKILL);
			while (waitpid(ws->pid[w], NULL, 0) < 0 && errno == EINTR)
				;
		}
	}
	free(ws->pid);
	free(ws->fd);
	free(ws->buf.p);
	memset(ws, 0, sizeof *ws);
}

int workers_start(struct workers *ws, size_t n, uint64_t njobs, workers_job_fn fn, void *ctx,
		  volatile sig_atomic_t *interrupted, struct cs_error *err)
{
	int (*pipes)[2] = xcalloc(n, sizeof *pipes);

	memset(ws, 0, sizeof *ws);
	ws->n = n;
	ws->interrupted = interrupted;
	ws->pid = xcalloc(n, sizeof *ws->pid);
	ws->fd = xcalloc(n, sizeof *ws->fd);
	for (size_t w = 0; w < n; w++)
		ws->fd[w] = -1;
	for (size_t w = 0; w < n; w++) {
		if (pipe(pipes[w]) != 0) {
			int e = errno;
			for (size_t v = 0; v < w; v++) {
				close(pipes[v][0]);
				close(pipes[v][1]);
			}
			free(pipes);
			workers_stop(ws);
			return error_runtime(err, "sweep: cannot create a pipe: %s", strerror(e));
		}
	}
	fflush(NULL);
	for (size_t w = 0; w < n; w++) {
		pid_t pid = fork();
		if (pid < 0) {
			int e = errno;
			for (size_t v = w; v < n; v++) {
				close(pipes[v][0]);
				close(pipes[v][1]);
			}
			free(pipes);
			workers_stop(ws);
			return error_runtime(err, "sweep: cannot start a worker: %s", strerror(e));
		}
		if (pid == 0) {
			/* Keep only this worker's write end. */
			for (size_t v = 0; v < w; v++)
				if (ws->fd[v] >= 0)
					close(ws->fd[v]);
			for (size_t v = w; v < n; v++) {
				close(pipes[v][0]);
				if (v != w)
					close(pipes[v][1]);
			}
			int fd = pipes[w][1];
			free(pipes);
			worker_main(w, n, njobs, fn, ctx, fd);
		}
		ws->pid[w] = pid;
		close(pipes[w][1]);
		ws->fd[w] = pipes[w][0];
	}
	free(pipes);
	return 0;
}

static void describe_exit(int wstatus, char *buf, size_t size)
{
	if (WIFSIGNALED(wstatus))
		snprintf(buf, size, "killed by signal %d", WTERMSIG(wstatus));
	else if (WIFEXITED(wstatus))
		snprintf(buf, size, "exited with status %d", WEXITSTATUS(wstatus));
	else
		snprintf(buf, size, "stopped");
}

rowset *workers_take(struct workers *ws, uint64_t j, uint64_t point, const char *const cols[],
		     size_t ncols, struct cs_error *err)
{
	size_t w = (size_t)(j % ws->n);
	uint64_t len, got_j;
	rowset *rows;
	int rc = read_full(ws->fd[w], &len, sizeof len, ws->interrupted);

	if (rc == 0 && len > RECORD_MAX)
		rc = -1;
	if (rc == 0) {
		if (ws->buf.cap < len) {
			ws->buf.cap = (size_t)len;
			ws->buf.p = xreallocarray(ws->buf.p, ws->buf.cap ? ws->buf.cap : 1, 1);
		}
		rc = read_full(ws->fd[w], ws->buf.p, (size_t)len, ws->interrupted);
	}
	if (rc == -2)
		return NULL;
	if (rc < 0) {
		int wstatus = 0;
		char how[64] = "ended early";
		close(ws->fd[w]);
		ws->fd[w] = -1;
		if (waitpid(ws->pid[w], &wstatus, 0) == ws->pid[w]) {
			describe_exit(wstatus, how, sizeof how);
			ws->pid[w] = 0;
		}
		error_runtime(err, "sweep: worker %zu of %zu %s before sending point %" PRIu64,
			      w + 1, ws->n, how, point);
		return NULL;
	}
	rows = rowcodec_decode(ws->buf.p, (size_t)len, cols, ncols, &got_j);
	if (rows == NULL || got_j != j) {
		rowset_free(rows);
		error_runtime(err, "sweep: worker %zu of %zu sent a malformed record for point %" PRIu64,
			      w + 1, ws->n, point);
		return NULL;
	}
	return rows;
}

int workers_finish(struct workers *ws, struct cs_error *err)
{
	int rc = 0;
	for (size_t w = 0; w < ws->n; w++) {
		int wstatus = 0;
		close(ws->fd[w]);
		ws->fd[w] = -1;
		if (waitpid(ws->pid[w], &wstatus, 0) == ws->pid[w]) {
			ws->pid[w] = 0;
			if (rc == 0 && !(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)) {
				char how[64];
				describe_exit(wstatus, how, sizeof how);
				rc = error_runtime(err, "sweep: worker %zu of %zu %s", w + 1, ws->n, how);
			}
		}
	}
	workers_stop(ws);
	return rc;
}
