#include "outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "util/xalloc.h"

/* The attribute that marks a temporary as ours, and the name's pieces. */
static const char temp_xattr[] = "user.clustersim.temporary";
static const char temp_marker[] = ".clustersim-";
static const char temp_suffix[] = ".tmp";
enum { TEMP_BASE_MAX = 200, TEMP_RANDOM_DIGITS = 16, LINKS_MAX = 40 };

static void outfile_clear(struct outfile *o)
{
	memset(o, 0, sizeof *o);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- temporaries removed on a fatal signal --------------------------------
 *
 * The handler reads a fixed table of pointers: a slot is set or cleared
 * with the signals blocked, and it unlinks (async-signal-safe) what the
 * table names only in the process that registered them (a forked worker
 * inherits the table but not the files). */

/* More than any command holds at once (run: its rows and --series); one
 * past it is still written and committed, only not removed on a signal. */
enum { TEMPS_MAX = 16 };
static char *volatile temps[TEMPS_MAX];
static volatile pid_t temps_owner;
static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP };
enum { N_CLEANUP_SIGNALS = sizeof cleanup_signals / sizeof cleanup_signals[0] };

static void on_fatal_signal(int sig)
{
	if (getpid() == temps_owner)
		for (size_t i = 0; i < TEMPS_MAX; i++)
			if (temps[i] != NULL)
				unlink(temps[i]);
	signal(sig, SIG_DFL);
	raise(sig);  /* delivered when the handler returns: the process dies of it */
}

