// SPDX-License-Identifier: GPL-2.0
/*
 * percpu_kasan_static - a module with a static per-CPU variable, for
 * percpu_kasan_misuse's read of it after the module is unloaded: the
 * module loader allocates a module's static per-CPU variables as one area
 * of the reserved chunk and frees it at unload. The address of this CPU's
 * copy of the variable, and the CPU, are read-only parameters that the
 * guest's script reads before it unloads the module.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/smp.h>

static DEFINE_PER_CPU(u64, percpu_kasan_static_var);

static unsigned long copy;
module_param(copy, ulong, 0400);
MODULE_PARM_DESC(copy, "address of CPU copy_cpu's copy of the variable");
static unsigned int copy_cpu;
module_param(copy_cpu, uint, 0400);
MODULE_PARM_DESC(copy_cpu, "the CPU whose copy copy is");

static int __init percpu_kasan_static_init(void)
{
	copy_cpu = get_cpu();
	put_cpu();
	copy = (unsigned long)per_cpu_ptr(&percpu_kasan_static_var, copy_cpu);
	WRITE_ONCE(*(u64 *)copy, 1);
	return 0;
}

static void __exit percpu_kasan_static_exit(void)
{
}

module_init(percpu_kasan_static_init);
module_exit(percpu_kasan_static_exit);
MODULE_DESCRIPTION("A static per-CPU variable to be read after unload");
MODULE_LICENSE("GPL");
