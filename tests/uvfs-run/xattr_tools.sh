#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# xattr_tools.sh DIR - real programs with extended attributes on files of DIR: cp -a
# and tar --xattrs carry them, a write removes a file capability; setcap and getcap
# when the host has them (libcap2-bin; the line says so when it has not).
# test_uvfs_run.sh runs it under uvfs-run and natively; the outputs must be equal.
cd "$1" || exit 1
touch f
python3 -c 'import os; os.setxattr("f", "user.k", b"v"); os.setxattr("f", "trusted.t", b"t")'
cp -a f g && python3 -c 'import os; print("cp -a:", sorted(os.listxattr("g")))'
tar --xattrs --xattrs-include='*' -cf t.tar f && mkdir x &&
	tar --xattrs --xattrs-include='*' -xf t.tar -C x &&
	python3 -c 'import os; print("tar --xattrs:", sorted(os.listxattr("x/f")))'
if command -v setcap > /dev/null && command -v getcap > /dev/null; then
	setcap cap_net_raw+ep f && getcap f
	cp -a f h && getcap h
	echo more >> f
	echo "after a write: $(getcap f)"
else
	echo "setcap, getcap: not on this host"
	python3 -c 'import os; print("cap:", sorted(os.listxattr("f")))'
fi
