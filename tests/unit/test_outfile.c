/* Output files: atomic replacement, one writer at a time, stale temporaries
 * of killed runs removed (and nothing else), links and special files written
 * through or their targets replaced, temporaries gone on SIGINT/SIGTERM,
 * journals that survive a kill, and results never written over an input. */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "output/outfile.h"
#include "util/error.h"

static int setup(void **state)
{
	(void)state;
	return test_dir_make("test_outfile");
}

static int teardown(void **state)
{
	(void)state;
	return test_dir_remove();
}

/* Number of entries of directory dir (NULL: the test directory) whose
 * names start with prefix. */
static int count_in(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir != NULL ? dir : test_dir());
	struct dirent *de;
	int n = 0;
	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, prefix, strlen(prefix)) == 0 && strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

static int count_entries(const char *prefix)
{
	return count_in(NULL, prefix);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The file's text (up to 255 bytes) into a static buffer; "" when absent. */
static const char *read_text(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n = 0;
	if (f != NULL) {
		n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

static bool is_link(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

/* Write text to path through an outfile and commit it. */
static void write_out(const char *path, const char *text)
{
	struct outfile o;
	struct cs_error err;
	error_clear(&err);
	assert_int_equal(outfile_open(&o, path, &err), 0);
	fputs(text, o.f);
	assert_int_equal(outfile_commit(&o, &err), 0);
}

static void test_commit_replaces_atomically(void **state)
{
	(void)state;
	char path[128];
	struct outfile o;
	struct cs_error err;
	snprintf(path, sizeof path, "%s/out.csv", test_dir());
	write_text(path, "old\n");
	error_clear(&err);
	assert_int_equal(outfile_open(&o, path, &err), 0);
	fputs("new\n", o.f);
	/* until the commit, the old file is whole and the new one is a temporary */
	assert_int_equal(count_entries(".out.csv.clustersim-"), 1);
	assert_string_equal(read_text(path), "old\n");
	assert_int_equal(outfile_commit(&o, &err), 0);
	assert_int_equal(count_entries(".out.csv.clustersim-"), 0);
	assert_string_equal(read_text(path), "new\n");
}

/* The temporary's name: ".BASE.clustersim-PID-RANDOM.tmp", with the
 * attribute that marks it as ours. */
static void test_temporary_name(void **state)
{
	(void)state;
	char path[128], prefix[64], value[64] = "";
	struct outfile o;
	struct cs_error err;
	DIR *d;
	struct dirent *de;
	char name[256] = "", full[320];
	const char *token;
	snprintf(path, sizeof path, "%s/named.csv", test_dir());
	snprintf(prefix, sizeof prefix, ".named.csv.clustersim-%ld-", (long)getpid());
	error_clear(&err);
	assert_int_equal(outfile_open(&o, path, &err), 0);
	d = opendir(test_dir());
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, prefix, strlen(prefix)) == 0)
			snprintf(name, sizeof name, "%s", de->d_name);
	closedir(d);
	assert_int_equal(strlen(name), strlen(prefix) + 16 + 4);
	assert_int_equal(strspn(name + strlen(prefix), "0123456789abcdef"), 16);
	assert_string_equal(name + strlen(prefix) + 16, ".tmp");
	snprintf(full, sizeof full, "%s/%s", test_dir(), name);
	token = name + strlen(".named.csv.clustersim-");
	ssize_t n = getxattr(full, "user.clustersim.temporary", value, sizeof value - 1);
	if (n >= 0) {  /* where the file system keeps attributes: PID-RANDOM */
		value[n] = '\0';
		assert_int_equal(strlen(value), strlen(token) - 4);
		assert_true(strncmp(value, token, strlen(value)) == 0);
	} else {
		assert_int_equal(errno, ENOTSUP);
	}
	outfile_abort(&o);
	assert_int_equal(count_entries(".named.csv"), 0);
}

static void test_second_writer_refused(void **state)
{
	(void)state;
	char path[128];
	struct outfile a, b;
	struct cs_error err;
	snprintf(path, sizeof path, "%s/busy.csv", test_dir());
	error_clear(&err);
	assert_int_equal(outfile_open(&a, path, &err), 0);
	assert_int_equal(outfile_open(&b, path, &err), -1);
	assert_int_equal(err.kind, ERROR_RUNTIME);
	assert_non_null(strstr(err.msg, "another clustersim is writing it"));
	assert_null(b.f);
	/* the first writer's temporary survived the attempt */
	assert_int_equal(count_entries(".busy.csv.clustersim-"), 1);
	assert_int_equal(outfile_commit(&a, &err), 0);
	error_clear(&err);
	assert_int_equal(outfile_open(&b, path, &err), 0);  /* free again */
	outfile_abort(&b);
	assert_int_equal(count_entries(".busy.csv.clustersim-"), 0);
}

/* A child that opens path for writing and dies without a word (as a kill
 * -9 would): its temporary stays, unlocked. Returns the child's pid. */
static pid_t die_while_writing(const char *path)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct outfile o;
		struct cs_error err;
		if (outfile_open(&o, path, &err) < 0)
			_exit(1);
		fputs("half a file", o.f);
		fflush(o.f);
		_exit(0);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return pid;
}

static void test_stale_temporary_removed(void **state)
{
	(void)state;
	char path[128], user_old[192], user_named[192], user_marked[192];
	snprintf(path, sizeof path, "%s/sweep.csv", test_dir());
	/* a killed writer's temporary: provably ours, unlocked */
	pid_t dead = die_while_writing(path);
	assert_int_equal(count_entries(".sweep.csv.clustersim-"), 1);
	/* a user's files that look like temporaries are never ours: the old
	 * pattern, our pattern without our attribute, our pattern with
	 * another name's attribute */
	snprintf(user_old, sizeof user_old, "%s.tmp.abcdef", path);
	write_text(user_old, "keep");
	snprintf(user_named, sizeof user_named, "%s/.sweep.csv.clustersim-%ld-0123456789abcdef.tmp", test_dir(), (long)dead);
	write_text(user_named, "keep");
	snprintf(user_marked, sizeof user_marked, "%s/.sweep.csv.clustersim-%ld-fedcba9876543210.tmp", test_dir(), (long)dead);
	write_text(user_marked, "keep");
	bool xattrs = setxattr(user_marked, "user.clustersim.temporary", "1-0000000000000000", 18, 0) == 0;
	write_out(path, "new\n");
	assert_string_equal(read_text(path), "new\n");
	assert_string_equal(read_text(user_old), "keep");
	assert_int_equal(access(user_marked, F_OK), 0);
	if (xattrs) {
		/* where attributes are kept, a name without ours is not ours, even
		 * when its process is gone */
		assert_int_equal(access(user_named, F_OK), 0);
		assert_int_equal(count_entries(".sweep.csv.clustersim-"), 2);
	}
	unlink(user_named);
	unlink(user_marked);
	unlink(user_old);
	assert_int_equal(count_entries(".sweep.csv.clustersim-"), 0);
}

/* A link to a regular file: the target is replaced, the link stays. */
static void test_link_to_regular_file(void **state)
{
	(void)state;
	char sub[128], real[160], link1[160], link2[160], dangling[160], created[160];
	snprintf(sub, sizeof sub, "%s/sub", test_dir());
	mkdir(sub, 0755);
	snprintf(real, sizeof real, "%s/real.csv", sub);
	snprintf(link1, sizeof link1, "%s/link1.csv", test_dir());
	snprintf(link2, sizeof link2, "%s/link2.csv", test_dir());
	write_text(real, "old\n");
	assert_int_equal(symlink("sub/real.csv", link1), 0);  /* relative */
	assert_int_equal(symlink(link1, link2), 0);           /* a chain */
	write_out(link2, "new\n");
	assert_true(is_link(link1));
	assert_true(is_link(link2));
	assert_string_equal(read_text(real), "new\n");
	/* the temporary was made beside the target, and is gone */
	assert_int_equal(count_in(sub, "."), 0);
	assert_int_equal(count_in(sub, ""), 1);
	/* a dangling link: its target is created, the link stays */
	snprintf(dangling, sizeof dangling, "%s/dangling.csv", test_dir());
	snprintf(created, sizeof created, "%s/created.csv", sub);
	assert_int_equal(symlink("sub/created.csv", dangling), 0);
	write_out(dangling, "made\n");
	assert_true(is_link(dangling));
	assert_string_equal(read_text(created), "made\n");
	/* the journal of a link is beside its target */
	char *journal = outfile_journal_name(link2);
	char want[192];
	snprintf(want, sizeof want, "%s.partial", real);
	assert_non_null(journal);
	assert_string_equal(journal, want);
	free(journal);
}

/* A link to /dev/null or to a fifo is written through and stays a link. */
static void test_link_to_special_file(void **state)
{
	(void)state;
	char null_link[128], fifo[128], fifo_link[128], got[128];
	struct outfile o;
	struct cs_error err;

	snprintf(null_link, sizeof null_link, "%s/null.csv", test_dir());
	assert_int_equal(symlink("/dev/null", null_link), 0);
	write_out(null_link, "gone\n");
	assert_true(is_link(null_link));
	assert_int_equal(count_entries(".null.csv"), 0);
	assert_null(outfile_journal_name(null_link));

	snprintf(fifo, sizeof fifo, "%s/pipe", test_dir());
	snprintf(fifo_link, sizeof fifo_link, "%s/pipe.csv", test_dir());
	snprintf(got, sizeof got, "%s/got.txt", test_dir());
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(symlink("pipe", fifo_link), 0);
	pid_t reader = fork();
	assert_true(reader >= 0);
	if (reader == 0) {  /* cat pipe > got.txt */
		char buf[256];
		int in = open(fifo, O_RDONLY), out = open(got, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		ssize_t n;
		while (in >= 0 && (n = read(in, buf, sizeof buf)) > 0)
			if (write(out, buf, (size_t)n) != n)
				_exit(1);
		_exit(0);
	}
	error_clear(&err);
	assert_int_equal(outfile_open(&o, fifo_link, &err), 0);
	assert_false(outfile_replaces(&o));
	fputs("through the pipe\n", o.f);
	assert_int_equal(outfile_commit(&o, &err), 0);
	int status;
	assert_int_equal(waitpid(reader, &status, 0), reader);
	assert_string_equal(read_text(got), "through the pipe\n");
	assert_true(is_link(fifo_link));
	struct stat st;
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_null(outfile_journal_name(fifo_link));
}

/* /dev/fd/N and /proc/self/fd/N, and a link to one, write through the
 * descriptor: nothing truncated, nothing replaced. */
static void test_descriptor_names(void **state)
{
	(void)state;
	char file[128], name[64], lnk[128];
	const char *const dirs[] = { "/dev/fd", "/proc/self/fd" };

	snprintf(file, sizeof file, "%s/log.txt", test_dir());
	write_text(file, "a");
	int fd = open(file, O_WRONLY | O_APPEND);
	assert_true(fd >= 0);
	for (int i = 0; i < 2; i++) {
		snprintf(name, sizeof name, "%s/%d", dirs[i], fd);
		write_out(name, i == 0 ? "b" : "c");
		assert_null(outfile_journal_name(name));
	}
	snprintf(lnk, sizeof lnk, "%s/fd.csv", test_dir());
	snprintf(name, sizeof name, "/proc/self/fd/%d", fd);
	assert_int_equal(symlink(name, lnk), 0);
	write_out(lnk, "d");
	close(fd);
	assert_true(is_link(lnk));
	assert_string_equal(read_text(file), "abcd");
	assert_int_equal(count_entries(".fd.csv"), 0);
}

/* A child opens path and gets signal sig: it dies of it, its temporary
 * gone. With `own_handler`, the program's own handler stays and the
 * temporary is the program's to remove (it aborts, then exits 0). */
static void signal_while_writing(const char *path, int sig, bool own_handler)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct outfile o;
		struct cs_error err;
		if (own_handler)
			signal(sig, SIG_IGN);
		if (outfile_open(&o, path, &err) < 0)
			_exit(3);
		fputs("rows", o.f);
		kill(getpid(), sig);
		if (!own_handler)
			_exit(4);  /* the signal should have ended it */
		bool left = count_entries(".sig.csv.clustersim-") == 1;
		outfile_abort(&o);
		_exit(left ? 0 : 5);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (own_handler) {
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	} else {
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), sig);
	}
	assert_int_equal(count_entries(".sig.csv"), 0);
	assert_int_equal(count_entries("sig.csv"), 0);
}

