// SPDX-License-Identifier: GPL-2.0
/*
 * The init of the CPU-hole guest (scripts/check-cpu-hole.sh): with a CPU
 * that is not possible below nr_cpu_ids (a hole in cpu_possible_mask), ask
 * the kernel for that CPU's per-CPU data the way user space can:
 *
 *  - a BPF program calls bpf_map_lookup_percpu_elem() on a per-CPU array,
 *    a per-CPU hash and an LRU per-CPU hash map, for each possible CPU (it
 *    must read that CPU's value), for the hole and for nr_cpu_ids (both
 *    must give NULL). A pointer for the hole points into memory that is
 *    not the map's, so the program never reads through it;
 *  - perf_event_open(pid=0, cpu=<hole>) must fail with EINVAL. On a NUMA
 *    kernel, one that does not check reads the hole's per_cpu(numa_node):
 *    it runs last, because that read may oops.
 *
 * Static, raw BPF instructions: no libbpf, clang or BTF. Prints KTAP on the
 * console, then powers the guest off.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_CPUS 64
#define TESTS_PER_MAP (possible_count + 2)

static int possible[MAX_CPUS];
static int possible_count, nr_cpu_ids, hole = -1;
static int test_number;

static void __attribute__((format(printf, 2, 3))) result(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d ", ok ? "" : "not ", ++test_number);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void power_off(void)
{
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
}

/* cpu_possible_mask as /sys prints it ("0,2-3"), and the first hole in it. */
static int read_possible_cpus(void)
{
	char list[256], *p = list;
	int fd, n, is_possible[MAX_CPUS] = { 0 };

	fd = open("/sys/devices/system/cpu/possible", O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, list, sizeof(list) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	list[n] = '\0';
	printf("# possible CPUs: %s", list);
	while (*p && *p != '\n') {
		int first = strtol(p, &p, 10), last = first;

		if (*p == '-')
			last = strtol(p + 1, &p, 10);
		for (n = first; n <= last && n < MAX_CPUS; n++)
			is_possible[n] = 1;
		if (*p == ',')
			p++;
	}
	for (n = 0; n < MAX_CPUS; n++) {
		if (!is_possible[n])
			continue;
		possible[possible_count++] = n;
		nr_cpu_ids = n + 1;
	}
	for (n = 0; n < nr_cpu_ids; n++) {
		if (!is_possible[n]) {
			hole = n;
			break;
		}
	}
	return 0;
}

static long bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* A map of one u64 element with key 0, each possible CPU's value 0x1000 + cpu. */
static int create_map(enum bpf_map_type type)
{
	uint64_t values[MAX_CPUS];
	uint32_t key = 0;
	union bpf_attr attr;
	int fd, i;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = sizeof(key);
	attr.value_size = sizeof(uint64_t);
	attr.max_entries = 1;
	fd = bpf(BPF_MAP_CREATE, &attr);
	if (fd < 0)
		return -1;
	/* User space passes a per-CPU value for each possible CPU, in order. */
	for (i = 0; i < possible_count; i++)
		values[i] = 0x1000 + possible[i];
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)values;
	attr.flags = BPF_ANY;
	if (bpf(BPF_MAP_UPDATE_ELEM, &attr) < 0)
		return -1;
	return fd;
}

#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

/*
 * Run a socket filter that looks up key 0 of the map on @cpu and returns
 * 0 for NULL, else the low half of the value when @read_value, else 1.
 * Returns the program's return value, or -1 with errno set.
 */
static long lookup_on_cpu(int map_fd, int cpu, int read_value)
{
	struct bpf_insn prog[] = {
		INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, 0),		/* key = 0 */
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0),	/* r2 = &key */
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4),
		INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, map_fd),
		INSN(0, 0, 0, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, cpu),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_percpu_elem),
		/* NULL: return it (0). */
		INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 1, 0),
		read_value ?
		INSN(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_0, BPF_REG_0, 0, 0) :	/* r0 = value */
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 1),		/* r0 = 1 */
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	unsigned char packet[64] = { 0 };
	char log[4096] = "";
	union bpf_attr attr;
	long ret;
	int prog_fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (uintptr_t)prog;
	attr.insn_cnt = sizeof(prog) / sizeof(prog[0]);
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	prog_fd = bpf(BPF_PROG_LOAD, &attr);
	if (prog_fd < 0) {
		printf("# BPF_PROG_LOAD: %s\n%s", strerror(errno), log);
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	attr.test.data_in = (uintptr_t)packet;
	attr.test.data_size_in = sizeof(packet);
	ret = bpf(BPF_PROG_TEST_RUN, &attr) < 0 ? -1 : (long)attr.test.retval;
	close(prog_fd);
	return ret;
}

static void test_map(const char *name, enum bpf_map_type type)
{
	int fd = create_map(type), i;
	long ret;

	if (fd < 0) {
		for (i = 0; i < TESTS_PER_MAP; i++)
			result(0, "%s: map not created: %s", name, strerror(errno));
		return;
	}
	for (i = 0; i < possible_count; i++) {
		ret = lookup_on_cpu(fd, possible[i], 1);
		result(ret == 0x1000 + possible[i], "%s: lookup on possible CPU %d reads its value (got %#lx)",
		       name, possible[i], ret);
	}
	ret = lookup_on_cpu(fd, hole, 0);
	result(ret == 0, "%s: lookup on CPU %d, not possible, gives NULL (got %s)", name, hole,
	       ret == 0 ? "NULL" : ret == 1 ? "a pointer" : "an error");
	ret = lookup_on_cpu(fd, nr_cpu_ids, 0);
	result(ret == 0, "%s: lookup on CPU %d, nr_cpu_ids, gives NULL (got %s)", name, nr_cpu_ids,
	       ret == 0 ? "NULL" : ret == 1 ? "a pointer" : "an error");
	close(fd);
}

static void test_perf_event_open(void)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.disabled = 1;
	printf("# perf_event_open(pid=0, cpu=%d) next\n", hole);
	fflush(stdout);
	fd = syscall(__NR_perf_event_open, &attr, 0, hole, -1, 0);
	result(fd < 0 && errno == EINVAL, "perf_event_open of this task on CPU %d, not possible, fails with EINVAL (%s)",
	       hole, fd < 0 ? strerror(errno) : "succeeded");
}

int main(void)
{
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	if (read_possible_cpus() < 0 || hole < 0) {
		printf("Bail out! no CPU hole below nr_cpu_ids (%d possible, nr_cpu_ids %d)\n",
		       possible_count, nr_cpu_ids);
		power_off();
		return 1;
	}
	printf("# CPU %d is a hole below nr_cpu_ids %d\n", hole, nr_cpu_ids);
	printf("1..%d\n", 3 * TESTS_PER_MAP + 1);
	test_map("percpu_array", BPF_MAP_TYPE_PERCPU_ARRAY);
	test_map("percpu_hash", BPF_MAP_TYPE_PERCPU_HASH);
	test_map("lru_percpu_hash", BPF_MAP_TYPE_LRU_PERCPU_HASH);
	test_perf_event_open();
	printf("# cpu-hole: done\n");
	power_off();
	return 0;
}
