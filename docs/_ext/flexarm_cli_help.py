"""The CLI reference from the program itself: ``flexarm-cli COMMAND --help`` run at build time.

In a page::

    ```{flexarm-cli-help} run
    ```

inserts the help text of ``flexarm-cli run`` as a literal block (no argument: ``flexarm-cli --help``).
The program is $FLEXARM_CLI, or build/app/flexarm-cli of the source tree. At the end of the build every
command that ``flexarm-cli --help`` lists must have been shown on some page: a new command without a
reference section is a warning, which the docs build (-W) turns into an error.
"""
import os
import re
import subprocess
from pathlib import Path

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)


def cli_path(app):
    path = os.environ.get("FLEXARM_CLI") or str(Path(app.srcdir).parent / "build" / "app" / "flexarm-cli")
    return path


def help_text(app, command):
    args = [cli_path(app)] + ([command] if command else []) + ["--help"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=30, env={**os.environ, "COLUMNS": "100"})
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited with {done.returncode}: {done.stderr.strip()}")
    return done.stdout.rstrip() + "\n"


def listed_commands(text):
    """The commands of the top-level help's usage lines: '  flexarm-cli NAME ...'."""
    return sorted({m.group(1) for m in re.finditer(r"^  flexarm-cli ([a-z][a-z-]*)", text, re.M)})


class FlexarmCliHelp(SphinxDirective):
    optional_arguments = 1
    has_content = False

    def run(self):
        command = self.arguments[0] if self.arguments else ""
        try:
            text = help_text(self.env.app, command)
        except (OSError, RuntimeError, subprocess.TimeoutExpired) as e:
            raise self.error(f"flexarm-cli-help {command}: {e} (set FLEXARM_CLI to a built flexarm-cli)")
        if not hasattr(self.env, "flexarm_cli_shown"):
            self.env.flexarm_cli_shown = set()
        self.env.flexarm_cli_shown.add(command)
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


def merge(app, env, docnames, other):
    env.flexarm_cli_shown = getattr(env, "flexarm_cli_shown", set()) | getattr(other, "flexarm_cli_shown", set())


def check_every_command(app, env):
    try:
        commands = listed_commands(help_text(app, ""))
    except (OSError, RuntimeError, subprocess.TimeoutExpired) as e:
        logger.warning(f"flexarm-cli --help: {e}")
        return
    if not commands:
        logger.warning("flexarm-cli --help lists no commands: its usage lines changed form?")
    missing = [c for c in commands if c not in getattr(env, "flexarm_cli_shown", set())]
    for c in missing:
        logger.warning(f"flexarm-cli {c} is not in the CLI reference (add a flexarm-cli-help directive for it)")


def setup(app):
    app.add_directive("flexarm-cli-help", FlexarmCliHelp)
    app.connect("env-merge-info", merge)
    app.connect("env-check-consistency", check_every_command)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
