"""Checks of claimbench's PR-ready outputs, for the integration scripts (ab.sh, compare.sh).

  python3 pr_output.py junit FILE
      prints "TESTS FAILURES SKIPPED" counted from FILE's <testcase> elements; FILE must be
      well-formed XML whose root is <testsuites> with those counts as attributes (exit 1,
      saying why, when not).
  python3 pr_output.py case FILE CLASSNAME NAME KIND TEXT
      exit 0 when FILE has a <testcase classname=CLASSNAME name=NAME> holding a <KIND>
      element (failure, skipped) whose message contains TEXT, or (KIND pass) none; else
      says what it found.
  python3 pr_output.py markdown FILE TOOL SQL_TEXT
      exit 0 when FILE is TOOL's (ab, compare) markdown: its first line the outcome and the
      counts; the bullets after it, one per regression (ab: then per undecided metric), as
      many as the counts say; a ```diff block, "--- baseline", "+++ candidate", then lines
      marked "-", "+" or " ", a "+" one holding SQL_TEXT; then <details> with a table row per metric, as many as its summary says.
      Else prints what failed.
"""
import re
import sys
import xml.etree.ElementTree as ET


def junit(path):
    root = ET.parse(path).getroot()
    cases = list(root.iter("testcase"))
    tests = len(cases)
    failures = sum(1 for c in cases if c.find("failure") is not None)
    skipped = sum(1 for c in cases if c.find("skipped") is not None)
    if root.tag != "testsuites":
        sys.exit(f"the root is <{root.tag}>, not <testsuites>")
    said = (root.get("tests"), root.get("failures"), root.get("skipped", "0"))
    if said != (str(tests), str(failures), str(skipped)):
        sys.exit(f"<testsuites> says tests/failures/skipped {said}, its test cases {tests} {failures} {skipped}")
    print(tests, failures, skipped)


def case(path, classname, name, kind, text):
    seen = []
    for c in ET.parse(path).getroot().iter("testcase"):
        if c.get("classname") != classname or c.get("name") != name:
            continue
        seen.append([e.tag for e in c])
        if kind == "pass" and len(c) == 0:
            return
        inner = c.find(kind)
        if kind != "pass" and inner is not None and text in (inner.get("message") or ""):
            return
    sys.exit(f"no <testcase classname={classname!r} name={name!r}> with a <{kind}> saying {text!r}; found: {seen}")


def markdown(path, tool, sql_text):
    lines = open(path, encoding="utf-8").read().splitlines()
    if tool == "ab":
        first = re.fullmatch(r"\*\*(FAIL|PASS)\*\*: (\d+) regressions?, (\d+) undecided[^,]*, (\d+) no regression; "
                             r"\d+ not gated", lines[0] if lines else "")
        kinds = ["- REGRESSION: ", "- undecided: "]
    else:
        first = re.fullmatch(r"\*\*(FAIL|PASS)\*\*: (\d+) regressions?, (\d+) no regression \(guarded metrics\); "
                             r"\d+ more compared, not gated", lines[0] if lines else "")
        kinds = ["- REGRESSION: "]
    if not first:
        sys.exit(f"the first line is not the outcome with its counts: {lines[:1]}")
    counts = [int(first.group(2))] + ([int(first.group(3))] if tool == "ab" else [])
    at = 1
    for kind, n in zip(kinds, counts):
        for k in range(n):
            if at >= len(lines) or not lines[at].startswith(kind):
                sys.exit(f"line {at + 1}: expected bullet {k + 1} of {n} starting {kind!r}, got {lines[at:at + 1]}")
            at += 1
    if at < len(lines) and lines[at].startswith("- "):
        sys.exit(f"line {at + 1}: a bullet beyond the counts: {lines[at]!r}")
    try:
        start = lines.index("```diff")
        end = lines.index("```", start)
    except ValueError:
        sys.exit("no ```diff block")
    block = lines[start + 1:end]
    if block[:2] != ["--- baseline", "+++ candidate"] or \
            not any(l.startswith("+") and sql_text in l for l in block[2:]) or \
            not all(l[:1] in ("-", "+", " ") for l in block[2:]):
        sys.exit(f"the diff block is not a unified-style diff with an added line holding {sql_text!r}: {block}")
    summary = [i for i, l in enumerate(lines) if re.fullmatch(r"<details><summary>All \d+ metrics</summary>", l)]
    if not summary or summary[0] < end or lines[-1] != "</details>":
        sys.exit("no <details> after the diff block, closed at the end")
    rows = [l for l in lines[summary[0]:] if l.startswith("| ") and not l.startswith("| group ")]
    want = int(re.search(r"\d+", lines[summary[0]]).group())
    if len(rows) != want:
        sys.exit(f"<details> says {want} metrics, its table has {len(rows)} rows")


if __name__ == "__main__":
    try:
        {"junit": junit, "case": case, "markdown": markdown}[sys.argv[1]](*sys.argv[2:])
    except ET.ParseError as e:
        sys.exit(f"not well-formed XML: {e}")
