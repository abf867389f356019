#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The shared library exports exactly the functions include/uvfs/uvfs.h declares,
each under the symbol version UVFS_0.1, and no other symbol (no internal function
is interposable or part of the ABI by accident).

usage: check_exports.py LIBUVFS.so uvfs.h
"""
import re
import subprocess
import sys

lib, header = sys.argv[1], sys.argv[2]
text = re.sub(r'/\*.*?\*/', '', open(header).read(), flags=re.S)
declared = set()
for line in text.splitlines():
    if line.startswith('#') or not line[:1].isalpha():
        continue
    m = re.search(r'\b(uvfs_\w+)\s*\(', line)
    if m:
        declared.add(m.group(1))

out = subprocess.run(['objdump', '-T', lib], check=True, capture_output=True,
                     text=True).stdout
exported, bad = {}, []
for line in out.splitlines():
    # 000000000000e900 g    DF .text  00000000000001ab  UVFS_0.1    uvfs_chdir
    f = line.split()
    if len(f) < 6 or '*UND*' in line or not re.match(r'^[0-9a-f]{16}$', f[0]):
        continue
    name, version = f[-1], f[-2]
    if name == version:          # the version definition itself (ABS)
        continue
    exported[name] = version

missing = sorted(declared - exported.keys())
extra = sorted(exported.keys() - declared)
wrong = sorted(n for n, v in exported.items() if n in declared and v != 'UVFS_0.1')
for n in missing:
    print(f'declared in uvfs.h but not exported: {n}')
for n in extra:
    print(f'exported but not declared in uvfs.h: {n}')
for n in wrong:
    print(f'exported under {exported[n]}, not UVFS_0.1: {n}')
print(f'{len(declared)} declared, {len(exported)} exported')
sys.exit(1 if missing or extra or wrong or not declared else 0)
