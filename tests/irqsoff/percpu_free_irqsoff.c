// SPDX-License-Identifier: GPL-2.0
/*
 * percpu_free_irqsoff - per-CPU areas for measuring how long free_percpu()
 * keeps interrupts off as the allocator holds more chunks
 * (scripts/measure-free-irqsoff.sh). It only allocates and frees on
 * request, through debugfs (percpu_free_irqsoff/):
 *   fill         write N: allocate N areas of 32 KiB, the largest size, so
 *                that the allocator must create chunks; kept until unload
 *   probe_alloc  write N: allocate N areas of 32 KiB too: too large for the
 *                first chunk's dynamic part and for any per-CPU cache of
 *                small areas, so each free looks its chunk up among the
 *                dynamic ones and frees it under pcpu_lock
 *   probe_free   write N: free the N areas allocated last by probe_alloc,
 *                one free_percpu() each, with tracing on around each
 * User space resets the irqsoff tracer's maximum before each probe_free, so that the maximum then is the longest
 * interrupts-off section while free_percpu() ran: its own, unless an
 * interrupt of the other CPU took longer (the trace's stack tells).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#define FILL_SIZE (32 << 10)

struct area_stack {
	void __percpu **areas;
	unsigned int nr, max;
};

static struct area_stack fill = { .max = 8192 }, probes = { .max = 1024 };
static DEFINE_MUTEX(areas_lock);
static struct dentry *dir;

static int push_areas(struct area_stack *stack, size_t size, unsigned int n)
{
	while (n--) {
		void __percpu *area;

		if (stack->nr == stack->max)
			return -ENOSPC;
		area = __alloc_percpu(size, sizeof(long));
		if (!area)
			return -ENOMEM;
		stack->areas[stack->nr++] = area;
	}
	return 0;
}

static void pop_areas(struct area_stack *stack, unsigned int n, bool traced)
{
	while (n-- && stack->nr) {
		void __percpu *area = stack->areas[--stack->nr];

		if (traced)
			tracing_on();
		free_percpu(area);
		if (traced)
			tracing_off();
	}
}

static int fill_set(void *data, u64 n)
{
	int ret;

	mutex_lock(&areas_lock);
	ret = push_areas(&fill, FILL_SIZE, n);
	mutex_unlock(&areas_lock);
	return ret;
}

static int probe_alloc_set(void *data, u64 n)
{
	int ret;

	mutex_lock(&areas_lock);
	ret = push_areas(&probes, FILL_SIZE, n);
	mutex_unlock(&areas_lock);
	return ret;
}

static int probe_free_set(void *data, u64 n)
{
	/*
	 * tracing_off() stops the ring buffer, not the tracer, which only
	 * writing tracing_on stops: user space leaves that on, and nothing
	 * is recorded here but while free_percpu() runs.
	 */
	tracing_off();
	mutex_lock(&areas_lock);
	pop_areas(&probes, n, true);
	mutex_unlock(&areas_lock);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(fill_fops, NULL, fill_set, "%llu\n");
DEFINE_DEBUGFS_ATTRIBUTE(probe_alloc_fops, NULL, probe_alloc_set, "%llu\n");
DEFINE_DEBUGFS_ATTRIBUTE(probe_free_fops, NULL, probe_free_set, "%llu\n");

static int __init percpu_free_irqsoff_init(void)
{
	fill.areas = kvcalloc(fill.max, sizeof(*fill.areas), GFP_KERNEL);
	probes.areas = kvcalloc(probes.max, sizeof(*probes.areas), GFP_KERNEL);
	if (!fill.areas || !probes.areas) {
		kvfree(fill.areas);
		kvfree(probes.areas);
		return -ENOMEM;
	}
	dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file_unsafe("fill", 0200, dir, NULL, &fill_fops);
	debugfs_create_file_unsafe("probe_alloc", 0200, dir, NULL, &probe_alloc_fops);
	debugfs_create_file_unsafe("probe_free", 0200, dir, NULL, &probe_free_fops);
	return 0;
}
module_init(percpu_free_irqsoff_init);

static void __exit percpu_free_irqsoff_exit(void)
{
	debugfs_remove_recursive(dir);
	pop_areas(&probes, probes.nr, false);
	pop_areas(&fill, fill.nr, false);
	kvfree(fill.areas);
	kvfree(probes.areas);
}
module_exit(percpu_free_irqsoff_exit);

MODULE_DESCRIPTION("Per-CPU areas on request, to measure free_percpu()'s interrupts-off time");
MODULE_LICENSE("GPL");
