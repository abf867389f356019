#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Count the individual test cases in a meson testlog.json and print one line:
'uvfs: N passed, N failed, N skipped' over every log given.  A case is a cmocka case
(one '[       OK ]' / '[  FAILED  ]' / '[  SKIPPED ]' line each), a TAP test's
subtest ('ok N', 'ok N ... # SKIP', 'not ok N'), or, for a test that prints neither
(an exit status alone: syscall_table, bench_check), the test itself.  A meson test that
crashed before it could report counts as one failure.

Before that line, each failed test's name and what it said of its failures: cmocka's
failure lines, TAP's 'not ok' lines with the comments after them, or the end of its
output -- at most 40 lines a test, so that a CI log cut to its tail still shows why."""
import json
import re
import sys

passed = failed = skipped = 0
reports = []


def why(out, err):
  """The lines of a failed test's output that say why: a TAP 'not ok' and its comments,
  a cmocka failure and the lines before it, else the output's last lines."""
  lines = out.splitlines()
  keep = []
  for i, l in enumerate(lines):
    if l.startswith("not ok"):
      keep.append(l)
      for c in lines[i + 1:]:  # its comments: up to the next test line
        if not c.startswith("#"):
          break
        keep.append(c)
    elif l.startswith("[  FAILED  ]") and not re.match(r"\[  FAILED  \] \d+ test", l):
      keep.extend(lines[max(0, i - 5):i + 1])
  if not keep:
    keep = (lines + err.splitlines())[-15:]
  return keep[:40]


for path in sys.argv[1:]:
  try:
    f = open(path)
  except OSError:
    print(f"{path}: missing (that build or run failed)")
    failed += 1
    continue
  with f:
    for line in f:
      t = json.loads(line)
      out = t.get("stdout", "") or ""
      ok = len(re.findall(r"^\[       OK \]", out, re.M))
      bad = len(re.findall(r"^\[  FAILED  \] (?!\d+ test)", out, re.M))
      skip = len(re.findall(r"^\[  SKIPPED \] (?!\d+ test)", out, re.M))
      tap_skip = len(re.findall(r"^ok \d+\b.*#\s*SKIP", out, re.M | re.I))
      ok += len(re.findall(r"^ok \d+\b", out, re.M)) - tap_skip
      skip += tap_skip
      bad += len(re.findall(r"^not ok \d+\b", out, re.M))
      if t.get("result") == "SKIP" and ok + bad + skip == 0:
          skip = 1  # skipped whole (a TAP test's "1..0 # SKIP")
      if t.get("result") == "OK" and ok + bad + skip == 0:
          ok = 1  # an exit status alone
      if t.get("result") not in ("OK", "SKIP") and bad == 0:
          bad = 1  # crashed, timed out, or failed outside cmocka (a leak report)
      if t.get("result") not in ("OK", "SKIP"):
          reports.append((path, t.get("name", "?"), t.get("result"),
                          why(out, t.get("stderr", "") or "")))
      passed += ok
      failed += bad
      skipped += skip
for path, name, result, lines in reports:
  print(f"== failed: {name} ({result}, {path})")
  for l in lines:
    print("   " + l[:300])
print(f"uvfs: {passed} passed, {failed} failed, {skipped} skipped")
