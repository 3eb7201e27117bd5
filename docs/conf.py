# Sphinx configuration of the FlexArm documentation (Debian's python3-sphinx, python3-myst-parser, furo).
# Built by the CMake target `docs` and the test Docs.Build (sphinx-build -W: warnings are errors):
#   FLEXARM_CLI=build/app/flexarm-cli PYTHONPATH=build/python sphinx-build -W --keep-going -b html docs build/docs/html
# FLEXARM_CLI: the flexarm-cli whose --help texts the CLI reference shows (docs/_ext/flexarm_cli_help.py).
# PYTHONPATH: the built `flexarm` module, whose docstrings the Python API reference shows (autodoc).
import os
import re
import sys
from pathlib import Path

docs = Path(__file__).resolve().parent
root = docs.parent
sys.path.insert(0, str(docs / "_ext"))

project = "FlexArm"
author = "FlexArm developers"
copyright = "FlexArm developers"
version = release = re.search(r"project\(FlexArm VERSION ([0-9.]+)", (root / "CMakeLists.txt").read_text()).group(1)

extensions = [
    "myst_parser",  # the Markdown pages (project-format.md, performance.md, ... stay Markdown)
    "sphinx.ext.autodoc",  # the Python API reference, from the module's docstrings
    "flexarm_cli_help",  # the CLI reference, from flexarm-cli COMMAND --help
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "seed-notes", "bench", "tools", "Thumbs.db", ".DS_Store"]
# No math markup: equations are Unicode text, so that no page loads MathJax from the web (the installed
# site works offline and lintian finds no privacy breach).
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3  # [text](page.md#a-heading) links to a heading of another page
suppress_warnings = ["myst.header"]  # the generated validation report starts its tables at level 2

autodoc_docstring_signature = True  # pybind11 puts the signature on the docstring's first line
autodoc_typehints = "signature"


def plain_docstring(app, what, name, obj, options, lines):
    """pybind11 docstrings are plain text, not reStructuredText: `**{...}` in an example is not markup, and
    an indented run of lines (the module's example) is code, shown as a literal block."""
    if what == "module" and "" in lines:  # its first paragraph, then an example (dedented by autodoc)
        blank = lines.index("")
        lines[blank:] = ["", "::", ""] + ["    " + line for line in lines[blank + 1:]]
        return
    out, in_code = [], False
    for line in lines:
        code = line.startswith("  ") and line.strip() != ""
        if code and not in_code:
            out += ["", "::", ""]
        elif not code and in_code and line.strip():
            out.append("")
        in_code = code or (in_code and not line.strip())
        out.append(line if code else line.replace("*", "\\*"))
    lines[:] = out


def setup(app):
    app.connect("autodoc-process-docstring", plain_docstring)

html_theme = "furo"
html_title = f"FlexArm {release}"
html_static_path = []
html_show_sourcelink = False
html_copy_source = False
html_last_updated_fmt = None
templates_path = []

# Links between pages are checked by the build itself (-W): a Markdown link to a page or heading that does
# not exist, a missing image or include, a page outside the table of contents are warnings. README.md and
# CHANGELOG.md, read on their own, are checked by docs/tools/check_docs.py links (Docs.Links).
