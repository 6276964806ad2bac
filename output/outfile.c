#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
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
	o->tmp_path = xasprintf("%s.tmp.XXXXXX", path);
	fd = mkstemp(o->tmp_path);
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
