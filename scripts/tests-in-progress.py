#!/usr/bin/env python3
"""Names the tests that started and never ended in a Swift Testing log (`swift test` output).

Usage: tests-in-progress.py LOG

scripts/test.sh prints this when the test process runs past its time limit, before stopping it.
"""
import re
import sys

STARTED = re.compile(r'^◇ Test (.+?) started\.$')
CASE = re.compile(r'^◇ Test case passing .+ to (.+?) started\.$')
ENDED = re.compile(r'^[✔✘➜] Test (.+?) (?:with \d+ test cases? )?(?:(?:passed|failed) after [0-9.]+ seconds|skipped)')


def in_progress(lines):
    running = {}
    cases = {}
    for line in lines:
        line = line.rstrip('\n')
        if match := CASE.match(line):
            cases.setdefault(match.group(1), []).append(line[2:])
        elif (match := STARTED.match(line)) and match.group(1) != 'run':
            running[match.group(1)] = True
        elif match := ENDED.match(line):
            running.pop(match.group(1), None)
    return [(name, cases.get(name, [])) for name in running]


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    with open(sys.argv[1], encoding='utf-8', errors='replace') as log:
        tests = in_progress(log)
    print(f'== {len(tests)} test(s) started and not ended:')
    for name, cases in tests:
        print(f'  {name}')
        for case in cases[-5:]:
            print(f'    {case}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
