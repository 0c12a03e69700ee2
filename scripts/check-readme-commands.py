#!/usr/bin/env python3
"""Checks the README's command reference against the commands' own --help.

Every command `entitle` has (its subcommands, recursively, from `--help`) must have an entry in the
README's "The command line" block (an indented line starting `entitle <command>`, with its
continuation lines), and every option its `--help` lists must appear in that entry; an entry for a
command that doesn't exist fails too.

    python3 scripts/check-readme-commands.py .build/debug/entitle
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def section(text: str, title: str) -> list[str]:
    lines, inside = [], False
    for line in text.splitlines():
        if line.startswith(title):
            inside = True
            continue
        if inside and line and not line.startswith(" "):
            break
        if inside:
            lines.append(line)
    return lines


def commands(binary: str, path: list[str]) -> dict[str, set[str]]:
    """Each leaf command under `path`, with the long options its --help lists."""
    text = subprocess.run([binary, *path, "--help"], capture_output=True, text=True, check=True).stdout
    subcommands = [m.group(1) for line in section(text, "SUBCOMMANDS:") if (m := re.match(r"^  ([a-z][a-z0-9-]*)\b", line))]
    if subcommands:
        found: dict[str, set[str]] = {}
        for name in subcommands:
            if name == "help":
                continue
            found.update(commands(binary, path + [name]))
        return found
    options = {m.group(1) for line in section(text, "OPTIONS:") if (m := re.match(r"^  (?:-[a-zA-Z], )?(--[a-z0-9-]+)", line))}
    return {" ".join(path): options - {"--help", "--version"}}


def readme_entries(readme: str) -> dict[str, str]:
    """The README's command reference: each entry's command and its text (continuation lines included)."""
    block = readme.split("## The command line", 1)[1].split("\n\n", 2)[1]
    entries: dict[str, str] = {}
    current = None
    for line in block.splitlines():
        match = re.match(r"^    entitle ((?:[a-z][a-z0-9-]*)(?: [a-z][a-z0-9-]*)*)", line)
        if match:
            current = match.group(1)
            entries[current] = line
        elif current and line.startswith("     "):
            entries[current] += "\n" + line
    return entries


def main() -> int:
    binary = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / ".build/debug/entitle")
    helped = commands(binary, [])
    entries = readme_entries((ROOT / "README.md").read_text())
    problems = []
    # An entry's command is the longest run of words that names a command (`analytics recompute DIR`).
    listed: dict[str, str] = {}
    for words, text in entries.items():
        parts = words.split()
        name = next((" ".join(parts[:n]) for n in range(len(parts), 0, -1) if " ".join(parts[:n]) in helped), None)
        if name is None:
            problems.append(f"README lists `entitle {words}`, which is no command")
        else:
            listed[name] = text
    for name, options in sorted(helped.items()):
        if name not in listed:
            problems.append(f"README's command reference has no `entitle {name}`")
            continue
        for option in sorted(options):
            if not re.search(re.escape(option) + r"(?![a-z0-9-])", listed[name]):
                problems.append(f"README's `entitle {name}` doesn't list {option}")
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"README: the command reference lists all {len(helped)} commands and their options")
    return 0


if __name__ == "__main__":
    sys.exit(main())
