// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of how a hit of a kernel hardware breakpoint or watchpoint
 * is stepped over.  The exception comes before the instruction, or the
 * access, completes; the kernel disables the breakpoints, steps that one
 * instruction and enables them again.  Each case runs with the
 * breakpoint on every CPU, so it is the test's own access that traps,
 * whichever CPU the test runs on.
 */
#include <kunit/test.h>
#include <linux/compiler.h>
#include <linux/cpu.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include <asm/set_memory.h>

#define HBP_ACCESSES	8

static atomic_t hbp_hits;
static u64 hbp_watched;

static noinline int hbp_stepped_function(int x)
{
	barrier();
	return x + 1;
}

/* An overflow handler of the breakpoint's own, not perf's default one */
static void hbp_count(struct perf_event *bp, struct perf_sample_data *data,
		      struct pt_regs *regs)
{
	atomic_inc(&hbp_hits);
}

static struct perf_event * __percpu *hbp_register(struct kunit *test,
						  unsigned long addr, int type,
						  int len,
						  perf_overflow_handler_t fn)
{
	struct perf_event * __percpu *bp;
	struct perf_event_attr attr;

	hw_breakpoint_init(&attr);
	attr.bp_addr = addr;
	attr.bp_type = type;
	attr.bp_len = len;
	bp = register_wide_hw_breakpoint(&attr, fn, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR((void __force *)bp),
			       "register_wide_hw_breakpoint(): %ld",
			       PTR_ERR((void __force *)bp));
	atomic_set(&hbp_hits, 0);
	return bp;
}

/* Every write of the data is reported, and goes on */
static void hbp_watchpoint_own_handler(struct kunit *test)
{
	struct perf_event * __percpu *bp;
	int i;

	bp = hbp_register(test, (unsigned long)&hbp_watched, HW_BREAKPOINT_W,
			  HW_BREAKPOINT_LEN_8, hbp_count);
	for (i = 0; i < HBP_ACCESSES; i++)
		WRITE_ONCE(hbp_watched, i);
	unregister_wide_hw_breakpoint(bp);
	KUNIT_EXPECT_EQ(test, READ_ONCE(hbp_watched), HBP_ACCESSES - 1);
	KUNIT_EXPECT_GE(test, atomic_read(&hbp_hits), HBP_ACCESSES);
}

/* Every call of the function is reported, and goes on */
static void hbp_breakpoint_own_handler(struct kunit *test)
{
	int (*fn)(int) = hbp_stepped_function;
	struct perf_event * __percpu *bp;
	int i, sum = 0;

	OPTIMIZER_HIDE_VAR(fn);
	bp = hbp_register(test, (unsigned long)fn, HW_BREAKPOINT_X,
			  HW_BREAKPOINT_LEN_4, hbp_count);
	for (i = 0; i < HBP_ACCESSES; i++)
		sum = fn(sum);
	unregister_wide_hw_breakpoint(bp);
	KUNIT_EXPECT_EQ(test, sum, HBP_ACCESSES);
	KUNIT_EXPECT_GE(test, atomic_read(&hbp_hits), HBP_ACCESSES);
}

/* Takes the page of the watched data away before the access is stepped */
static void hbp_unmap(struct perf_event *bp, struct perf_sample_data *data,
		      struct pt_regs *regs)
{
	unsigned long addr = counter_arch_bp(bp)->address;

	if (atomic_inc_return(&hbp_hits) == 1)
		set_memory_valid(addr & PAGE_MASK, 1, 0);
}

/*
 * The stepped access faults: the step ends in the fault's handler, and
 * the accessing context resumes at its fixup with the interrupts it had.
 */
static void hbp_watchpoint_step_faults(struct kunit *test)
{
	struct perf_event * __percpu *bp;
	bool masked;
	u64 *page;
	long ret;
	u64 val;

	page = vmalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, page);
	bp = hbp_register(test, (unsigned long)page, HW_BREAKPOINT_R,
			  HW_BREAKPOINT_LEN_8, hbp_unmap);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	ret = copy_from_kernel_nofault(&val, page, sizeof(val));
	masked = irqs_disabled();
	if (masked)
		local_irq_enable();
	unregister_wide_hw_breakpoint(bp);
	set_memory_valid((unsigned long)page, 1, 1);
	vfree(page);
	KUNIT_EXPECT_EQ(test, ret, -EFAULT);
	KUNIT_EXPECT_EQ(test, atomic_read(&hbp_hits), 1);
	KUNIT_EXPECT_FALSE_MSG(test, masked,
			       "interrupts left masked after the fault");
}