static void block_signals(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < N_CLEANUP_SIGNALS; i++)
		sigaddset(&set, cleanup_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* Catch the signals whose disposition is the default (an ignored one stays
 * ignored, a program's own handler stays). */
static void install_handlers(void)
{
	for (size_t i = 0; i < N_CLEANUP_SIGNALS; i++) {
		struct sigaction old, sa;
		if (sigaction(cleanup_signals[i], NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) ||
		    old.sa_handler != SIG_DFL)
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_fatal_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(cleanup_signals[i], &sa, NULL);
	}
}

static void temps_register(char *path)
{
	sigset_t old;
	block_signals(&old);
	temps_owner = getpid();
	for (size_t i = 0; i < TEMPS_MAX; i++) {
		if (temps[i] == NULL) {
			temps[i] = path;
			break;
		}
	}
	install_handlers();
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void temps_unregister(const char *path)
{
	sigset_t old;
	block_signals(&old);
	for (size_t i = 0; i < TEMPS_MAX; i++)
		if (temps[i] == path)
			temps[i] = NULL;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* ---- paths ----------------------------------------------------------------- */

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

/* "123" -> 123; -1 unless 1 to 9 digits and nothing else. */
static long small_number(const char *s, const char **end)
{
	long v = 0;
	size_t n = 0;
	while (s[n] >= '0' && s[n] <= '9' && n < 10)
		v = v * 10 + (s[n++] - '0');
	if (end != NULL)
		*end = s + n;
	if (n == 0 || n > 9 || (end == NULL && s[n] != '\0'))
		return -1;
	return v;
}

/* The descriptor a name stands for: /dev/stdin, /dev/stdout and
 * /dev/stderr, /dev/fd/N, /proc/self/fd/N, /proc/thread-self/fd/N and
 * /proc/PID/fd/N of this process; -1 for any other name. */
static int descriptor_name(const char *p)
{
	static const char *const std_names[] = { "/dev/stdin", "/dev/stdout", "/dev/stderr" };
	static const char *const fd_dirs[] = { "/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/" };

	for (int i = 0; i < 3; i++)
		if (strcmp(p, std_names[i]) == 0)
			return i;
	for (size_t i = 0; i < sizeof fd_dirs / sizeof fd_dirs[0]; i++)
		if (strncmp(p, fd_dirs[i], strlen(fd_dirs[i])) == 0)
			return (int)small_number(p + strlen(fd_dirs[i]), NULL);
	if (strncmp(p, "/proc/", 6) == 0) {
		const char *end;
		long pid = small_number(p + 6, &end);
		if (pid == (long)getpid() && strncmp(end, "/fd/", 4) == 0)
			return (int)small_number(end + 4, NULL);
	}
	return -1;
}

/* Where a path's bytes go. */
enum target_kind {
	TARGET_FILE,        /* a regular file or none yet: replaced by a temporary */
	TARGET_DESCRIPTOR,  /* a descriptor of this process: written through it */
	TARGET_OTHER        /* a device, fifo, socket, /proc link: opened and written through */
};

struct target {
	enum target_kind kind;
	char *path;   /* FILE: the final file; OTHER: what to open; owned */
	int fd;       /* DESCRIPTOR */
	bool exists;  /* FILE: it is there (mode holds its permissions) */
	mode_t mode;
};

/* A link's text, or NULL with errno set. Caller frees. */
static char *read_link(const char *path, off_t size_hint)
{
	size_t size = size_hint > 0 ? (size_t)size_hint + 1 : 256;
	for (;;) {
		char *buf = xmalloc(size);
		ssize_t n = readlink(path, buf, size);
		if (n < 0) {
			int e = errno;
			free(buf);
			errno = e;
			return NULL;
		}
		if ((size_t)n < size) {
			buf[n] = '\0';
			return buf;
		}
		free(buf);
		size *= 2;
	}
}

/*
 * Resolve path, one link at a time, into *t: a descriptor name wherever it
 * appears on the way, else the final non-link (a regular file, none yet, or
 * something to write through). A link under /proc/ is the kernel's to
 * follow. 0, or -1 with errno set (a directory: EISDIR).
 */
static int resolve_target(const char *path, struct target *t)
{
	char *cur = xstrdup(path);

	memset(t, 0, sizeof *t);
	for (int hops = 0;; hops++) {
		struct stat st;
		int fd = descriptor_name(cur);
		if (fd >= 0) {
			t->kind = TARGET_DESCRIPTOR;
			t->fd = fd;
			free(cur);
			return 0;
		}
		if (hops > LINKS_MAX) {
			free(cur);
			errno = ELOOP;
			return -1;
		}
		if (lstat(cur, &st) != 0) {
			if (errno != ENOENT) {
				int e = errno;
				free(cur);
				errno = e;
				return -1;
			}
			t->kind = TARGET_FILE;
			t->path = cur;
			return 0;
		}
		if (S_ISLNK(st.st_mode) && strncmp(cur, "/proc/", 6) != 0) {
			char *link = read_link(cur, st.st_size), *next;
			const char *slash = strrchr(cur, '/');
			if (link == NULL) {
				int e = errno;
				free(cur);
				errno = e;
				return -1;
			}
			if (link[0] == '/' || slash == NULL)
				next = xstrdup(link);
			else
				next = xasprintf("%.*s/%s", (int)(slash - cur), cur, link);
			free(link);
			free(cur);
			cur = next;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			free(cur);
			errno = EISDIR;
			return -1;
		}
		t->path = cur;
		t->kind = S_ISREG(st.st_mode) ? TARGET_FILE : TARGET_OTHER;
		t->exists = S_ISREG(st.st_mode);
		t->mode = st.st_mode;
		return 0;
	}
}

/* ---- temporaries ------------------------------------------------------------ */

/* The first TEMP_BASE_MAX bytes of a target's base name: what its
 * temporaries' names hold, so that they stay within NAME_MAX. */
static size_t temp_base_len(const char *base)
{
	size_t n = strlen(base);
	return n < TEMP_BASE_MAX ? n : TEMP_BASE_MAX;
}

/*
 * Is name the name of a temporary of a target whose base is `base`:
 * ".BASE.clustersim-PID-RANDOM.tmp", exactly? Its "PID-RANDOM" into token
 * and PID into *pid when it is.
 */
static bool parse_temporary_name(const char *name, const char *base, long *pid, char *token, size_t size)
{
	size_t n = temp_base_len(base), m = strlen(temp_marker);
	const char *p = name, *end;

	if (p[0] != '.' || strncmp(p + 1, base, n) != 0 || strncmp(p + 1 + n, temp_marker, m) != 0)
		return false;
	p += 1 + n + m;
	*pid = small_number(p, &end);
	if (*pid <= 0 || *end != '-')
		return false;
	for (int i = 1; i <= TEMP_RANDOM_DIGITS; i++)
		if (!((end[i] >= '0' && end[i] <= '9') || (end[i] >= 'a' && end[i] <= 'f')))
			return false;
	if (strcmp(end + 1 + TEMP_RANDOM_DIGITS, temp_suffix) != 0)
		return false;
	snprintf(token, size, "%.*s", (int)(end + 1 + TEMP_RANDOM_DIGITS - p), p);
	return true;
}

/* Is the unlocked temporary open as fd, named with token and pid, ours?
 * Its attribute says so; without attributes on its file system, its
 * process must be gone. */
static bool temporary_is_ours(int fd, long pid, const char *token)
{
	char value[64];
	ssize_t n = fgetxattr(fd, temp_xattr, value, sizeof value - 1);
	if (n >= 0) {
		value[n] = '\0';
		return strcmp(value, token) == 0;
	}
	if (errno == ENOTSUP)
		return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
	return false;  /* no attribute where there could be one: not ours */
}

/*
 * Before writing the target dir/base: remove the temporaries of earlier
 * writers that died (provably ours, unlocked), and refuse when one is
 * locked (a writer is at work now).
 */
static int sweep_stale_temporaries(const char *dir, const char *base, const char *shown,
				   struct cs_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int status = 0;

	while (d != NULL && status == 0 && (de = readdir(d)) != NULL) {
		char token[64];
		long pid;
		struct stat st;
		if (!parse_temporary_name(de->d_name, base, &pid, token, sizeof token))
			continue;
		char *tmp = xasprintf("%s/%s", dir, de->d_name);
		int fd = open(tmp, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
		    st.st_nlink == 1) {
			if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
				if (temporary_is_ours(fd, pid, token))
					unlink(tmp);  /* its writer is gone */
			} else if (errno == EWOULDBLOCK) {
				status = error_runtime(err, "cannot write '%s': another clustersim is writing it "
						       "(its temporary '%s' is locked)", shown, tmp);
			}
		}
		if (fd >= 0)
			close(fd);
		free(tmp);
	}
	if (d != NULL)
		closedir(d);
	return status;
}

/* 16 random hex digits into out (17 bytes). */
static void random_digits(char *out)
{
	static uint64_t counter;
	uint64_t r = 0;
	if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		r = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40) ^ ++counter * 0x9e3779b97f4a7c15u;
	}
	snprintf(out, TEMP_RANDOM_DIGITS + 1, "%016" PRIx64, r);
}

/*
 * Create, lock and mark a new temporary for the target dir/base with the
 * given permissions; its name into *tmp_path (caller frees). The fd, or -1
 * with errno set.
 */
static int create_temporary(const char *dir, const char *base, mode_t mode, char **tmp_path)
{
	for (int tries = 0; tries < 100; tries++) {
		char digits[TEMP_RANDOM_DIGITS + 1], *token;
		int fd;
		random_digits(digits);
		token = xasprintf("%ld-%s", (long)getpid(), digits);
		*tmp_path = xasprintf("%s/.%.*s%s%s%s", dir, (int)temp_base_len(base), base, temp_marker, token, temp_suffix);
		fd = open(*tmp_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0) {
			int e = errno;
			free(token);
			free(*tmp_path);
			*tmp_path = NULL;
			if (e == EEXIST)
				continue;
			errno = e;
			return -1;
		}
		/* a fresh name nobody else knows: the lock fails only where flock is unsupported */
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
			int e = errno;
			close(fd);
			unlink(*tmp_path);
			free(token);
			free(*tmp_path);
			*tmp_path = NULL;
			errno = e;
			return -1;
		}
		fsetxattr(fd, temp_xattr, token, strlen(token), 0);  /* where attributes are kept */
		fchmod(fd, mode);
		free(token);
		return fd;
	}
	errno = EEXIST;
	return -1;
}

