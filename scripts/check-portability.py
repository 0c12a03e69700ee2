#!/usr/bin/env python3
"""Apple platforms by proxy: fails on an API a declared platform floor doesn't have, used outside a guard.

Nothing here compiles for macOS or iOS, so this reads what would: every Swift file of the three packages
(the client at the root, the server in server/ with its tests, server/Benchmarks), against the `platforms` each
package's manifest declares (the client: iOS, macOS, tvOS, watchOS, visionOS; the server and its
benchmarks: macOS 15).
It refuses

- an API newer than the floor (Synchronization's `Mutex`/`Atomic`: macOS 15, iOS 18, tvOS 18,
  watchOS 11, visionOS 2; Observation's `@Observable`: macOS 14, iOS 17, tvOS 17, watchOS 10,
  visionOS 1) outside an `@available`/`if #available`/`guard #available` that covers it, or an `#if`
  that leaves Apple platforms out;
- a glibc- or Linux-only API (`import Glibc`, `mallinfo2`, `malloc_trim`, the `CMalloc` module,
  `FoundationNetworking`, `prctl`, `epoll`) outside an `#if` that leaves Apple platforms out
  (`os(Linux)`, `canImport(Glibc)`, `!canImport(Darwin)`, `canImport(FoundationNetworking)`, …).

    python3 scripts/check-portability.py             # the repository's sources
    python3 scripts/check-portability.py --self-test # the check refuses an unguarded Mutex (and more)
"""
import pathlib
import re
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = {".": ["Sources"], "server": ["Sources", "Tests"], "server/Benchmarks": ["Sources"]}
PLATFORMS = ("macOS", "iOS", "tvOS", "watchOS", "visionOS")

# API: (pattern, what it is, {platform: first version})
VERSIONED = [
    (re.compile(r"\bMutex\s*<|\bMutex\s*\(|\bAtomic\s*<|\bimport\s+Synchronization\b"), "Synchronization (Mutex, Atomic)",
     {"macOS": 15, "iOS": 18, "tvOS": 18, "watchOS": 11, "visionOS": 2}),
    (re.compile(r"@Observable\b|\bimport\s+Observation\b"), "Observation (@Observable)",
     {"macOS": 14, "iOS": 17, "tvOS": 17, "watchOS": 10, "visionOS": 1}),
]
LINUX_ONLY = re.compile(
    r"\bimport\s+Glibc\b|\bmallinfo2?\s*\(|\bmalloc_trim\s*\(|\bimport\s+CMalloc\b|\bimport\s+FoundationNetworking\b|\bprctl\s*\(|\bepoll_")
# `#if` conditions under which no Apple platform compiles the code.
APPLE_EXCLUDED = re.compile(
    r"os\(Linux\)|os\(Windows\)|os\(Android\)|canImport\(Glibc\)|canImport\(Musl\)|!\s*canImport\(Darwin\)|canImport\(FoundationNetworking\)"
    r"|!\s*canImport\(StoreKit\)|!\s*os\(macOS\)\s*&&\s*!\s*os\(iOS\)")


def floors(manifest: str) -> dict[str, int]:
    found = {}
    for platform, version in re.findall(r"\.(macOS|iOS|tvOS|watchOS|visionOS)\(\.v(\d+)", manifest):
        found[platform] = int(version)
    # Only the platforms a package declares are its own (the server package declares macOS alone: it
    # is not built for iOS); a platform not declared is skipped (a floor no API is above).
    return {platform: found.get(platform, 10_000) for platform in PLATFORMS}


def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.DOTALL)
    text = re.sub(r"//[^\n]*", "", text)
    # String literals are blanked (a help text may name mallinfo2; a brace in one is not a scope).
    return re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text)


def availability_versions(text: str) -> dict[str, int]:
    versions = {}
    for platform, major in re.findall(r"\b(macOS|iOS|tvOS|watchOS|visionOS)\s+(\d+)", text):
        versions[platform] = int(major)
    return versions


def covers(versions: dict[str, int], needed: dict[str, int], floor: dict[str, int]) -> bool:
    """An availability covers an API when, for every platform whose floor is below it, it asks at least as much."""
    return all(floor[p] >= needed[p] or versions.get(p, 0) >= needed[p] for p in PLATFORMS)


