#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/xalloc.h"

static void outfile_clear(struct outfile *o)
{
	o->f = NULL;
	o->path = NULL;
	o->tmp_path = NULL;
	o->is_stdout = false;
}

/* The directory and base name of path, split at the last slash (dir is
 * "." when there is none). Caller frees both. */
static void split_path(const char *path, char **dir, char **base)
{
	const char *slash = strrchr(path, '/');
	if (slash == NULL) {
		*dir = xstrdup(".");
		*base = xstrdup(path);
	} else if (slash == path) {
		*dir = xstrdup("/");
		*base = xstrdup(slash + 1);
	} else {
		*dir = xstrndup(path, (size_t)(slash - path));
		*base = xstrdup(slash + 1);
	}
}

/* A temporary of ours is "BASE.tmp." and six characters of mkstemp. */
static bool is_temporary_of(const char *name, const char *base)
{
	size_t n = strlen(base);
	return strncmp(name, base, n) == 0 && strncmp(name + n, ".tmp.", 5) == 0 && strlen(name + n + 5) == 6;
}

/*
 * Before writing path: remove the temporaries of earlier writers that died
 * (unlocked), and refuse when one is locked (a writer is at work now).
 */
static int sweep_stale_temporaries(const char *path, struct cs_error *err)
{
	char *dir, *base;
	DIR *d;
	struct dirent *de;
	int status = 0;

	split_path(path, &dir, &base);
	d = opendir(dir);
	while (d != NULL && status == 0 && (de = readdir(d)) != NULL) {
		if (!is_temporary_of(de->d_name, base))
			continue;
		char *tmp = xasprintf("%s/%s", dir, de->d_name);
		int fd = open(tmp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			if (flock(fd, LOCK_EX | LOCK_NB) == 0)
				unlink(tmp);  /* its writer is gone */
			else if (errno == EWOULDBLOCK)
				status = error_runtime(err, "cannot write '%s': another clustersim is writing it "
						       "(its temporary '%s' is locked)", path, tmp);
			close(fd);
		}
		free(tmp);
	}
	if (d != NULL)
		closedir(d);
	free(dir);
	free(base);
	return status;
}

int outfile_check_not_input(const char *output, const char *input, const char *what,
			    struct cs_error *err)
{
	struct stat so, si;
	if (output == NULL || strcmp(output, "-") == 0 || input == NULL || strcmp(input, "-") == 0)
		return 0;
	if (stat(output, &so) != 0 || stat(input, &si) != 0)
		return 0;
	if (so.st_dev != si.st_dev || so.st_ino != si.st_ino || !S_ISREG(so.st_mode))
		return 0;
	return error_set(err, "refusing to write results to '%s': it is the %s '%s'", output, what, input);
}

int outfile_open(struct outfile *o, const char *path, struct cs_error *err)
{
	struct stat st;
	int fd;

	outfile_clear(o);
	if (path == NULL || strcmp(path, "-") == 0) {
		o->f = stdout;
		o->is_stdout = true;
		return 0;
	}
	o->path = xstrdup(path);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			free(o->path);
			outfile_clear(o);
			return error_runtime(err, "cannot write '%s': is a directory", path);
		}
		o->f = fopen(path, "w");
		if (o->f == NULL) {
			int e = errno;
			free(o->path);
			outfile_clear(o);
			return error_runtime(err, "cannot write '%s': %s", path, strerror(e));
		}
		return 0;
	}
	if (sweep_stale_temporaries(path, err) < 0) {
		free(o->path);
		outfile_clear(o);
		return -1;
	}
	o->tmp_path = xasprintf("%s.tmp.XXXXXX", path);
	fd = mkstemp(o->tmp_path);
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0) {
		/* a fresh name nobody else knows: can only fail if flock is unsupported */
		int e = errno;
		close(fd);
		unlink(o->tmp_path);
		fd = -1;
		errno = e;
	}
	if (fd < 0) {
		int e = errno;
		free(o->path);
		free(o->tmp_path);
		outfile_clear(o);
		return error_runtime(err, "cannot write '%s': %s", path, strerror(e));
	}
	fchmod(fd, 0644);
	o->f = fdopen(fd, "w");
	if (o->f == NULL) {
		int e = errno;
		close(fd);
		unlink(o->tmp_path);
		free(o->path);
		free(o->tmp_path);
		outfile_clear(o);
		return error_runtime(err, "cannot write '%s': %s", path, strerror(e));
	}
	return 0;
}

int outfile_commit(struct outfile *o, struct cs_error *err)
{
	int failed, e = 0;
	const char *shown = o->path ? o->path : "standard output";

	if (o->f == NULL)
		return 0;
	failed = fflush(o->f) != 0 || ferror(o->f);
	if (failed)
		e = errno;
	if (o->is_stdout) {
		outfile_clear(o);
		if (failed)
			return error_runtime(err, "cannot write %s: %s", shown, strerror(e ? e : EIO));
		return 0;
	}
	if (!failed && o->tmp_path != NULL && fsync(fileno(o->f)) != 0) {
		failed = 1;
		e = errno;
	}
	if (fclose(o->f) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	o->f = NULL;
	if (!failed && o->tmp_path != NULL && rename(o->tmp_path, o->path) != 0) {
		failed = 1;
		e = errno;
	}
	if (failed) {
		error_runtime(err, "cannot write '%s': %s", shown, strerror(e ? e : EIO));
		if (o->tmp_path != NULL)
			unlink(o->tmp_path);
	}
	free(o->path);
	free(o->tmp_path);
	outfile_clear(o);
	return failed ? -1 : 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->f != NULL && !o->is_stdout)
		fclose(o->f);
	if (o->tmp_path != NULL)
		unlink(o->tmp_path);
	free(o->path);
	free(o->tmp_path);
	outfile_clear(o);
}
