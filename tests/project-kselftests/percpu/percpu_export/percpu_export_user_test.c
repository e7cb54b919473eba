// SPDX-License-Identifier: GPL-2.0
/*
 * Uses the per-CPU variables percpu_export_test exports, one plain and one
 * GPL-only, for the project's percpu_export.sh: a module reaches another
 * module's per-CPU variable through a symbol that is an offset, not an
 * address, and this checks that per_cpu_ptr() and this_cpu_*() here land
 * on the copies the exporting module sees.  It reports how many copies it
 * checked and how many were wrong, in one line the script judges; the
 * load also fails unless all were right.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cleanup.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/smp.h>

#include "percpu_export_test.h"

static atomic_t pexu_errors = ATOMIC_INIT(0);
static atomic_t pexu_checked = ATOMIC_INIT(0);

static void pexu_check_copy(const char *name, unsigned long *mine,
			    unsigned long *theirs, unsigned long expected,
			    unsigned int cpu)
{
	atomic_inc(&pexu_checked);
	if (mine != theirs) {
		pr_err("%s of CPU %u is at %p here, at %p in the exporter\n",
		       name, cpu, mine, theirs);
		atomic_inc(&pexu_errors);
	} else if (*mine != expected) {
		pr_err("%s of CPU %u is %#lx, expected %#lx\n",
		       name, cpu, *mine, expected);
		atomic_inc(&pexu_errors);
	}
}

/* On each online CPU: this CPU's copies, through this_cpu_*(). */
static void pexu_bump_this_cpu(void *unused)
{
	unsigned int cpu = smp_processor_id();

	if (this_cpu_ptr(&percpu_export_test_plain) !=
	    percpu_export_test_ptr(false, cpu) ||
	    this_cpu_ptr(&percpu_export_test_gpl) !=
	    percpu_export_test_ptr(true, cpu)) {
		pr_err("this_cpu_ptr() on CPU %u is not the exporter's copy\n",
		       cpu);
		atomic_inc(&pexu_errors);
		return;
	}
	this_cpu_inc(percpu_export_test_plain);
	this_cpu_add(percpu_export_test_gpl, 2);
}

/* Every possible CPU's copies; the online ones were bumped by the bumps. */
static void pexu_check_all(unsigned long plain_bump, unsigned long gpl_bump)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		bool bumped = cpu_online(cpu);

		pexu_check_copy("percpu_export_test_plain",
				per_cpu_ptr(&percpu_export_test_plain, cpu),
				percpu_export_test_ptr(false, cpu),
				PERCPU_EXPORT_TEST_PLAIN_BASE + cpu +
				(bumped ? plain_bump : 0), cpu);
		pexu_check_copy("percpu_export_test_gpl",
				per_cpu_ptr(&percpu_export_test_gpl, cpu),
				percpu_export_test_ptr(true, cpu),
				PERCPU_EXPORT_TEST_GPL_BASE + cpu +
				(bumped ? gpl_bump : 0), cpu);
	}
}

static int __init percpu_export_user_test_init(void)
{
	int errors;

	/* No CPU may come or go between the bumps and the checks. */
	scoped_guard(cpus_read_lock) {
		pexu_check_all(0, 0);
		on_each_cpu(pexu_bump_this_cpu, NULL, 1);
		pexu_check_all(1, 2);
	}

	errors = atomic_read(&pexu_errors);
	pr_info("result: %d copies checked on %u possible CPUs, %d wrong\n",
		atomic_read(&pexu_checked), num_possible_cpus(), errors);
	return errors ? -EIO : 0;
}
module_init(percpu_export_user_test_init);

static void __exit percpu_export_user_test_exit(void)
{
}
module_exit(percpu_export_user_test_exit);

MODULE_DESCRIPTION("Uses another module's per-CPU variables");
MODULE_IMPORT_NS("PERCPU_EXPORT_TEST");
MODULE_LICENSE("GPL");
