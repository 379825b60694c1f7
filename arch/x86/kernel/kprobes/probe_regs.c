// SPDX-License-Identifier: GPL-2.0
/*
 * x86 answers for probe event arguments (see <linux/probe_regs.h>).
 *
 * Registers: every name regs_query_register_offset() knows ("ax", "di",
 * "r8", "flags", ...) reads the whole pt_regs word, as it always has.  The
 * assembler's names read the part they name: "rdi" the word, "edi" its low
 * 32 bits, "dil" its low byte, "ah" the byte above "al", "r8d", "r8w" and
 * "r8b" the low 32, 16 and 8 bits of r8.  The 16-bit names of the legacy
 * registers ("ax", "di") keep their ptrace meaning, the whole word.
 *
 * Arguments follow the kernel's calling convention: x86_64 passes the first
 * six in di, si, dx, cx, r8 and r9, i386 (-mregparm=3) the first three in
 * ax, dx and cx.  The others are on the stack at the entry, above the
 * return address: stack word 1 is the first of them.
 */
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/probe_regs.h>
#include <linux/ptrace.h>
#include <linux/string.h>

/* NAME reads BYTES bytes of ptrace's REG from the low end, or the byte above */
#define X86_LOW(name, reg, bytes)	{ name, reg, bytes, 0 }
#define X86_HIGH_BYTE(name, reg)	{ name, reg, 1, 8 }

static const struct probe_reg_alias x86_probe_reg_aliases[] = {
#ifdef CONFIG_X86_64
	X86_LOW("rax", "ax", 8), X86_LOW("rbx", "bx", 8),
	X86_LOW("rcx", "cx", 8), X86_LOW("rdx", "dx", 8),
	X86_LOW("rsi", "si", 8), X86_LOW("rdi", "di", 8),
	X86_LOW("rbp", "bp", 8), X86_LOW("rsp", "sp", 8),
	X86_LOW("rip", "ip", 8),
	X86_LOW("sil", "si", 1), X86_LOW("dil", "di", 1),
	X86_LOW("bpl", "bp", 1), X86_LOW("spl", "sp", 1),
#else
	X86_LOW("eip", "ip", 4),
#endif
	X86_LOW("eax", "ax", 4), X86_LOW("ebx", "bx", 4),
	X86_LOW("ecx", "cx", 4), X86_LOW("edx", "dx", 4),
	X86_LOW("esi", "si", 4), X86_LOW("edi", "di", 4),
	X86_LOW("ebp", "bp", 4), X86_LOW("esp", "sp", 4),
	X86_LOW("al", "ax", 1), X86_LOW("bl", "bx", 1),
	X86_LOW("cl", "cx", 1), X86_LOW("dl", "dx", 1),
	X86_HIGH_BYTE("ah", "ax"), X86_HIGH_BYTE("bh", "bx"),
	X86_HIGH_BYTE("ch", "cx"), X86_HIGH_BYTE("dh", "dx"),
};

/* "r8d", "r8w", "r8b" .. "r15b": the low 32, 16 or 8 bits of r8..r15 */
static int x86_probe_reg_low(const char *name, struct probe_reg *reg)
{
	size_t len = strlen(name);
	char base[4];
	int offset;
	u8 size;

	if (!IS_ENABLED(CONFIG_X86_64) || len < 3 || len > 4 ||
	    name[0] != 'r' || !isdigit(name[1]))
		return -EINVAL;
	switch (name[len - 1]) {
	case 'd':
		size = 4;
		break;
	case 'w':
		size = 2;
		break;
	case 'b':
		size = 1;
		break;
	default:
		return -EINVAL;
	}
	memcpy(base, name, len - 1);
	base[len - 1] = '\0';
	offset = regs_query_register_offset(base);
	if (offset < 0)
		return offset;
	*reg = (struct probe_reg){ .offset = offset, .size = size };
	return 0;
}

/**
 * probe_arch_reg() - find an x86 register name ptrace does not know
 * @name: the name without the '%'
 * @reg: filled in when found
 *
 * Return: 0, or -EINVAL when there is no such register.
 */
int probe_arch_reg(const char *name, struct probe_reg *reg)
{
	if (!probe_reg_from_alias(x86_probe_reg_aliases,
				  ARRAY_SIZE(x86_probe_reg_aliases), name, reg))
		return 0;
	return x86_probe_reg_low(name, reg);
}

static const char *const x86_probe_arg_regs[] = {
#ifdef CONFIG_X86_64
	"di", "si", "dx", "cx", "r8", "r9",
#else
	"ax", "dx", "cx",
#endif
};

/**
 * probe_arch_arg() - find argument @n of an x86 function at its entry
 * @n: the argument, from 0
 * @loc: filled in
 *
 * Return: 0, or a negative errno if the register table is broken.
 */
int probe_arch_arg(unsigned int n, struct probe_arg_loc *loc)
{
	return probe_arg_in_regs(x86_probe_arg_regs,
				 ARRAY_SIZE(x86_probe_arg_regs), 1, n, loc);
}