/* Sync the directory of `file` after a rename into it; errors are ignored (some
 * file systems cannot sync a directory). */
static void sync_directory(const char *file)
{
	char *dir, *base;
	split_path(file, &dir, &base);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
	free(base);
}

/* ---- opening ----------------------------------------------------------------- */

static void release(struct outfile *o);

static int open_failed(struct outfile *o, const char *path, int e, struct cs_error *err)
{
	release(o);
	return error_runtime(err, "cannot write '%s': %s", path, strerror(e));
}

/* Written through: a descriptor this process holds (stdout and stderr are
 * used as they are, so their bytes keep their order), or the path opened. */
static int open_through(struct outfile *o, const char *path, const struct target *t, struct cs_error *err)
{
	int fd;
	struct stat st;

	if (t->kind == TARGET_DESCRIPTOR && (t->fd == 1 || t->fd == 2)) {
		o->f = t->fd == 1 ? stdout : stderr;
		o->borrowed = true;
		return 0;
	}
	if (t->kind == TARGET_DESCRIPTOR)
		fd = fcntl(t->fd, F_DUPFD_CLOEXEC, 3);
	else  /* it exists and is no regular file: nothing to create or truncate but a /proc link's file */
		fd = open(t->path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (strncmp(t->path, "/proc/", 6) == 0 ? O_TRUNC : 0));
	if (fd < 0)
		return open_failed(o, path, errno, err);
	if (t->kind == TARGET_OTHER && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    strncmp(t->path, "/proc/", 6) != 0) {
		close(fd);  /* it became a regular file since it was looked at */
		return open_failed(o, path, EAGAIN, err);
	}
	o->f = fdopen(fd, "w");
	if (o->f == NULL) {
		int e = errno;
		close(fd);
		return open_failed(o, path, e, err);
	}
	return 0;
}

