#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""filter_tree.py FILTER_EXPORT - does uvfs-run's first filter decide every call as a
binary tree of call numbers (libseccomp's SCMP_FLTATR_CTL_OPTIMIZE 2, what uvfs-run
installs) exactly as it does as libseccomp's default chain of one comparison a number
(level 1, the form libseccomp has always made)?

Both programs are run, by a classic-BPF interpreter of this script's (the subset
libseccomp emits), over every seccomp_data that can tell them apart: three
architectures (x86-64, i386 and aarch64, which the filter must kill), every call
number below 600, x32's numbers (bit 30), and -1; for each, the arguments the filter
looks at -- socket's family (AF_UNIX or not) and sendto's address (NULL or not) --
with values whose upper halves differ.  TAP: the answers alike for every input, and
the tree's path for close, read and write short (what the tree is for: a call a
watching filter looks at the arguments of runs the first filter too)."""
import itertools
import os
import struct
import subprocess
import sys
import tempfile

AUDIT_ARCH = {"x86-64": 0xc000003e, "i386": 0x40000003, "aarch64": 0xc00000b7}


def load(path):
    data = open(path, "rb").read()
    if not data or len(data) % 8:
        raise ValueError(f"{path}: {len(data)} bytes, not a BPF program")
    return [struct.unpack("<HBBI", data[i:i + 8]) for i in range(0, len(data), 8)]


def run(prog, data):
    """(the return value, instructions run) of prog on the seccomp_data bytes"""
    a = x = 0
    mem = [0] * 16
    pc = n = 0
    while True:
        code, jt, jf, k = prog[pc]
        n += 1
        cls = code & 7
        if cls == 0:  # BPF_LD
            mode = code & 0xe0
            if mode == 0x20:  # BPF_ABS, a word
                a = struct.unpack_from("<I", data, k)[0]
            elif mode == 0x00:  # BPF_IMM
                a = k
            elif mode == 0x60:  # BPF_MEM
                a = mem[k]
            else:
                raise ValueError(f"ld {code:#x}")
        elif cls == 1:  # BPF_LDX
            x = k if (code & 0xe0) == 0x00 else mem[k]
        elif cls == 2:  # BPF_ST
            mem[k] = a
        elif cls == 3:  # BPF_STX
            mem[k] = x
        elif cls == 4:  # BPF_ALU
            src = x if code & 8 else k
            op = code & 0xf0
            if op == 0x50:
                a &= src
            elif op == 0x40:
                a |= src
            elif op == 0x00:
                a = (a + src) & 0xffffffff
            elif op == 0x10:
                a = (a - src) & 0xffffffff
            else:
                raise ValueError(f"alu {code:#x}")
        elif cls == 5:  # BPF_JMP
            op = code & 0xf0
            src = x if code & 8 else k
            if op == 0x00:  # BPF_JA
                pc += 1 + k
                continue
            taken = {0x10: a == src, 0x20: a > src, 0x30: a >= src, 0x40: (a & src) != 0}[op]
            pc += 1 + (jt if taken else jf)
            continue
        elif cls == 6:  # BPF_RET
            return (a if code & 0x10 else k), n
        else:  # BPF_MISC: TAX, TXA
            if (code & 0xf8) == 0:
                x = a
            else:
                a = x
        pc += 1


def seccomp_data(nr, arch, args):
    return struct.pack("<iIQ6Q", nr, arch, 0x401000, *args)


def main():
    exporter = sys.argv[1]
    print("1..2")
    with tempfile.TemporaryDirectory() as d:
        progs = {}
        for level in (1, 2):
            path = os.path.join(d, f"o{level}.bpf")
            subprocess.run([exporter, str(level), path], check=True)
            progs[level] = load(path)
    numbers = list(range(600)) + [0x40000000 + i for i in range(600)] + [-1]
    values = [0, 1, 3, 0x100000001, 0xffffffff00000001]
    cases = differ = 0
    first = None
    for arch, nr, a0, a4 in itertools.product(AUDIT_ARCH.values(), numbers, values,
                                              [0, 0x100000000]):
        data = seccomp_data(nr, arch, [a0, 0, 0, 0, a4, 0])
        r1, _ = run(progs[1], data)
        r2, _ = run(progs[2], data)
        cases += 1
        if r1 != r2:
            differ += 1
            first = first or (arch, nr, a0, a4, r1, r2)
    if differ:
        arch, nr, a0, a4, r1, r2 = first
        print(f"not ok 1 - the tree and the chain differ in {differ} of {cases} inputs; "
              f"first: arch {arch:#x} nr {nr} arg0 {a0:#x} arg4 {a4:#x}: "
              f"{r1:#x} against {r2:#x}")
    else:
        print(f"ok 1 - {len(progs[2])} instructions as a tree, {len(progs[1])} as a "
              f"chain: the same answer for each of {cases} inputs")
    paths = {}
    for name, nr in (("close", 3), ("read", 0), ("write", 1)):
        data = seccomp_data(nr, AUDIT_ARCH["x86-64"], [5, 0, 0, 0, 0, 0])
        paths[name] = (run(progs[2], data)[1], run(progs[1], data)[1])
    long_ = {k: v for k, v in paths.items() if v[0] > 20 or v[0] >= v[1]}
    said = ", ".join(f"{k} {t} (chain {c})" for k, (t, c) in paths.items())
    print(f"{'not ok' if long_ else 'ok'} 2 - instructions run for a call the filter "
          f"allows: {said}")
    return 1 if differ or long_ else 0


if __name__ == "__main__":
    sys.exit(main())
