#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""filter_tree.py FILTER_EXPORT - does uvfs-run's first filter decide every call as a
binary tree of call numbers (libseccomp's SCMP_FLTATR_CTL_OPTIMIZE 2, what uvfs-run
installs) exactly as it does as libseccomp's default chain of one comparison a number
(level 1, the form libseccomp has always made)?

Both programs are run, by a classic-BPF interpreter of this script's (the
instructions libseccomp emits for it: word loads of seccomp_data, jumps on constants,
returns of constants; any other fails the test), over the inputs the filter reads:
three architectures (x86-64, i386 and aarch64, which the filter must kill), every call
number below 600, x32's (bit 30) and -1, and for each the two arguments it looks at --
socket's family (AF_UNIX or not) and sendto's address (NULL or not) -- with values
whose low and high halves each are and are not what a rule compares.  TAP: the answers
alike for every input, and the tree's path for close, read and write short (what the
tree is for: a call a watching filter looks at the arguments of runs the first filter too)."""
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
    a = 0
    pc = n = 0
    while True:
        code, jt, jf, k = prog[pc]
        n += 1
        if code == 0x20:  # BPF_LD | BPF_W | BPF_ABS
            a = struct.unpack_from("<I", data, k)[0]
            pc += 1
        elif code in (0x05, 0x15, 0x25, 0x35, 0x45):  # BPF_JMP: JA, JEQ, JGT, JGE, JSET (K)
            if code == 0x05:
                pc += 1 + k
                continue
            taken = {0x15: a == k, 0x25: a > k, 0x35: a >= k, 0x45: (a & k) != 0}[code]
            pc += 1 + (jt if taken else jf)
        elif code == 0x06:  # BPF_RET | BPF_K
            return k, n
        else:
            raise ValueError(f"instruction {pc}: opcode {code:#x} not interpreted here")


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
    values = [0, 1, 3, 0x100000001, 0xffffffff00000001]  # arg0: socket's family
    addresses = [0, 1, 0x100000000, 0x7ffd00001000]       # arg4: sendto's address
    cases = differ = 0
    first = None
    for arch, nr, a0, a4 in itertools.product(AUDIT_ARCH.values(), numbers, values,
                                              addresses):
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
