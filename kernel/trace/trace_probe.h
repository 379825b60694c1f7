/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the rest of the tracing code asks of the probe event tracers: the
 * one-off kprobe and uprobe events perf's PMUs make (trace_event_perf.c),
 * and what BPF needs to know of a kprobe event (bpf_trace.c).
 *
 * The probe events' own layers have their own headers: the definition
 * parser (probe_parse.h), fetch programs (probe_fetch.h), the event object
 * (probe_event.h) and the kernel behind the parser (probe_kenv.h).
 */
#ifndef _TRACE_PROBE_H
#define _TRACE_PROBE_H

#include <linux/types.h>

struct trace_event_call;

/**
 * struct uprobe_dispatch_data - what a uprobe event's hit leaves in
 *	current->utask->vaddr while its handler runs, for BPF's
 *	bpf_get_func_ip()
 * @tu: the uprobe event's probe
 * @bp_addr: the probed address; for a return probe, the function's
 */
struct uprobe_dispatch_data {
	void *tu;
	unsigned long bp_addr;
};

/* BPF (bpf_trace.c) asks these of kprobe events; without them, no */
#ifdef CONFIG_KPROBE_EVENTS
bool trace_kprobe_on_func_entry(struct trace_event_call *call);
bool trace_kprobe_error_injectable(struct trace_event_call *call);
#else
#define trace_kprobe_on_func_entry(call)	((void)(call), false)
#define trace_kprobe_error_injectable(call)	((void)(call), false)
#endif

#ifdef CONFIG_PERF_EVENTS
struct trace_event_call *create_local_trace_kprobe(char *func, void *addr,
						   unsigned long offs,
						   bool is_return);
void destroy_local_trace_kprobe(struct trace_event_call *call);

struct trace_event_call *create_local_trace_uprobe(char *name,
						   unsigned long offs,
						   unsigned long ref_ctr_offset,
						   bool is_return);
void destroy_local_trace_uprobe(struct trace_event_call *call);
#endif

#endif /* _TRACE_PROBE_H */
