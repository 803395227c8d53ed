"""docs/cli.md names every command and every option the parser knows."""

from __future__ import annotations

import argparse
from pathlib import Path

from codeblanks.cli.main import build_parser

CLI_MD = (Path(__file__).parents[2] / "docs" / "cli.md").read_text()


def _walk(parser: argparse.ArgumentParser, prefix: str):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield f"{prefix} {name}".strip(), sub
                yield from _walk(sub, f"{prefix} {name}")


def test_every_command_and_option_is_documented():
    parser = build_parser()
    for flag in ("--unsafe-no-sandbox",):
        assert f"`{flag}`" in CLI_MD
    for command, sub in _walk(parser, ""):
        assert f"## `codeblanks {command}" in CLI_MD or f"`codeblanks {command} " in CLI_MD
        for action in sub._actions:
            for option in action.option_strings:
                if option not in ("-h", "--help"):
                    assert option in CLI_MD, f"{command} {option}"
