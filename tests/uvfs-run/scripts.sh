#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# scripts.sh DIR - "#!" scripts as the kernel's binfmt_script runs them: $0 and the
# arguments the interpreter gets, /proc/PID/exe, an interpreter's argument, spaces,
# an interpreter that is a script (how deep the kernel goes), a missing interpreter,
# no execute permission, an empty "#!".  test_uvfs_run.sh runs it under uvfs-run (DIR
# on memfs) and natively (tmpfs); the outputs must be equal.
cd "$1" || exit 1
printf '#!/bin/sh\necho "0=$0 $#: $*"; readlink /proc/$$/exe\n' > s.sh
printf '#!/bin/sh -u\necho "0=$0 $#: $*"; echo "u=${-%%%%[!u]*}"\n' > u.sh
printf '#!   /bin/sh   \t \necho "0=$0 spaces"\n' > sp.sh
printf '#!/usr/bin/env bash\necho "0=$0 env"; readlink /proc/$$/exe\n' > env.sh
printf '#!/nonexistent/sh\necho never\n' > missing.sh
printf '#!\necho "empty: bash runs it itself"\n' > empty.sh
printf '#!/bin/sh\necho "not executable"\n' > noexec.sh
chmod 755 s.sh u.sh sp.sh env.sh missing.sh empty.sh
chmod 644 noexec.sh
./s.sh a 'b c'
"$PWD/s.sh"
sh -c 'exec ./s.sh via-sh'
./u.sh x
./sp.sh
./env.sh
./missing.sh 2>&1 | sed 's/^.*: //'; echo "status ${PIPESTATUS[0]}"
./empty.sh
./noexec.sh 2>&1 | sed 's/^.*: //'; echo "status ${PIPESTATUS[0]}"
# a chain of scripts, each the next one's interpreter: n scripts then /bin/sh
for n in 1 2 3 4 5 6; do
	printf '#!/bin/sh\necho "chain of %d: 0=$0 $#: $*"\n' "$n" > c1
	for i in $(seq 2 "$n"); do printf '#!%s/c%d\n' "$PWD" $((i - 1)) > c$i; done
	chmod 755 c*
	./c$n arg 2>&1 | sed 's/^.*: //'
	rm -f c*
done
python3 -c 'import os; os.execv("./s.sh", ["ignored", "from-python"])'