/* A temporary for target t (a regular file or none yet) in its directory,
 * named for `base_path`'s base name: the target's own, or its journal's. */
static int open_temporary(struct outfile *o, const char *path, const struct target *t, const char *base_path,
			  struct cs_error *err)
{
	char *dir, *base;
	int fd;
	struct stat st;

	split_path(base_path, &dir, &base);
	if (sweep_stale_temporaries(dir, base, path, err) < 0) {
		free(dir);
		free(base);
		free(o->path);
		free(o->target);
		outfile_clear(o);
		return -1;
	}
	fd = create_temporary(dir, base, t->exists ? (t->mode & 0777) : 0644, &o->tmp_path);
	free(dir);
	free(base);
	if (fd < 0)
		return open_failed(o, path, errno, err);
	temps_register(o->tmp_path);
	if (fstat(fd, &st) == 0) {
		o->dev = st.st_dev;
		o->ino = st.st_ino;
	}
	o->f = fdopen(fd, "w");
	if (o->f == NULL) {
		int e = errno;
		close(fd);
		unlink(o->tmp_path);
		return open_failed(o, path, e, err);
	}
	return 0;
}

/* Everything outfile_open() and outfile_open_journal() share up to the
 * target: 1 when the output is open already (standard output, written
 * through), 0 with *t the regular target to replace, -1 with err set. */
static int open_start(struct outfile *o, const char *path, struct target *t, struct cs_error *err)
{
	outfile_clear(o);
	memset(t, 0, sizeof *t);
	if (path == NULL || strcmp(path, "-") == 0) {
		o->f = stdout;
		o->borrowed = true;
		return 1;
	}
	if (resolve_target(path, t) < 0)
		return error_runtime(err, "cannot write '%s': %s", path, strerror(errno));
	o->path = xstrdup(path);
	if (t->kind != TARGET_FILE) {
		int rc = open_through(o, path, t, err);
		free(t->path);
		return rc < 0 ? -1 : 1;
	}
	return 0;
}

int outfile_open(struct outfile *o, const char *path, struct cs_error *err)
{
	struct target t;
	int rc = open_start(o, path, &t, err);

	if (rc != 0)
		return rc < 0 ? -1 : 0;
	o->target = t.path;
	return open_temporary(o, path, &t, t.path, err);
}

/* An existing journal may be replaced when it is a regular file nobody
 * writes (a killed run's). 0, or -1 with err set. */