static void test_signal_removes_temporary(void **state)
{
	(void)state;
	char path[128];
	snprintf(path, sizeof path, "%s/sig.csv", test_dir());
	signal_while_writing(path, SIGINT, false);
	signal_while_writing(path, SIGTERM, false);
	signal_while_writing(path, SIGHUP, false);
	signal_while_writing(path, SIGTERM, true);
}

/* The journal: visible as FILE.partial from the start, locked, its bytes in
 * the file as soon as checkpointed (a SIGKILL keeps them), renamed to FILE
 * at the commit or kept. */
static void test_journal(void **state)
{
	(void)state;
	char path[128], journal[160];
	struct outfile o, other;
	struct cs_error err;
	char *kept = NULL;

	snprintf(path, sizeof path, "%s/j.csv", test_dir());
	snprintf(journal, sizeof journal, "%s.partial", path);
	error_clear(&err);
	assert_int_equal(outfile_open_journal(&o, path, &err), 0);
	assert_true(o.journal);
	assert_true(outfile_replaces(&o));
	assert_int_equal(access(journal, F_OK), 0);
	assert_int_equal(access(path, F_OK), -1);
	fputs("header\n", o.f);
	assert_int_equal(outfile_checkpoint(&o), 0);
	assert_string_equal(read_text(journal), "header\n");
	/* a second writer is refused while the first holds it */
	assert_int_equal(outfile_open_journal(&other, path, &err), -1);
	assert_non_null(strstr(err.msg, "another clustersim is writing it"));
	fputs("row\n", o.f);
	assert_int_equal(outfile_commit(&o, &err), 0);
	assert_string_equal(read_text(path), "header\nrow\n");
	assert_int_equal(access(journal, F_OK), -1);
	assert_int_equal(count_entries(".j.csv"), 0);

	/* kept: FILE untouched, the journal stays (unlocked) */
	assert_int_equal(outfile_open_journal(&o, path, &err), 0);
	fputs("other\n", o.f);
	assert_int_equal(outfile_keep(&o, &kept, &err), 0);
	assert_string_equal(kept, journal);
	free(kept);
	assert_string_equal(read_text(path), "header\nrow\n");
	assert_string_equal(read_text(journal), "other\n");
	int fd = open(journal, O_RDONLY);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	close(fd);

	/* killed with SIGKILL after a checkpoint: the bytes are in the journal */
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (outfile_open_journal(&o, path, &err) < 0)
			_exit(1);
		fputs("point 0\n", o.f);
		outfile_checkpoint(&o);
		fputs("point 1, unflushed\n", o.f);
		kill(getpid(), SIGKILL);
		_exit(2);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	assert_string_equal(read_text(journal), "point 0\n");
	assert_string_equal(read_text(path), "header\nrow\n");
	assert_int_equal(count_entries(".j.csv"), 0);

	/* given up: the journal is removed */
	assert_int_equal(outfile_open_journal(&o, path, &err), 0);
	outfile_abort(&o);
	assert_int_equal(access(journal, F_OK), -1);
	assert_string_equal(read_text(path), "header\nrow\n");

	/* written through: no journal */
	assert_null(outfile_journal_name("-"));
	assert_null(outfile_journal_name(NULL));
	assert_null(outfile_journal_name("/dev/null"));
	assert_null(outfile_journal_name("/dev/stdout"));
	char *name = outfile_journal_name(path);
	assert_string_equal(name, journal);
	free(name);
}

