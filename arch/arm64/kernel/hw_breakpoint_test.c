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

static struct kunit_case hbp_step_cases[] = {
	KUNIT_CASE(hbp_watchpoint_own_handler),
	KUNIT_CASE(hbp_breakpoint_own_handler),
	KUNIT_CASE(hbp_watchpoint_step_faults),
	{}
};

static struct kunit_suite hbp_step_suite = {
	.name = "arm64_hw_breakpoint_step",
	.test_cases = hbp_step_cases,
};

kunit_test_suite(hbp_step_suite);
