/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helper programs run from tests; see child.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "child.h"

extern char **environ;

/* Length of the NAME part of "NAME=VALUE" or "NAME". */
static size_t env_name_len(const char *s)
{
	const char *eq = strchr(s, '=');

	return eq ? (size_t) (eq - s) : strlen(s);
}

/* Is environment entry @entry overridden by one of @env? */
static int env_overridden(const char *entry, const char *const env[])
{
	size_t n = env_name_len(entry);
	size_t i;

	for (i = 0; env && env[i]; i++)
		if (env_name_len(env[i]) == n && strncmp(entry, env[i], n) == 0)
			return 1;
	return 0;
}

static char **child_environment(const char *const env[])
{
	size_t n = 0, extra = 0, i, k = 0;
	char **envp;

	while (environ[n])
		n++;
	while (env && env[extra])
		extra++;
	envp = calloc(n + extra + 1, sizeof(*envp));
	ck_assert_ptr_nonnull(envp);
	for (i = 0; i < n; i++)
		if (!env_overridden(environ[i], env))
			envp[k++] = environ[i];
	for (i = 0; i < extra; i++)
		if (strchr(env[i], '='))
			envp[k++] = (char *) env[i];
	envp[k] = NULL;
	return envp;
}

struct capture {
	int fd;
	char *buf;
	size_t len, cap;
};

/* Read what is available on @c->fd; returns 0 at end of file. */
static int capture_some(struct capture *c)
{
	ssize_t got;

	if (c->cap - c->len < 4096) {
		c->cap = c->cap * 2 + 4096;
		c->buf = realloc(c->buf, c->cap);
		ck_assert_ptr_nonnull(c->buf);
	}
	got = read(c->fd, c->buf + c->len, c->cap - c->len - 1);
	if (got < 0) {
		ck_assert_msg(errno == EINTR || errno == EAGAIN,
			      "read from helper: %s", strerror(errno));
		return 1;
	}
	c->len += (size_t) got;
	c->buf[c->len] = '\0';
	return got != 0;
}

void harness_program_path(const char *name, char *path, size_t size)
{
	char exe[PATH_MAX];
	ssize_t r;

	r = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ck_assert_msg(r > 0, "readlink(/proc/self/exe): %s", strerror(errno));
	exe[r] = '\0';
	snprintf(path, size, "%s/%s", dirname(exe), name);
	ck_assert_msg(access(path, X_OK) == 0,
		      "program %s is missing (it is built next to this test)",
		      path);
}

pid_t harness_start_program(const char *path, const char *const argv[],
			    int *out)
{
	pid_t parent = getpid(), pid;
	int pipefd[2];

	fflush(NULL);
	ck_assert_int_eq(pipe2(pipefd, O_CLOEXEC), 0);
	pid = fork();
	ck_assert_msg(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* The parent died before prctl(): nobody would kill us. */
		if (getppid() != parent)
			_exit(127);
		dup2(pipefd[1], STDOUT_FILENO);
		dup2(pipefd[1], STDERR_FILENO);
		execv(path, (char *const *) argv);
		_exit(127);
	}
	close(pipefd[1]);
	*out = pipefd[0];
	return pid;
}

void harness_run_child(struct harness_child *c, const char *name,
		       const char *const args[], const char *const env[])
{
	char path[PATH_MAX + 64];
	char *argv[16], **envp;
	struct capture cap[2] = { { .fd = -1 }, { .fd = -1 } };
	posix_spawn_file_actions_t fa;
	int outp[2], errp[2], ret, open_fds = 2, i;
	size_t n;
	pid_t pid;

	harness_program_path(name, path, sizeof(path));
	argv[0] = path;
	for (n = 0; args && args[n]; n++) {
		ck_assert_uint_lt(n + 2, sizeof(argv) / sizeof(argv[0]));
		argv[n + 1] = (char *) args[n];
	}
	argv[n + 1] = NULL;
	envp = child_environment(env);

	ck_assert_int_eq(pipe2(outp, O_CLOEXEC), 0);
	ck_assert_int_eq(pipe2(errp, O_CLOEXEC), 0);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, outp[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, errp[1], STDERR_FILENO);
	ret = posix_spawn(&pid, path, &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	close(outp[1]);
	close(errp[1]);
	free(envp);
	ck_assert_msg(ret == 0, "posix_spawn(%s): %s", path, strerror(ret));

	cap[0].fd = outp[0];
	cap[1].fd = errp[0];
	while (open_fds) {
		struct pollfd pfd[2];

		for (i = 0; i < 2; i++) {
			pfd[i].fd = cap[i].fd;
			pfd[i].events = POLLIN;
			pfd[i].revents = 0;
		}
		if (poll(pfd, 2, -1) < 0) {
			ck_assert_int_eq(errno, EINTR);
			continue;
		}
		for (i = 0; i < 2; i++) {
			if (cap[i].fd < 0 || !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (!capture_some(&cap[i])) {
				close(cap[i].fd);
				cap[i].fd = -1;	/* poll() ignores negative fds */
				open_fds--;
			}
		}
	}
	while (waitpid(pid, &c->status, 0) < 0)
		ck_assert_int_eq(errno, EINTR);
	for (i = 0; i < 2; i++)
		if (!cap[i].buf)
			cap[i].buf = calloc(1, 1);
	c->out = cap[0].buf;
	c->err = cap[1].buf;
}

void harness_child_free(struct harness_child *c)
{
	free(c->out);
	free(c->err);
	c->out = c->err = NULL;
}

size_t harness_count(const char *haystack, const char *needle)
{
	size_t n = 0, len = strlen(needle);

	while (len && (haystack = strstr(haystack, needle)) != NULL) {
		n++;
		haystack += len;
	}
	return n;
}
