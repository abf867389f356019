/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stack_call.h - a system call made with the stack pointer at top, the end of a
 * buffer of the caller's: a supervisor that writes below the stack pointer of a
 * stopped call writes there, where another thread of the attack programs
 * (race_open.c, race_exec.c) overwrites it -- and never in a live frame of the
 * caller's own stack.
 */
#ifndef STACK_CALL_H
#define STACK_CALL_H

static inline long stack_call4(void *top, long nr, long a0, long a1, long a2, long a3)
{
	register long r10 __asm__("r10") = a3;
	register unsigned long sp __asm__("r12") = (unsigned long)top;
	long ret;

	__asm__ volatile("xchg %%rsp, %%r12\n\t"
			 "syscall\n\t"
			 "xchg %%rsp, %%r12"
			 : "=a"(ret), "+r"(sp)
			 : "0"(nr), "D"(a0), "S"(a1), "d"(a2), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}

#endif