static atomic_t hbp_after_hits;
static u64 hbp_after_seen;

/* What the watched data holds when an after-access hit is reported */
static void hbp_after_count(struct perf_event *bp,
			    struct perf_sample_data *data, struct pt_regs *regs)
{
	WRITE_ONCE(hbp_after_seen, READ_ONCE(hbp_watched));
	atomic_inc(&hbp_after_hits);
}

/* A watchpoint on every CPU that reports after the access */
static struct perf_event * __percpu *hbp_register_after(struct kunit *test,
							unsigned long addr,
							int type)
{
	struct perf_event * __percpu *bp;
	struct perf_event_attr attr;
	int cpu;

	hw_breakpoint_init(&attr);
	attr.bp_addr = addr;
	attr.bp_type = type;
	attr.bp_len = HW_BREAKPOINT_LEN_8;
	attr.disabled = 1;
	bp = register_wide_hw_breakpoint(&attr, hbp_after_count, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR((void __force *)bp),
			       "register_wide_hw_breakpoint(): %ld",
			       PTR_ERR((void __force *)bp));
	atomic_set(&hbp_after_hits, 0);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		counter_arch_bp(per_cpu(*bp, cpu))->after_access = true;
		perf_event_enable(per_cpu(*bp, cpu));
	}
	cpus_read_unlock();
	return bp;
}

/* The hit is reported once the write is made: the handler sees its value */
static void hbp_after_access_sees_write(struct kunit *test)
{
	struct perf_event * __percpu *bp;

	WRITE_ONCE(hbp_watched, 1);
	bp = hbp_register_after(test, (unsigned long)&hbp_watched,
				HW_BREAKPOINT_W);
	WRITE_ONCE(hbp_watched, 4321);
	unregister_wide_hw_breakpoint(bp);
	KUNIT_EXPECT_EQ(test, atomic_read(&hbp_after_hits), 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(hbp_after_seen), 4321);
}

/*
 * The access faults when it is stepped (a plain watchpoint on the same
 * data takes its page away when it traps): no access was made, so the
 * after-access watchpoint reports nothing, and the accessing context
 * resumes at its fixup with the interrupts it had.
 */
static void hbp_after_access_step_faults(struct kunit *test)
{
	struct perf_event * __percpu *plain, * __percpu *after;
	bool masked;
	u64 *page;
	long ret;
	u64 val;

	page = vmalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, page);
	plain = hbp_register(test, (unsigned long)page, HW_BREAKPOINT_R,
			     HW_BREAKPOINT_LEN_8, hbp_unmap);
	after = hbp_register_after(test, (unsigned long)page, HW_BREAKPOINT_R);
	ret = copy_from_kernel_nofault(&val, page, sizeof(val));
	masked = irqs_disabled();
	if (masked)
		local_irq_enable();
	unregister_wide_hw_breakpoint(after);
	unregister_wide_hw_breakpoint(plain);
	set_memory_valid((unsigned long)page, 1, 1);
	vfree(page);
	KUNIT_EXPECT_EQ(test, ret, -EFAULT);
	KUNIT_EXPECT_EQ(test, atomic_read(&hbp_hits), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&hbp_after_hits), 0);
	KUNIT_EXPECT_FALSE_MSG(test, masked,
			       "interrupts left masked after the fault");
}

static struct kunit_case hbp_step_cases[] = {
	KUNIT_CASE(hbp_watchpoint_own_handler),
	KUNIT_CASE(hbp_breakpoint_own_handler),
	KUNIT_CASE(hbp_watchpoint_step_faults),
	KUNIT_CASE(hbp_after_access_sees_write),
	KUNIT_CASE(hbp_after_access_step_faults),
	{}
};

static struct kunit_suite hbp_step_suite = {
	.name = "arm64_hw_breakpoint_step",
	.test_cases = hbp_step_cases,
};

kunit_test_suite(hbp_step_suite);
