/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event core (trace_events.c) brackets a group enable or disable with
 * these: probe events whose probes can be armed many at once wait for the
 * end (probe_event.c).  Called under event_mutex.
 */
#ifndef _TRACE_PROBE_BATCH_H
#define _TRACE_PROBE_BATCH_H

#ifdef CONFIG_PROBE_EVENTS
void trace_probe_batch_begin(void);
int trace_probe_batch_end(void);
#else
static inline void trace_probe_batch_begin(void)
{
}

static inline int trace_probe_batch_end(void)
{
	return 0;
}
#endif

#endif /* _TRACE_PROBE_BATCH_H */