static void test_output_is_an_input(void **state)
{
	(void)state;
	char in[128], lnk[128], out[128], hard[128];
	struct cs_error err;
	snprintf(in, sizeof in, "%s/scenario.json", test_dir());
	snprintf(lnk, sizeof lnk, "%s/link.json", test_dir());
	snprintf(out, sizeof out, "%s/other.csv", test_dir());
	snprintf(hard, sizeof hard, "%s/hard.json", test_dir());
	write_text(in, "{}");
	assert_int_equal(symlink(in, lnk), 0);
	assert_int_equal(link(in, hard), 0);
	error_clear(&err);
	assert_int_equal(outfile_check_not_input(in, in, "scenario", &err), -1);
	assert_int_equal(err.kind, ERROR_INPUT);
	assert_non_null(strstr(err.msg, "it is the scenario"));
	error_clear(&err);
	assert_int_equal(outfile_check_not_input(lnk, in, "scenario", &err), -1);
	error_clear(&err);
	assert_int_equal(outfile_check_not_input(in, lnk, "scenario", &err), -1);
	error_clear(&err);
	assert_int_equal(outfile_check_not_input(hard, in, "scenario", &err), -1);
	error_clear(&err);
	assert_int_equal(outfile_check_not_input(out, in, "scenario", &err), 0);  /* does not exist yet */
	write_text(out, "x");
	assert_int_equal(outfile_check_not_input(out, in, "scenario", &err), 0);
	assert_int_equal(outfile_check_not_input("-", in, "scenario", &err), 0);
	assert_int_equal(outfile_check_not_input(NULL, in, "scenario", &err), 0);
	assert_int_equal(outfile_check_not_input(out, "-", "scenario", &err), 0);
	assert_false(error_is_set(&err));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commit_replaces_atomically),
		cmocka_unit_test(test_temporary_name),
		cmocka_unit_test(test_second_writer_refused),
		cmocka_unit_test(test_stale_temporary_removed),
		cmocka_unit_test(test_link_to_regular_file),
		cmocka_unit_test(test_link_to_special_file),
		cmocka_unit_test(test_descriptor_names),
		cmocka_unit_test(test_signal_removes_temporary),
		cmocka_unit_test(test_journal),
		cmocka_unit_test(test_output_is_an_input),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
