// SPDX-License-Identifier: GPL-2.0
/*
 * percpu_alloc_bench - what an alloc_percpu()/free_percpu() pair costs.
 *
 * make bench builds this module out of tree against the base kernel and
 * against the series, so both are measured by the same code. On load it
 * measures, for each size of @sizes:
 *  - single pairs (allocate, free) and batches of BATCH pairs (allocate
 *    BATCH areas, then free them all), which keep more areas live at once;
 *  - on one CPU (a thread bound to the first online CPU), then on every
 *    online CPU at once (one bound thread per CPU, started together), where
 *    the CPUs contend for the allocator's locks.
 * Each measurement prints one line,
 *   percpu_alloc_bench: size S batch B cpus C ns_per_pair N
 * N being the mean over the threads of each thread's time per pair. A
 * first run, not reported, populates the chunks. The module then stays
 * loaded, doing nothing, until it is removed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#define BATCH 32

static unsigned int sizes[] = { 8, 64, 256, 2048 };
static unsigned long pairs = 65536;
module_param(pairs, ulong, 0444);
MODULE_PARM_DESC(pairs, "alloc+free pairs per thread and measurement (a multiple of 32)");

struct bench_thread {
	size_t size;
	unsigned int batch;
	struct completion *start;
	struct completion done;
	u64 ns;
	int err;
};

static int bench_thread_fn(void *data)
{
	struct bench_thread *t = data;
	void __percpu *areas[BATCH];
	unsigned long done;
	unsigned int i;
	u64 begin;

	wait_for_completion(t->start);
	begin = ktime_get_ns();
	for (done = 0; done < pairs; done += t->batch) {
		for (i = 0; i < t->batch; i++) {
			areas[i] = __alloc_percpu(t->size, sizeof(long));
			if (!areas[i]) {
				t->err = -ENOMEM;
				break;
			}
		}
		while (i--)
			free_percpu(areas[i]);
		if (t->err)
			break;
		cond_resched();
	}
	t->ns = ktime_get_ns() - begin;
	complete(&t->done);
	/* Stay until kthread_stop(), which reaps the thread. */
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/*
 * Run one measurement on the CPUs of @cpus at once; returns the mean time
 * per pair in ns, or a negative error.
 */
static long bench_run(const struct cpumask *cpus, size_t size, unsigned int batch)
{
	struct task_struct **tasks;
	struct bench_thread *threads;
	DECLARE_COMPLETION_ONSTACK(start);
	unsigned int n = 0, i, cpu;
	long ret = 0;
	u64 sum = 0;

	threads = kcalloc(nr_cpu_ids, sizeof(*threads), GFP_KERNEL);
	tasks = kcalloc(nr_cpu_ids, sizeof(*tasks), GFP_KERNEL);
	if (!threads || !tasks) {
		ret = -ENOMEM;
		goto out;
	}
	for_each_cpu(cpu, cpus) {
		struct bench_thread *t = &threads[n];

		t->size = size;
		t->batch = batch;
		t->start = &start;
		init_completion(&t->done);
		tasks[n] = kthread_create_on_cpu(bench_thread_fn, t, cpu, "pcpu_bench/%u");
		if (IS_ERR(tasks[n])) {
			ret = PTR_ERR(tasks[n]);
			break;
		}
		wake_up_process(tasks[n]);
		n++;
	}
	complete_all(&start);
	for (i = 0; i < n; i++) {
		wait_for_completion(&threads[i].done);
		kthread_stop(tasks[i]);
		if (threads[i].err)
			ret = threads[i].err;
		sum += div_u64(threads[i].ns, pairs);
	}
	if (!ret && n)
		ret = div_u64(sum, n);
out:
	kfree(tasks);
	kfree(threads);
	return ret;
}

static int __init percpu_alloc_bench_init(void)
{
	static const unsigned int batches[] = { 1, BATCH };
	unsigned int s, b, all;
	long ns;

	if (!pairs || pairs % BATCH) {
		pr_err("pairs=%lu is not a positive multiple of %d\n", pairs, BATCH);
		return -EINVAL;
	}
	/* A first run, not reported, populates the chunks the others use. */
	ns = bench_run(cpu_online_mask, sizes[ARRAY_SIZE(sizes) - 1], BATCH);
	if (ns < 0)
		return ns;
	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		for (all = 0; all <= 1; all++) {
			const struct cpumask *cpus = all ? cpu_online_mask :
				cpumask_of(cpumask_first(cpu_online_mask));

			for (b = 0; b < ARRAY_SIZE(batches); b++) {
				ns = bench_run(cpus, sizes[s], batches[b]);
				if (ns < 0) {
					pr_err("size %u batch %u: error %ld\n",
					       sizes[s], batches[b], ns);
					return ns;
				}
				pr_info("size %u batch %u cpus %u ns_per_pair %ld\n",
					sizes[s], batches[b], cpumask_weight(cpus), ns);
			}
		}
	}
	return 0;
}

static void __exit percpu_alloc_bench_exit(void)
{
}

module_init(percpu_alloc_bench_init);
module_exit(percpu_alloc_bench_exit);
MODULE_DESCRIPTION("Cost of alloc_percpu()/free_percpu() pairs, on one CPU and on all");
MODULE_LICENSE("GPL");