def problems_in(path: pathlib.Path, display: str, floor: dict[str, int]) -> list[str]:
    text = strip_comments(path.read_text())
    problems = []
    conditions: list[bool] = []  # per open #if: does it leave Apple platforms out?
    scopes: list[dict[str, int]] = [{}]  # availability in force per brace depth
    pending: dict[str, int] = {}  # an @available or #available waiting for its brace
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("#if"):
            conditions.append(bool(APPLE_EXCLUDED.search(stripped)))
            continue
        if stripped.startswith("#elseif"):
            if conditions:
                conditions[-1] = bool(APPLE_EXCLUDED.search(stripped))
            continue
        if stripped.startswith("#else"):
            if conditions:
                # The other branch of an Apple-excluding #if is Apple's own; of anything else, unknown (checked).
                conditions[-1] = False
            continue
        if stripped.startswith("#endif"):
            if conditions:
                conditions.pop()
            continue
        excluded = any(conditions)
        if "@available(" in stripped or "#available(" in stripped:
            found = availability_versions(stripped)
            if stripped.startswith("guard"):
                scopes[-1] = {**scopes[-1], **found}
            else:
                pending = {**pending, **found}
        in_force = scopes[-1]
        if not excluded:
            for pattern, name, needed in VERSIONED:
                if pattern.search(line) and not covers({**in_force, **pending}, needed, floor):
                    asked = ", ".join(f"{p} {needed[p]}" for p in PLATFORMS if floor[p] < needed[p])
                    problems.append(f"{display}:{number}: {name} needs {asked}, above the package's floor, and is not guarded")
            if LINUX_ONLY.search(line):
                problems.append(f"{display}:{number}: a glibc/Linux-only API ({LINUX_ONLY.search(line).group(0)}) outside an #if that leaves Apple platforms out")
        for character in line:
            if character == "{":
                scopes.append({**scopes[-1], **pending})
                pending = {}
            elif character == "}" and len(scopes) > 1:
                scopes.pop()
    return problems


def check(root: pathlib.Path) -> list[str]:
    problems = []
    for package, folders in PACKAGES.items():
        manifest = root / package / "Package.swift"
        if not manifest.exists():
            continue
        floor = floors(manifest.read_text())
        for folder in folders:
            for path in sorted((root / package / folder).rglob("*.swift")):
                problems += problems_in(path, str(path.relative_to(root)), floor)
    return problems


def self_test() -> int:
    cases = {
        "Mutex unguarded": ("import Synchronization\nlet lock = Mutex<Int>(0)\n", 2),
        "Mutex in an @available type": ("@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)\nfinal class A {\n    let lock = Mutex<Int>(0)\n}\n", 0),
        "Mutex after the type closed": ("@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)\nfinal class A {\n}\nlet lock = Mutex<Int>(0)\n", 1),
        "Mutex under #if os(Linux)": ("#if os(Linux)\nimport Synchronization\nlet lock = Mutex<Int>(0)\n#endif\n", 0),
        "Mutex in the #else of #if os(Linux)": ("#if os(Linux)\n#else\nlet lock = Mutex<Int>(0)\n#endif\n", 1),
        "Mutex covered for macOS only": ("@available(macOS 15.0, *)\nfinal class A {\n    let lock = Mutex<Int>(0)\n}\n", 1),
        "mallinfo2 unguarded": ("let info = mallinfo2()\n", 1),
        "mallinfo2 under canImport(Glibc)": ("#if canImport(Glibc)\nimport Glibc\nlet info = mallinfo2()\n#endif\n", 0),
        "a comment": ("// Mutex<Int> would need macOS 15\n", 0),
    }
    failed = 0
    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder)
        (root / "Package.swift").write_text("platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)]\n")
        (root / "Sources/M").mkdir(parents=True)
        for name, (source, expected) in cases.items():
            for old in (root / "Sources/M").iterdir():
                old.unlink()
            (root / "Sources/M/File.swift").write_text(source)
            found = check(root)
            if len(found) != expected:
                print(f"self-test: {name}: expected {expected} problem(s), found {found}", file=sys.stderr)
                failed += 1
    if failed:
        return 1
    print(f"self-test: {len(cases)} cases, an unguarded Mutex (and a glibc-only call) refused, guarded ones accepted")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    problems = check(ROOT)
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    if problems:
        return 1
    print("portability: no API above a package's platform floor or glibc-only outside a guard")
    return 0


if __name__ == "__main__":
    sys.exit(main())
