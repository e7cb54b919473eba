// SPDX-License-Identifier: GPL-2.0
/*
 * percpu_load: user-space loads that make the kernel allocate and free
 * per-CPU memory, one process per online CPU, bound to it, each looping
 * for SECONDS seconds. Built static, so that a child maps nothing but the
 * one binary (as Mateusz Guzik's static-doexec does).
 *
 *   fork-exit  fork a child that exits at once: one mm_struct per fork;
 *   fork-exec  fork a child that execs this binary, which exits at once:
 *              two mm_structs per loop (the fork's, then the exec's);
 *   netns      unshare(CLONE_NEWNET): a new network namespace each time,
 *              the previous one dropped (its teardown is deferred);
 *   cgroup     mkdir and rmdir a child of DIR (a cgroup2 directory with
 *              the memory controller on: each memory cgroup allocates
 *              per-CPU statistics).
 *
 * Prints "percpu_load: LOAD cpus C seconds S per_second P loops N".
 * SECONDS 0 starts and ends the workers without a loop: what starting
 * them costs, for counts taken around a run to subtract.
 * Usage: percpu_load LOAD [SECONDS [DIR]]   (default 3 seconds)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What a child of fork-exec runs instead of a load. */
#define EXITING_CHILD	"exit-at-once"

static const char *self, *cgroup_dir;
static int this_cpu;

static void die(const char *what)
{
	fprintf(stderr, "percpu_load: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void reap(pid_t pid)
{
	int status;

	if (pid < 0)
		die("fork");
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "percpu_load: a child failed\n");
		exit(1);
	}
}

static void fork_exit_once(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	reap(pid);
}

static void fork_exec_once(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		execl(self, self, EXITING_CHILD, (char *)NULL);
		fprintf(stderr, "percpu_load: exec %s: %s\n", self, strerror(errno));
		_exit(127);
	}
	reap(pid);
}

static void netns_once(void)
{
	if (unshare(CLONE_NEWNET))
		die("unshare(CLONE_NEWNET)");
}

static void cgroup_once(void)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/percpu_load.%d", cgroup_dir, this_cpu);
	if (mkdir(path, 0755))
		die(path);
	if (rmdir(path))
		die(path);
}

static const struct load {
	const char *name;
	void (*once)(void);
} loads[] = {
	{ "fork-exit", fork_exit_once },
	{ "fork-exec", fork_exec_once },
	{ "netns", netns_once },
	{ "cgroup", cgroup_once },
};

/* Run @load until @seconds have passed; return how many times. */
static long load_loop(const struct load *load, double seconds)
{
	double end = now() + seconds;
	long n = 0;

	while (now() < end) {
		load->once();
		n++;
	}
	return n;
}

int main(int argc, char **argv)
{
	const struct load *load = NULL;
	int pipefd[2], cpus = 0, cpu, status;
	long total = 0, n;
	cpu_set_t online;
	double seconds;
	size_t i;

	if (argc > 1 && !strcmp(argv[1], EXITING_CHILD))
		return 0;
	for (i = 0; argc > 1 && i < sizeof(loads) / sizeof(loads[0]); i++)
		if (!strcmp(argv[1], loads[i].name))
			load = &loads[i];
	seconds = argc > 2 ? atof(argv[2]) : 3;
	cgroup_dir = argc > 3 ? argv[3] : NULL;
	/* The binary itself, however it was started. */
	self = "/proc/self/exe";
	if (!load || seconds < 0 || (load->once == cgroup_once && !cgroup_dir)) {
		fprintf(stderr, "usage: percpu_load fork-exit|fork-exec|netns|cgroup [SECONDS >= 0 [CGROUP-DIR]]\n");
		return 1;
	}
	if (pipe(pipefd) || sched_getaffinity(0, sizeof(online), &online))
		die("setup");
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		cpu_set_t one;
		pid_t pid;

		if (!CPU_ISSET(cpu, &online))
			continue;
		cpus++;
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			CPU_ZERO(&one);
			CPU_SET(cpu, &one);
			if (sched_setaffinity(0, sizeof(one), &one))
				die("sched_setaffinity");
			this_cpu = cpu;
			n = load_loop(load, seconds);
			if (write(pipefd[1], &n, sizeof(n)) != sizeof(n))
				_exit(1);
			_exit(0);
		}
	}
	close(pipefd[1]);
	while (read(pipefd[0], &n, sizeof(n)) == sizeof(n))
		total += n;
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			return 1;
	printf("percpu_load: %s cpus %d seconds %g per_second %.0f loops %ld\n",
	       load->name, cpus, seconds, seconds > 0 ? total / seconds : 0,
	       total);
	return 0;
}
