// SPDX-License-Identifier: GPL-2.0
/* Count vfs_read() entries (slot 0) and returns (slot 1). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

static __always_inline void bump(__u32 key)
{
	__u64 *v = bpf_map_lookup_elem(&counts, &key);

	if (v)
		__sync_fetch_and_add(v, 1);
}

SEC("kprobe/vfs_read")
int on_entry(void *ctx)
{
	bump(0);
	return 0;
}

SEC("kretprobe/vfs_read")
int on_return(void *ctx)
{
	bump(1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
