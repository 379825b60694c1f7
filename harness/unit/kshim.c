// SPDX-License-Identifier: GPL-2.0
/*
 * What kshim.h declares for the tests that need it: the stack pointer's
 * place in the fake struct pt_regs (arm64's tests move it).
 */
#include "kshim.h"

unsigned int kshim_sp_offset = KSHIM_REG_SP;