static int check_old_journal(const char *path, const char *journal, struct cs_error *err)
{
	struct stat st;
	int fd, rc = 0;

	if (lstat(journal, &st) != 0)
		return errno == ENOENT ? 0 : error_runtime(err, "cannot write '%s': '%s': %s", path, journal, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return error_runtime(err, "cannot write '%s': '%s' is in the way (not a regular file)", path, journal);
	fd = open(journal, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return error_runtime(err, "cannot write '%s': '%s': %s", path, journal, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
		rc = error_runtime(err, "cannot write '%s': another clustersim is writing it (its journal '%s' is locked)",
				   path, journal);
	close(fd);
	return rc;
}

int outfile_open_journal(struct outfile *o, const char *path, struct cs_error *err)
{
	struct target t;
	int rc = open_start(o, path, &t, err);
	char *journal;

	if (rc != 0)
		return rc < 0 ? -1 : 0;
	o->target = t.path;
	journal = xasprintf("%s.partial", t.path);
	if (check_old_journal(path, journal, err) < 0 || open_temporary(o, path, &t, journal, err) < 0) {
		free(journal);
		if (o->path != NULL) {  /* check_old_journal failed: nothing open yet */
			free(o->path);
			free(o->target);
			outfile_clear(o);
		}
		return -1;
	}
	/* Its name from now on is the journal's: created whole, locked, visible. */
	if (rename(o->tmp_path, journal) != 0) {
		int e = errno;
		fclose(o->f);
		unlink(o->tmp_path);
		o->f = NULL;
		free(journal);
		return open_failed(o, path, e, err);
	}
	temps_unregister(o->tmp_path);
	free(o->tmp_path);
	fremovexattr(fileno(o->f), temp_xattr);  /* a journal, no longer a temporary */
	o->tmp_path = journal;
	o->journal = true;
	o->synced_s = now_s();
	return 0;
}

/* ---- writing and finishing ----------------------------------------------------- */

bool outfile_replaces(const struct outfile *o)
{
	return o->tmp_path != NULL;
}

int outfile_checkpoint(struct outfile *o)
{
	if (o->f == NULL)
		return 0;
	if (fflush(o->f) != 0 || ferror(o->f))
		return -1;
	if (o->journal) {
		double t = now_s();
		if (t - o->synced_s >= OUTFILE_SYNC_INTERVAL_S) {
			if (fdatasync(fileno(o->f)) != 0)
				return -1;
			o->synced_s = t;
		}
	}
	return 0;
}

/* Is the file named tmp_path still the one we opened? */
static bool still_ours(const struct outfile *o)
{
	struct stat st;
	return lstat(o->tmp_path, &st) == 0 && st.st_dev == o->dev && st.st_ino == o->ino;
}

static void release(struct outfile *o)
{
	if (o->tmp_path != NULL && !o->journal)
		temps_unregister(o->tmp_path);
	free(o->path);
	free(o->target);
	free(o->tmp_path);
	outfile_clear(o);
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
	if (o->borrowed) {
		release(o);
		if (failed)
			return error_runtime(err, "cannot write %s: %s", shown, strerror(e ? e : EIO));
		return 0;
	}
	if (!failed && o->tmp_path != NULL && fsync(fileno(o->f)) != 0) {
		failed = 1;
		e = errno;
	}
	if (!failed && o->journal && !still_ours(o)) {
		failed = 1;
		e = ESTALE;
	}
	if (!failed && o->tmp_path != NULL && !o->journal)
		fremovexattr(fileno(o->f), temp_xattr);  /* the results carry no mark of ours */
	/* renamed while still open and locked: no other writer takes it for stale */
	if (!failed && o->tmp_path != NULL && rename(o->tmp_path, o->target) != 0) {
		failed = 1;
		e = errno;
	}
	if (!failed && o->tmp_path != NULL)
		sync_directory(o->target);
	if (failed && o->tmp_path != NULL && !o->journal)
		unlink(o->tmp_path);
	if (fclose(o->f) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	o->f = NULL;
	if (failed) {
		if (e == ESTALE)
			error_runtime(err, "cannot write '%s': its journal '%s' was replaced by another process", shown,
				      o->tmp_path);
		else
			error_runtime(err, "cannot write '%s': %s", shown, strerror(e ? e : EIO));
	}
	release(o);
	return failed ? -1 : 0;
}

int outfile_keep(struct outfile *o, char **kept, struct cs_error *err)
{
	int failed, e = 0;

	*kept = NULL;
	if (!o->journal)
		return outfile_commit(o, err);
	failed = fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0;
	if (failed)
		e = errno;
	if (fclose(o->f) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	o->f = NULL;
	if (failed)
		error_runtime(err, "cannot write '%s': %s", o->tmp_path, strerror(e ? e : EIO));
	else
		*kept = xstrdup(o->tmp_path);
	release(o);
	return failed ? -1 : 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->f != NULL && o->tmp_path != NULL && (!o->journal || still_ours(o)))
		unlink(o->tmp_path);
	if (o->f != NULL && !o->borrowed)
		fclose(o->f);
	release(o);
}

char *outfile_journal_name(const char *path)
{
	struct target t;
	char *journal = NULL;

	if (path == NULL || strcmp(path, "-") == 0 || resolve_target(path, &t) < 0)
		return NULL;
	if (t.kind == TARGET_FILE)
		journal = xasprintf("%s.partial", t.path);
	free(t.path);
	return journal;
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
