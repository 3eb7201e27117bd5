#!/usr/bin/env python3
"""Checks that keep the documentation true to the program (ctest: Docs.Docstrings, Docs.Snippets, Docs.Gallery).

  check_docs.py docstrings              every public name of the `flexarm` module (PYTHONPATH) has a docstring
                                        beyond its signature and a place in docs/reference/python.rst
  check_docs.py snippets BUILD FILE...  runs the sh and python blocks of each Markdown FILE, in order, in a
                                        scratch folder where build/ is BUILD and projects/ the repository's
  check_docs.py gallery                 every shipped project has a section and a picture in docs/examples.md
  check_docs.py links FILE...           every relative link and image of each Markdown FILE names a file
                                        that exists (README.md and CHANGELOG.md, outside the site's build)

Snippets: a block runs unless the line before its fence is `<!-- not run: WHY -->`. A line ending in
`# -> TEXT` promises that TEXT appears in the block's standard output. sh blocks run under bash -e; python
blocks under this interpreter with PYTHONPATH=BUILD/python.
"""
import inspect
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def fail(problems, what):
    for p in problems:
        print(f"FAIL: {p}")
    if problems:
        sys.exit(1)
    print(f"ok: {what}")


def has_doc(obj):
    """A docstring that says more than pybind11's generated signature line."""
    doc = inspect.getdoc(obj) or ""
    lines = [l for l in doc.splitlines() if l.strip()]
    name = getattr(obj, "__name__", "")
    if lines and name and re.match(rf"{re.escape(name)}\(.*\)", lines[0]):
        lines = lines[1:]  # the signature pybind11 puts first
    return bool(lines) and not lines[0].startswith("Initialize self.")


def docstrings():
    import flexarm

    problems = []
    reference = (ROOT / "docs" / "reference" / "python.rst").read_text()
    if not has_doc(flexarm):
        problems.append("the module flexarm has no docstring")
    for name in sorted(n for n in dir(flexarm) if not n.startswith("_")):
        obj = getattr(flexarm, name)
        if not (inspect.isclass(obj) or callable(obj)):
            continue
        if not has_doc(obj):
            problems.append(f"flexarm.{name} has no docstring")
        if not re.search(rf"^\.\. auto(function|class|exception):: flexarm\.{name}$", reference, re.M):
            problems.append(f"flexarm.{name} is not in docs/reference/python.rst")
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for member, value in vars(obj).items():
                public = not member.startswith("_") or member in ("__getitem__", "__contains__", "__len__", "__iter__", "__call__")
                if public and not has_doc(value):
                    problems.append(f"flexarm.{name}.{member} has no docstring")
    fail(problems, "every public name of the flexarm module has a docstring and a place in the reference")


def blocks(path):
    """(language, code, line) of each fenced sh/python block of a Markdown file that is to run."""
    lines = path.read_text().split("\n")
    out, i = [], 0
    while i < len(lines):
        m = re.match(r"^```(sh|python)\s*$", lines[i])
        if not m:
            i += 1
            continue
        start = i
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        before = lines[start - 1].strip() if start > 0 else ""
        if not before.startswith("<!-- not run:"):
            out.append((m.group(1), "\n".join(lines[start + 1:j]), start + 1))
        i = j + 1
    return out


def snippets(build, files):
    build = Path(build).resolve()
    problems, count = [], 0
    env = {**os.environ, "PYTHONPATH": str(build / "python"), "QT_QPA_PLATFORM": "offscreen"}
    for f in files:
        path = (ROOT / f).resolve()
        with tempfile.TemporaryDirectory() as work:
            work = Path(work)
            (work / "build").symlink_to(build)
            for d in ("projects", "examples"):
                (work / d).symlink_to(ROOT / d)
            for language, code, line in blocks(path):
                count += 1
                where = f"{path.relative_to(ROOT)}:{line}"
                if language == "sh":
                    args = ["bash", "-e", "-o", "pipefail", "-c", code]
                else:
                    args = [sys.executable, "-c", code]
                done = subprocess.run(args, cwd=work, env=env, capture_output=True, text=True, timeout=120)
                if done.returncode != 0:
                    problems.append(f"{where}: exit code {done.returncode}\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
                    continue
                for promise in re.findall(r"#\s*->\s*(.+?)\s*$", code, re.M):
                    if promise not in done.stdout:
                        problems.append(f"{where}: the output lacks {promise!r}; it was:\n{done.stdout[-2000:]}")
                print(f"ran {where} ({language})")
    if count == 0:
        problems.append("no snippets found")
    fail(problems, f"{count} snippets ran as their pages say")


def gallery():
    text = (ROOT / "docs" / "examples.md").read_text()
    problems = []
    for project in sorted((ROOT / "projects").glob("*.flexarm.json")):
        name = project.name[: -len(".flexarm.json")]
        title = json.loads(project.read_text())["name"]
        if f"## {title}\n" not in text:
            problems.append(f"docs/examples.md has no section '## {title}' for projects/{project.name}")
        if f"(examples/{name}.png)" not in text:
            problems.append(f"docs/examples.md does not show examples/{name}.png")
        if not (ROOT / "docs" / "examples" / f"{name}.png").is_file():
            problems.append(f"docs/examples/{name}.png is missing (bash docs/tools/make_screenshots.sh BUILD examples)")
    fail(problems, "every shipped project is in the examples gallery with its picture")


def links(files):
    problems, count = [], 0
    for f in files:
        path = (ROOT / f).resolve()
        text = re.sub(r"```.*?```", "", path.read_text(), flags=re.S)  # not inside code blocks
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # the web, or a heading of the same file
            count += 1
            if not (path.parent / target.split("#")[0]).exists():
                problems.append(f"{f}: the link {target} names no file")
    fail(problems, f"{count} relative links name files that exist")


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "docstrings":
        docstrings()
    elif len(sys.argv) >= 4 and sys.argv[1] == "snippets":
        snippets(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) == 2 and sys.argv[1] == "gallery":
        gallery()
    elif len(sys.argv) >= 3 and sys.argv[1] == "links":
        links(sys.argv[2:])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
