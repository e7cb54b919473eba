// SPDX-License-Identifier: MIT
/*
 * An out-of-tree module under a licence that is not GPL-compatible, which
 * reads one of percpu_export_test's per-CPU variables: the plain one, or
 * with PERCPU_EXPORT_GPL defined the GPL-only one. modpost must refuse the
 * second (scripts/check-export-license.sh).
 */
#include <linux/module.h>
#include <linux/percpu.h>

#ifdef PERCPU_EXPORT_GPL
#define percpu_export_variable percpu_export_test_gpl
#else
#define percpu_export_variable percpu_export_test_plain
#endif

DECLARE_PER_CPU(unsigned long, percpu_export_variable);

static int __init percpu_export_nongpl_init(void)
{
	pr_info("CPU copy: %lu\n", this_cpu_read(percpu_export_variable));
	return 0;
}
module_init(percpu_export_nongpl_init);

MODULE_DESCRIPTION("Not GPL-compatible user of exported per-CPU variables");
MODULE_LICENSE("Proprietary");
