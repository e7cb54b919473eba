// SPDX-License-Identifier: GPL-2.0
/*
 * fork_exit: a user-space load that makes the kernel allocate and free
 * per-CPU memory. One process per online CPU, bound to it, forks children
 * that exit at once, for SECONDS seconds; every fork allocates an
 * mm_struct, whose RSS counters are per-CPU counters. Built static, so a
 * child maps nothing but the one binary.
 * Prints "fork_exit: cpus C seconds S forks_per_second F".
 * Usage: fork_exit [SECONDS]   (default 3)
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Fork and reap children until @seconds have passed; return how many. */
static long fork_loop(double seconds)
{
	double end = now() + seconds;
	long forks = 0;

	while (now() < end) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork_exit: fork");
			exit(1);
		}
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, NULL, 0) != pid) {
			perror("fork_exit: waitpid");
			exit(1);
		}
		forks++;
	}
	return forks;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 3;
	int pipefd[2], cpus = 0, cpu, status;
	long total = 0, forks;
	cpu_set_t online;

	if (seconds <= 0 || pipe(pipefd) ||
	    sched_getaffinity(0, sizeof(online), &online)) {
		fprintf(stderr, "fork_exit: usage: fork_exit [SECONDS > 0]\n");
		return 1;
	}
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		cpu_set_t one;

		if (!CPU_ISSET(cpu, &online))
			continue;
		cpus++;
		if (fork() == 0) {
			CPU_ZERO(&one);
			CPU_SET(cpu, &one);
			if (sched_setaffinity(0, sizeof(one), &one)) {
				perror("fork_exit: sched_setaffinity");
				_exit(1);
			}
			forks = fork_loop(seconds);
			if (write(pipefd[1], &forks, sizeof(forks)) != sizeof(forks))
				_exit(1);
			_exit(0);
		}
	}
	close(pipefd[1]);
	while (read(pipefd[0], &forks, sizeof(forks)) == sizeof(forks))
		total += forks;
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			return 1;
	printf("fork_exit: cpus %d seconds %g forks_per_second %.0f\n",
	       cpus, seconds, total / seconds);
	return 0;
}
