/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What percpu_export_test exports to percpu_export_user_test.
 */
#ifndef _PERCPU_EXPORT_TEST_H
#define _PERCPU_EXPORT_TEST_H

#include <linux/percpu-defs.h>
#include <linux/types.h>

/* CPU n's copies start at these plus n. */
#define PERCPU_EXPORT_TEST_PLAIN_BASE	0x5e7c0000UL
#define PERCPU_EXPORT_TEST_GPL_BASE	0x6e7c0000UL

DECLARE_PER_CPU(unsigned long, percpu_export_test_plain);
DECLARE_PER_CPU(unsigned long, percpu_export_test_gpl);

unsigned long *percpu_export_test_ptr(bool gpl, unsigned int cpu);

#endif /* _PERCPU_EXPORT_TEST_H */
