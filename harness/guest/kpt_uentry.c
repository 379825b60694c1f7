// SPDX-License-Identifier: GPL-2.0
/*
 * kpt_uentry: a user function for the uretprobe tests (static, in the
 * guest as /bin/kpt_uentry).
 *
 *	kpt_uentry where	print PATH:0xOFFSET of bump(), a uprobe's place
 *	kpt_uentry run		call bump() once
 *
 * bump() changes what its argument points at: at its entry the value is
 * 10 and the text "entry", at its return 15 and "exit!".  It returns the
 * new value.
 */
#include <stdio.h>
#include <string.h>

struct val {
	long n;
	char s[8];
};

__attribute__((noinline)) long bump(struct val *v)
{
	v->n += 5;
	memcpy(v->s, "exit!", 6);
	__asm__ volatile("" : : "r"(v) : "memory");
	return v->n;
}

static int where(void)
{
	unsigned long lo, hi, off, addr = (unsigned long)bump;
	char line[512], perm[8], path[256];
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %255s", &lo, &hi,
			   perm, &off, path) != 5)
			continue;
		if (addr >= lo && addr < hi) {
			printf("%s:0x%lx\n", path, addr - lo + off);
			return 0;
		}
	}
	return 1;
}

int main(int argc, char **argv)
{
	struct val v = { 10, "entry" };

	if (argc > 1 && !strcmp(argv[1], "where"))
		return where();
	printf("%ld %s\n", bump(&v), v.s);
	return 0;
}
