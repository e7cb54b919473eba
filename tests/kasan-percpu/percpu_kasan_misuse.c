// SPDX-License-Identifier: GPL-2.0
/*
 * percpu_kasan_misuse - four misuses of per-CPU memory, for make
 * test-extra's comparison of one KASAN kernel with and without the series
 * (scripts/check-kasan-vs-base.sh builds this module against both):
 *  - a read of this CPU's copy of an area after free_percpu();
 *  - a write to another CPU's copy of an area after free_percpu();
 *  - a one-byte write past the end of a 13-byte area;
 *  - given static_copy=, a read of a CPU's copy of percpu_kasan_static's
 *    static per-CPU variable after that module was unloaded.
 * Each is done in a function of its own, whose name KASAN's report is to
 * give. The write after free puts back what it reads, and the overflow
 * writes a zero inside the allocator's own rounding (13 bytes take 16),
 * so that the kernel that does not catch them is not corrupted either;
 * the freed areas are ones this module just freed, and the unloaded
 * module's area is only read. The module prints one line per misuse,
 * then "done", and stays loaded.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/smp.h>

static noinline u64 percpu_read_after_free(void)
{
	u64 __percpu *area = alloc_percpu(u64);
	u64 *copy;

	if (!area)
		return 0;
	copy = per_cpu_ptr(area, raw_smp_processor_id());
	OPTIMIZER_HIDE_VAR(copy);
	free_percpu(area);
	return READ_ONCE(*copy);
}

static noinline void percpu_write_after_free_other_cpu(unsigned int cpu)
{
	u64 __percpu *area = alloc_percpu(u64);
	u64 *copy;

	if (!area)
		return;
	copy = per_cpu_ptr(area, cpu);
	OPTIMIZER_HIDE_VAR(copy);
	free_percpu(area);
	WRITE_ONCE(*copy, READ_ONCE_NOCHECK(*copy));
}

static noinline void percpu_write_past_end(void)
{
	char __percpu *area = __alloc_percpu(13, 1);
	char *copy;

	if (!area)
		return;
	copy = per_cpu_ptr(area, raw_smp_processor_id());
	OPTIMIZER_HIDE_VAR(copy);
	/* Byte 13 is the allocator's rounding, zeroed and never read. */
	WRITE_ONCE(copy[13], 0);
	free_percpu(area);
}

static unsigned long static_copy;
module_param(static_copy, ulong, 0);
MODULE_PARM_DESC(static_copy, "percpu_kasan_static's copy parameter, read before its unload");
static unsigned int static_cpu;
module_param(static_cpu, uint, 0);
MODULE_PARM_DESC(static_cpu, "percpu_kasan_static's copy_cpu parameter");

static noinline u64 percpu_read_static_after_unload(void)
{
	u64 *copy = (u64 *)static_copy;

	return READ_ONCE(*copy);
}

static int __init percpu_kasan_misuse_init(void)
{
	unsigned int this_cpu = get_cpu();
	unsigned int other = cpumask_any_but(cpu_possible_mask, this_cpu);

	put_cpu();
	if (other >= nr_cpu_ids)
		other = this_cpu;

	pr_info("read after free, CPU %u's copy\n", this_cpu);
	percpu_read_after_free();
	pr_info("write after free, CPU %u's copy\n", other);
	percpu_write_after_free_other_cpu(other);
	pr_info("one byte past a 13-byte area\n");
	percpu_write_past_end();
	if (static_copy) {
		pr_info("read of an unloaded module's static, CPU %u's copy\n",
			static_cpu);
		percpu_read_static_after_unload();
	}
	pr_info("done\n");
	return 0;
}

static void __exit percpu_kasan_misuse_exit(void)
{
}

module_init(percpu_kasan_misuse_init);
module_exit(percpu_kasan_misuse_exit);
MODULE_DESCRIPTION("Misuses of per-CPU memory that KASAN is to report");
MODULE_LICENSE("GPL");
