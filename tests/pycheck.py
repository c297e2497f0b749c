# Counting checks for the Python test scripts: check() as the C tests' CHECK, summary() their last line.
# Each script prints "NAME: N passed, N failed" and exits non-zero on a failure, as tests/run.sh expects.
import sys

counts = {"passed": 0, "failed": 0}


def check(ok, what):
    if ok:
        counts["passed"] += 1
    else:
        counts["failed"] += 1
        print("FAIL: " + what)


def summary(name):
    print("%s: %d passed, %d failed" % (name, counts["passed"], counts["failed"]))
    sys.exit(1 if counts["failed"] else 0)
