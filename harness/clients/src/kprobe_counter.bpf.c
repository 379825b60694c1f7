// SPDX-License-Identifier: GPL-2.0
/*
 * Count vfs_read() entries (slot 0) and returns (slot 1), and the entries
 * whose third argument, the count, is READ_COUNT (slot 2): libbpf_client
 * reads with that count, so slot 2 shows the program read the argument
 * register, whichever way the kprobe was taken.  ARG3_OFFSET is the
 * offset of that register in the arch's struct pt_regs (from the build).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 3);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

static __always_inline void bump(__u32 key)
{
	__u64 *v = bpf_map_lookup_elem(&counts, &key);

	if (v)
		__sync_fetch_and_add(v, 1);
}

#define READ_COUNT 64

SEC("kprobe/vfs_read")
int on_entry(void *ctx)
{
	bump(0);
	if (*(unsigned long *)((char *)ctx + ARG3_OFFSET) == READ_COUNT)
		bump(2);
	return 0;
}

SEC("kretprobe/vfs_read")
int on_return(void *ctx)
{
	bump(1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
