#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mutate.sh - does the differential tester find a fix when it is reverted?  Each
# mutation below undoes one fix of the fidelity issue in a scratch worktree of HEAD,
# builds uvfs-difftest there and runs it until the first divergence (needs root).
# Prints, per mutation, the sequences run and the divergence found.  docs/TESTING.md.
set -u
cd "$(dirname "$0")/../.."
run() { # name file python-replacement
  name=$1; file=$2; old=$3; new=$4
  wt=/tmp/mut-$name
  rm -rf $wt; git worktree remove --force $wt 2>/dev/null; git worktree add -q --detach $wt HEAD
  python3 - "$wt/$file" "$old" "$new" <<'PY'
import sys
p,a,b=sys.argv[1:]
s=open(p).read()
assert s.count(a)==1,(p,a)
open(p,'w').write(s.replace(a,b))
PY
  (cd $wt && meson setup build-m >/dev/null 2>&1 && ninja -C build-m tools/difftest/uvfs-difftest >/dev/null 2>&1) || { echo "$name: build failed"; return; }
  out=$($wt/build-m/tools/difftest/uvfs-difftest 60000 --seed 1 --max-reports 1 --no-shrink --out /tmp/mut-out-$name 2>&1 | tail -1)
  echo "$name: $out"
  ls /tmp/mut-out-$name 2>/dev/null | head -2
  git worktree remove --force $wt
}
run etxtbsy src/inode.h '	if (inode->i_writecount > 0)
		return -ETXTBSY;' '	if (0)
		return -ETXTBSY;'
run exited src/fs/procfs.c '		if (d) {
			d_drop(d);' '		if (d) {
			(void)d_drop;'
run fdinfo-seq src/fs/procfs.c '	.read = proc_fdinfo_read, .fop_flags = FOP_SEQ,' '	.read = proc_fdinfo_read, .fop_flags = 0,'
run proc-eod src/fs/procfs.c '		*pos = PROC_ROOT_END;
		return false;
	case PROC_PID:' '		*pos = (long)fs->pid_table_size + TGID_OFFSET;
		return false;
	case PROC_PID:'
run fifo-accmode src/pipe.c '		/* O_ACCMODE 3: neither read nor write (OPEN_FMODE) */
		return -EINVAL;' '		/* O_ACCMODE 3: neither read nor write (OPEN_FMODE) */
		return 0;'
run proc-dir-fsync src/fs/procfs.c '	.iterate = proc_iterate, .fop_flags = FOP_NON_LFS,' '	.iterate = proc_iterate, .fop_flags = FOP_NON_LFS | FOP_FSYNC,'
run proc-dir-seek src/fs/procfs.c '	.iterate = proc_iterate, .fop_flags = FOP_NON_LFS,' '	.iterate = proc_iterate, .fop_flags = FOP_NON_LFS | FOP_OFFSET_DIR,'
