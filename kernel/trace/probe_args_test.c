// SPDX-License-Identifier: GPL-2.0
/*
 * A function with ten arguments, for the probe event selftests: more than
 * any architecture passes in registers, so the last ones are on the stack
 * at its entry ($arg7 and up on x86_64, $arg9 and up on arm64).
 *
 * Writing a number N to /sys/module/probe_args_test/parameters/call calls
 * probe_args_test_ten(N, 2 * N, ..., 10 * N) once; the selftest
 * kprobe/probe_args_stack.tc probes it and reads the ten values back.
 */
#include <linux/compiler.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>

/*
 * probe_args_test_ten() - the function the selftests probe
 * @a1: first argument
 * @a2: second argument
 * @a3: third argument
 * @a4: fourth argument
 * @a5: fifth argument
 * @a6: sixth argument
 * @a7: seventh argument
 * @a8: eighth argument
 * @a9: ninth argument
 * @a10: tenth argument
 *
 * Return: the sum of the arguments, for return probes.
 */
static noinline long probe_args_test_ten(long a1, long a2, long a3, long a4,
					 long a5, long a6, long a7, long a8,
					 long a9, long a10)
{
	return a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10;
}

static long probe_args_test_sum;

static int probe_args_test_call(const char *val, const struct kernel_param *kp)
{
	typeof(probe_args_test_ten) *fn;
	long n;
	int ret = kstrtol(val, 0, &n);

	if (ret)
		return ret;
	/* through a pointer the compiler cannot see: no clone of another ABI */
	fn = probe_args_test_ten;
	OPTIMIZER_HIDE_VAR(fn);
	probe_args_test_sum = fn(n, 2 * n, 3 * n, 4 * n, 5 * n, 6 * n, 7 * n,
				 8 * n, 9 * n, 10 * n);
	return 0;
}

static int probe_args_test_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", probe_args_test_sum);
}

static const struct kernel_param_ops probe_args_test_ops = {
	.set = probe_args_test_call,
	.get = probe_args_test_get,
};

module_param_cb(call, &probe_args_test_ops, NULL, 0600);
MODULE_PARM_DESC(call, "N: call probe_args_test_ten(N, 2N, ..., 10N)");

MODULE_DESCRIPTION("A ten-argument function for the probe event selftests");
MODULE_LICENSE("GPL");
