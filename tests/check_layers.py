#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""check_layers.py LIBUVFS.a - calls flow one way (docs/ARCHITECTURE.md, "Layers").

Reads the static library's members with nm: each member's undefined symbols are
resolved to the member that defines them, giving the calls between files.  Every
file has a layer; a call may go to a file of the same layer or one below, never
up; and only the instance's setup (the top) names a filesystem: the VFS reaches a
filesystem through its operation tables and the type registry, never by a direct
call.  Static inline functions in headers make no calls here, so a header cannot
hide an arrow in a function it inlines only if it is itself layered right.
Exits 1, naming each arrow that points the wrong way; 2 when a file has no layer.
"""
import collections
import subprocess
import sys

LAYERS = [
    # 0: the bottom: allocation, locks and interruptible waits, object caches, deferred frees
    ("bottom", {"alloc", "lock", "intr", "slab", "rcu_defer", "simple_offset", "simple_xattr"}),
    # 1: the VFS's objects: dentries, inodes, superblocks and types, mounts, files,
    #    tasks, fifo buffers, the personality, path names (d_path), stand-ins
    ("objects", {"abi", "cred", "permission", "dcache", "d_path", "inode", "super", "namespace", "pnode",
                 "file", "standin", "task", "pipe", "fsnotify", "dnotify", "leases", "anon_inodes"}),
    # 2: the filesystems: they use the objects, are used through their tables
    ("filesystems", {"fs_memfs", "fs_procfs", "fs_proc_namespace", "fs_hostfs"}),
    # 3: the path walk
    ("walk", {"namei", "walk"}),
    # 4: the calls of uvfs.h (and the introspection ones)
    ("syscalls", {"open", "rename", "link", "af_unix", "fhandle", "inotify", "ioctl", "stat", "attr", "read_write", "readdir",
                  "fcntl", "exec", "mount", "fsopen", "statmount", "introspect", "sys", "xattr"}),
    # 5: the instance's setup and teardown
    ("top", {"uvfs"}),
]
LAYER = {f: i for i, (_, files) in enumerate(LAYERS) for f in files}
NAME = {i: n for i, (n, _) in enumerate(LAYERS)}
FS = LAYER["fs_memfs"]


def member(name):
    # "libuvfs.so.0.1.0.p/src_fs_memfs.c.o" or "src_fs_memfs.c.o" -> "fs_memfs"
    base = name.rsplit("/", 1)[-1]
    return base.removeprefix("src_").removesuffix(".c.o")


def main():
    out = subprocess.run(["nm", sys.argv[1]], capture_output=True, text=True, check=True).stdout
    defs, undefs, cur = {}, collections.defaultdict(set), None
    for line in out.splitlines():
        if line.endswith(":") and line.strip():
            cur = member(line[:-1])
            continue
        parts = line.split()
        if cur is None or not parts:
            continue
        if len(parts) == 3 and parts[1] in "TDBRV":
            defs[parts[2]] = cur
        elif len(parts) == 2 and parts[0] == "U":
            undefs[cur].add(parts[1])
    files = set(defs.values()) | set(undefs)
    unknown = sorted(f for f in files if f not in LAYER)
    if unknown:
        print("check_layers: no layer for " + ", ".join(unknown) + " (add it to LAYERS)")
        return 2
    bad = []
    for src in sorted(undefs):
        for sym in sorted(undefs[src]):
            dst = defs.get(sym)
            if dst is None or dst == src:
                continue
            up = LAYER[dst] > LAYER[src]
            names_fs = LAYER[dst] == FS and LAYER[src] != FS and NAME[LAYER[src]] != "top"
            if up or names_fs:
                bad.append(f"  {src} ({NAME[LAYER[src]]}) -> {dst} ({NAME[LAYER[dst]]}): {sym}")
    if bad:
        print("check_layers: calls that point up, or name a filesystem:")
        print("\n".join(bad))
        return 1
    print(f"check_layers: {len(files)} files, {sum(len(v) for v in undefs.values())} "
          "references, every call goes down or across")
    return 0


if __name__ == "__main__":
    sys.exit(main())
