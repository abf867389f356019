#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Count the individual test cases in a meson testlog.json (cmocka prints one
'[       OK ]' / '[  FAILED  ]' / '[  SKIPPED ]' line per case) and print one line:
'uvfs: N passed, N failed, N skipped' over every log given.  A meson test that crashed before cmocka
could report counts as one failure."""
import json
import re
import sys

passed = failed = skipped = 0
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
      if t.get("result") not in ("OK", "SKIP") and bad == 0:
          bad = 1  # crashed, timed out, or failed outside cmocka (a leak report)
      passed += ok
      failed += bad
      skipped += skip
print(f"uvfs: {passed} passed, {failed} failed, {skipped} skipped")
