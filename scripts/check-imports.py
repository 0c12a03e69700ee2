#!/usr/bin/env python3
"""Checks every module's imports against the table of docs/architecture.md, and against the manifests.

The table's first column names a module (or several, comma-separated), its third the modules it may
import, each in backticks. Every Swift file of a module is read; an `import` of a module the table
does not allow, a module with no row, or a row naming a module that doesn't exist fails the check.

With --manifests, each import must also be declared by its target in Package.swift (the client's and the
server's, as `swift package dump-package` reads them): the module is the target itself, a target it
depends on, or a module of a product it depends on (the products' targets, read from the dependency's
own manifest). A module only reachable through another (swift-nio's NIOCore through Hummingbird) or a
package's internal module (sqlite-nio's VaporCSQLite) fails. The toolchain's and Apple's SDK modules
pass.

    python3 scripts/check-imports.py              # the repository's sources against the table
    python3 scripts/check-imports.py --manifests  # ... and against Package.swift (resolves the packages)
    python3 scripts/check-imports.py --self-test  # the checks fail on a wrong, an undeclared and an internal import
"""
import concurrent.futures
import hashlib
import json
import os
import pathlib
import re
import subprocess
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

# What the toolchain and Apple's SDKs provide: never declared in a manifest.
SYSTEM = {
    "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking", "Dispatch", "Glibc", "Musl",
    "Darwin", "Synchronization", "Observation", "Testing", "XCTest", "StoreKit", "UIKit", "AppKit", "SwiftUI", "os", "Swift",
    "_Concurrency", "CryptoKit", "Security", "Combine",
}

# Folders held to less than their module's row: controllers talk to services, never to storage.
FOLDER_RULES = {
    "server/Sources/EntitleServer/Controllers": {"EntitleStorage", "PostgresNIO", "CSQLite"},
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


def dump(package: pathlib.Path) -> dict:
    result = subprocess.run(
        ["swift", "package", "dump-package", "--package-path", str(package)], capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def manifest_problems(root: pathlib.Path, manifests: dict[str, dict], products_of) -> list[str]:
    """`manifests`: each package's folder (relative to `root`) and its dump; `products_of(package, name)`:
    the modules of product `name` of the dependency `package` (as a product tuple names it)."""
    problems: list[str] = []
    for folder, manifest in manifests.items():
        own = {target["name"] for target in manifest["targets"]}
        for target in manifest["targets"]:
            if target["type"] in ("system", "binary", "plugin", "macro"):
                continue
            declared = {target["name"]}
            for dependency in target["dependencies"]:
                kind, value = next(iter(dependency.items()))
                if kind in ("target", "byName"):
                    declared.add(value[0])
                    if value[0] not in own:
                        declared |= products_of(None, value[0])
                elif kind == "product":
                    declared |= products_of(value[1], value[0])
            base = root / folder
            place = target.get("path") or f"{'Tests' if target['type'] == 'test' else 'Sources'}/{target['name']}"
            path = base / place
            roots = [path / source for source in target.get("sources") or []] or [path]
            excluded = [path / item for item in target.get("exclude") or []]
            files = [
                file for entry in roots
                for file in ([entry] if entry.is_file() else sorted(entry.rglob("*.swift")) if entry.is_dir() else [])
                if not any(file == item or item in file.parents for item in excluded)
            ]
            for file in files:
                for name in IMPORT.findall(strip_comments(file.read_text())):
                    if name not in declared and name not in SYSTEM:
                        problems.append(
                            f"{file.relative_to(root)}: imports {name}, which target {target['name']} does not declare in {folder}/Package.swift")
    return problems


def check_manifests(root: pathlib.Path) -> list[str]:
    packages = {".": root, "server": root / "server"}
    # The server's build folder: scripts/test.sh's (ENTITLE_SERVER_SCRATCH), else the package's own.
    scratch = pathlib.Path(os.environ.get("ENTITLE_SERVER_SCRATCH") or root / "server/.build")
    subprocess.run(
        ["swift", "package", "resolve", "--package-path", str(root / "server"), "--scratch-path", str(scratch)], capture_output=True, check=True)
    checkouts = scratch / "checkouts"
    # Each manifest is compiled and run by `swift package`: side by side, on every core.
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        manifests = dict(zip(packages, pool.map(dump, packages.values())))
        named = {
            dependency["product"][1].lower()
            for manifest in manifests.values() for target in manifest["targets"] for dependency in target["dependencies"]
            if "product" in dependency and dependency["product"][1]
        }
        wanted = sorted(name for name in named if (checkouts / name / "Package.swift").is_file())
        # A dependency's manifest is read again only when it changed (a new version checked out).
        cache_file = scratch / "import-check-manifests.json"
        try:
            cache = json.loads(cache_file.read_text())
        except (OSError, ValueError):
            cache = {}
        digests = {name: hashlib.sha256((checkouts / name / "Package.swift").read_bytes()).hexdigest() for name in wanted}
        stale = [name for name in wanted if cache.get(name, {}).get("digest") != digests[name]]
        for name, manifest in zip(stale, pool.map(dump, [checkouts / name for name in stale])):
            cache[name] = {"digest": digests[name], "manifest": manifest}
        if stale:
            try:
                cache_file.write_text(json.dumps(cache))
            except OSError:
                pass
        dumped = {name: cache[name]["manifest"] for name in wanted}

    def dependency(name: str) -> dict | None:
        key = name.lower()
        if key in ("entitle", root.name.lower()):
            return manifests["."]
        return dumped.get(key, {"products": [], "targets": []})

    def products_of(package: str | None, name: str) -> set[str]:
        candidates = [dependency(package)] if package else []
        for manifest in candidates:
            for product in manifest.get("products", []):
                if product["name"] == name:
                    return set(product["targets"])
        return set()

    return manifest_problems(root, manifests, products_of)


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
    manifest = {"targets": [{"name": "EntitleStorage", "type": "regular", "path": None, "dependencies": [
        {"product": ["SQLiteNIO", "sqlite-nio", None, None]}, {"byName": ["EntitleCore", None]}]}, {"name": "EntitleCore", "type": "regular", "path": None, "dependencies": []}]}
    sqlite = {"SQLiteNIO": {"SQLiteNIO"}}
    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder)
        (root / "Sources/EntitleStorage").mkdir(parents=True)
        (root / "Sources/EntitleCore").mkdir(parents=True)
        (root / "Sources/EntitleStorage/Fine.swift").write_text("import SQLiteNIO\nimport EntitleCore\nimport Foundation\n")
        products = lambda package, name: sqlite.get(name, set()) if package == "sqlite-nio" else set()
        if manifest_problems(root, {".": manifest}, products):
            print("self-test: the manifest check refused declared imports", file=sys.stderr)
            return 1
        for wrong, why in [("import VaporCSQLite\n", "an internal module"), ("import NIOCore\n", "an undeclared module")]:
            (root / "Sources/EntitleStorage/Wrong.swift").write_text(wrong)
            if len(manifest_problems(root, {".": manifest}, products)) != 1:
                print(f"self-test: {why} was not refused", file=sys.stderr)
                return 1
    print("self-test: an undeclared and an internal import fail the manifest check")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    problems = check(ROOT)
    if "--manifests" in sys.argv[1:]:
        problems += check_manifests(ROOT)
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"imports: every module imports only what docs/architecture.md allows ({len(table((ROOT / 'docs/architecture.md').read_text()))} modules)")
    if "--manifests" in sys.argv[1:]:
        print("imports: every import is declared by its target in Package.swift, none another package's internal module")
    return 0


if __name__ == "__main__":
    sys.exit(main())
