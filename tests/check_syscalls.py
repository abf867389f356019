#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""check_syscalls.py SEMANTICS.md FILTER.C - is docs/SEMANTICS.md's table "Every system
call that takes a path or a descriptor" complete and true?

Complete: every system call the running kernel describes
(/sys/kernel/tracing/events/syscalls/sys_enter_*/format: each argument's type and
name) with an argument that is a path or a name the kernel looks up (a char pointer
named as below) or a descriptor (an integer named fd, dfd, fildes...) is in the table.
True: the rows that say what tools/uvfs-run/filter.c does -- notified, stopped for the
tracer, watched, refused -- list exactly the calls filter.c's lists hold, and no call
of the kernel's rows is in one of them.

Without tracefs mounted, root mounts it in a mount namespace of its own; else the
test is skipped (exit 77), saying so.  Exit 1 with each mismatch named."""
import glob
import os
import re
import sys

TRACING = ("/sys/kernel/tracing", "/sys/kernel/debug/tracing")
# char * arguments that the kernel resolves as a path or looks up by name (xattr
# names, hostnames, key descriptions and fs types are not; their calls have a path
# or are listed anyway)
PATHISH = {"filename", "pathname", "path", "oldname", "newname", "dev_name", "dir_name",
           "from_pathname", "to_pathname", "new_root", "put_old", "special", "specialfile",
           "u_name", "uname", "name"}
FDISH = re.compile(r"^(fd|dfd|olddfd|newdfd|oldfd|newfd|fd_in|fd_out|fdin|fdout|in_fd|"
                   r"out_fd|epfd|ufd|pidfd|fs_fd|from_dfd|to_dfd|mountdirfd|fanotify_fd|"
                   r"group_fd|max_fd|fildes|[a-z_]+_fd)$")
# tracefs's names for calls whose unistd name differs
RENAME = {"newstat": "stat", "newlstat": "lstat", "newfstat": "fstat", "umount": "umount2",
          "sendfile64": "sendfile"}
# the rows that filter.c decides, by the start of their first cell
FILTER_ROWS = ("notified", "stopped for the tracer", "watched", "refused: `ENOSYS`",
               "refused: `EPERM`")


def tracefs():
    for t in TRACING:
        if glob.glob(t + "/events/syscalls/sys_enter_*/format"):
            return t
    if os.getuid() == 0 and "UVFS_CHECK_MOUNTED" not in os.environ:
        os.environ["UVFS_CHECK_MOUNTED"] = "1"
        os.execvp("unshare", ["unshare", "-m", "--propagation", "private", "sh", "-c",
                              "mount -t tracefs nodev /sys/kernel/tracing && exec \"$@\"",
                              "sh", sys.executable] + sys.argv)
    print("SKIP: no tracefs (/sys/kernel/tracing) and it cannot be mounted here")
    sys.exit(77)


def kernel_calls(t):
    """{name: [(type, arg)...]} of every system call tracefs describes"""
    calls = {}
    for f in glob.glob(t + "/events/syscalls/sys_enter_*/format"):
        name = f.split("/")[-2][len("sys_enter_"):]
        args = []
        for m in re.finditer(r"field:([^;]*?)\s*(\w+);", open(f).read()):
            if not m.group(1).startswith("unsigned short") and m.group(2) not in (
                    "common_type", "common_flags", "common_preempt_count", "common_pid",
                    "__syscall_nr"):
                args.append((m.group(1), m.group(2)))
        calls[RENAME.get(name, name)] = args
    return calls


def wanted(args):
    for typ, arg in args:
        if "char *" in typ and arg in PATHISH:
            return True
        if "*" not in typ and FDISH.match(arg):
            return True
    return False


def table(doc):
    text = open(doc).read()
    start = text.index("### Every system call that takes a path or a descriptor")
    rows = {}
    for line in text[start:].splitlines()[1:]:
        if line.startswith("#") or line.startswith("What a program sees"):
            break
        cells = line.split("|")
        if len(cells) < 4 or cells[1].strip() in ("how", "---"):
            continue
        rows[cells[1].strip()] = set(re.findall(r"`([a-z0-9_]+)`", cells[2]))
    return rows


def filter_lists(src):
    text = open(src).read()

    def strings(array):
        m = re.search(r"\b" + array + r"\[\] = \{(.*?)\n\};", text, re.S)
        return set(re.findall(r'"([a-z0-9_]+)"', re.sub(r"/\*.*?\*/", "", m.group(1), flags=re.S)))

    def sys_names(array):
        m = re.search(r"\b" + array + r"\[\] = \{(.*?)\};", text, re.S)
        return set(re.findall(r"SYS_([a-z0-9_]+)", m.group(1)))

    def by_number(array):
        # "463, 464,  /* setxattrat, getxattrat ... */": the comment names the numbers
        m = re.search(r"\b" + array + r"\[\] = \{(.*?)\n\};", text, re.S)
        names = set()
        if not m:
            return names  # no such array (none refused by number)
        for line in m.group(1).splitlines():
            nums = re.findall(r"\b\d{3}\b", line.split("/*")[0])
            words = re.findall(r"[a-z][a-z0-9_]+", line.split("/*", 1)[1]) if "/*" in line else []
            names |= set(words[:len(nums)])
        return names

    return {
        "notified": strings("notified") | by_number("notified_nr") | {"sendto"},
        "stopped for the tracer": strings("trapped") | sys_names("socket_nr") |
        sys_names("sock_watch_nr"),
        "watched": sys_names("by_fd0") | sys_names("by_fd1") | sys_names("by_fd2") |
        sys_names("odd_fd0") | sys_names("odd_fd2") | sys_names("odd_fd4") | {"cachestat"},
        "refused: `ENOSYS`": strings("refused") | by_number("refused_nr"),
        "refused: `EPERM`": strings("refused_perm"),
    }


def main():
    doc, src = sys.argv[1], sys.argv[2]
    calls = kernel_calls(tracefs())
    rows = table(doc)
    listed = set().union(*rows.values())
    problems = []
    for name in sorted(n for n, a in calls.items() if wanted(a)):
        if name not in listed:
            problems.append("missing from the table: %s(%s)" %
                            (name, ", ".join(" ".join(a) for a in calls[name])))
    lists = filter_lists(src)
    in_filter = set().union(*lists.values())
    for key, names in lists.items():
        row = [r for r in rows if r.startswith(key)]
        if len(row) != 1:
            problems.append("no single row for %r" % key)
            continue
        for n in sorted(rows[row[0]] - names):
            problems.append("%s: the table says %r, filter.c does not" % (n, key))
        for n in sorted(names - rows[row[0]]):
            problems.append("%s: filter.c says %r, the table does not" % (n, key))
    for r, names in rows.items():
        if not r.startswith(FILTER_ROWS):
            for n in sorted(names & in_filter):
                problems.append("%s: the table says %r, but filter.c traps it" % (n, r))
    for p in problems:
        print(p)
    print("%d system calls described by the kernel, %d with a path or a descriptor, "
          "%d in the table: %d problems" %
          (len(calls), sum(1 for a in calls.values() if wanted(a)), len(listed), len(problems)))
    return 1 if problems else 0


sys.exit(main())
