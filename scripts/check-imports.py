#!/usr/bin/env python3
"""Checks every module's imports against the table of docs/architecture.md.

The table's first column names a module (or several, comma-separated), its third the modules it may
import, each in backticks. Every Swift file of a module is read; an `import` of a module the table
does not allow, a module with no row, or a row naming a module that doesn't exist fails the check.

    python3 scripts/check-imports.py            # the repository's sources
    python3 scripts/check-imports.py --self-test  # the check fails on a wrong import
"""
import pathlib
import re
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

# The two packages' source folders: the client at the root, the server in server/ (docs/architecture.md).
PACKAGES = ["Sources", "server/Sources"]

# Where a module's sources live, when not in <package>/Sources/<module>.
SOURCES = {
    "sample-app": ["server/Examples/SampleApp"],
    "EntitleExamples": ["server/Examples/ExampleApps.swift"],
}

# Folders held to less than their module's row: controllers talk to services, never to storage.
FOLDER_RULES = {
    "server/Sources/EntitleServer/Controllers": {"EntitleStorage", "PostgresNIO", "VaporCSQLite"},
}

IMPORT = re.compile(
    r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|protocol|func|typealias|var|let)\s+)?([A-Za-z_][A-Za-z0-9_]*)",
    re.MULTILINE,
)


def table(architecture: str) -> dict[str, set[str]]:
    allowed: dict[str, set[str]] = {}
    # The module table only: from its header to the first line that is not a row.
    lines = architecture.splitlines()
    start = next((i for i, line in enumerate(lines) if line.replace(" ", "") == "|module|job|mayimport|"), len(lines))
    rows = []
    for line in lines[start + 1:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    for line in rows:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        names = re.findall(r"`([^`]+)`", cells[0])
        imports = set(re.findall(r"`([^`]+)`", cells[2]))
        for name in names:
            allowed[name] = imports
    return allowed


def swift_files(root: pathlib.Path, module: str) -> list[pathlib.Path]:
    files: list[pathlib.Path] = []
    for place in SOURCES.get(module, [f"{package}/{module}" for package in PACKAGES]):
        path = root / place
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            files.extend(sorted(path.rglob("*.swift")))
    return files


def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    return re.sub(r"//[^\n]*", "", text)


def check(root: pathlib.Path) -> list[str]:
    allowed = table((root / "docs/architecture.md").read_text())
    problems: list[str] = []
    if not allowed:
        return ["docs/architecture.md has no module table"]
    modules = {p.name for package in PACKAGES if (root / package).is_dir() for p in (root / package).iterdir() if p.is_dir()}
    modules |= {name for name, places in SOURCES.items() if any((root / place).exists() for place in places)}
    for module in sorted(modules - set(allowed)):
        problems.append(f"{module}: no row in docs/architecture.md's table")
    for module in sorted(set(allowed) - modules):
        problems.append(f"{module}: a row in docs/architecture.md's table, but no such module")
    for module in sorted(modules & set(allowed)):
        for path in swift_files(root, module):
            for name in IMPORT.findall(strip_comments(path.read_text())):
                if name != module and name not in allowed[module]:
                    problems.append(f"{path.relative_to(root)}: imports {name}, which {module} may not (docs/architecture.md)")
                for folder, refused in FOLDER_RULES.items():
                    if str(path.relative_to(root)).startswith(folder + "/") and name in refused:
                        problems.append(f"{path.relative_to(root)}: imports {name}; {folder} talks to services, not storage")
    return problems


def self_test() -> int:
    """A copy of the table and one module, with an import the table refuses: the check must fail."""
    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder)
        (root / "docs").mkdir()
        (root / "docs/architecture.md").write_text(
            "| module | job | may import |\n|---|---|---|\n| `EntitleCore` | the core | `AppStoreModels`, `Foundation` |\n")
        (root / "Sources/EntitleCore").mkdir(parents=True)
        (root / "Sources/EntitleCore/Fine.swift").write_text("import Foundation\n// import Hummingbird (a comment)\n")
        if check(root):
            print("self-test: the check refused a module that only imports what it may", file=sys.stderr)
            return 1
        (root / "Sources/EntitleCore/Wrong.swift").write_text("@preconcurrency import struct EntitleStorage.StorageError\n")
        problems = check(root)
        if problems != ["Sources/EntitleCore/Wrong.swift: imports EntitleStorage, which EntitleCore may not (docs/architecture.md)"]:
            print(f"self-test: a wrong import was not refused as it should be: {problems}", file=sys.stderr)
            return 1
    print("self-test: a wrong import fails the check")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    problems = check(ROOT)
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"imports: every module imports only what docs/architecture.md allows ({len(table((ROOT / 'docs/architecture.md').read_text()))} modules)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
