// SPDX-License-Identifier: GPL-2.0
/*
 * Exports two per-CPU variables, one with EXPORT_PER_CPU_SYMBOL() and one
 * with EXPORT_PER_CPU_SYMBOL_GPL(), for percpu_export_user_test.  Each
 * possible CPU's copy starts at a value that names the variable and the
 * CPU, so that the user can tell it reads the right copy.
 */

#include <linux/cpumask.h>
#include <linux/export.h>
#include <linux/module.h>
#include <linux/percpu.h>

#include "percpu_export_test.h"

DEFINE_PER_CPU(unsigned long, percpu_export_test_plain);
EXPORT_PER_CPU_SYMBOL(percpu_export_test_plain);

DEFINE_PER_CPU(unsigned long, percpu_export_test_gpl);
EXPORT_PER_CPU_SYMBOL_GPL(percpu_export_test_gpl);

/**
 * percpu_export_test_ptr - where this module sees a CPU's copy
 * @gpl: the variable exported GPL-only, or else the other one
 * @cpu: a possible CPU
 *
 * Only for the test, so exported in the PERCPU_EXPORT_TEST namespace,
 * unlike the two variables, which have no namespace.
 *
 * Return: per_cpu_ptr() of the variable for @cpu, computed here, for the
 * user module to compare with its own.
 */
unsigned long *percpu_export_test_ptr(bool gpl, unsigned int cpu)
{
	return gpl ? per_cpu_ptr(&percpu_export_test_gpl, cpu) :
		     per_cpu_ptr(&percpu_export_test_plain, cpu);
}
EXPORT_SYMBOL_NS_GPL(percpu_export_test_ptr, "PERCPU_EXPORT_TEST");

static int __init percpu_export_test_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		per_cpu(percpu_export_test_plain, cpu) =
			PERCPU_EXPORT_TEST_PLAIN_BASE + cpu;
		per_cpu(percpu_export_test_gpl, cpu) =
			PERCPU_EXPORT_TEST_GPL_BASE + cpu;
	}
	return 0;
}
module_init(percpu_export_test_init);

static void __exit percpu_export_test_exit(void)
{
}
module_exit(percpu_export_test_exit);

MODULE_DESCRIPTION("Exports per-CPU variables to percpu_export_user_test");
MODULE_LICENSE("GPL");
