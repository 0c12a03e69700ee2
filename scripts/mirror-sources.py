#!/usr/bin/env python3
"""Makes DEST an exact copy of the files git tracks in SRC (and the new files it doesn't ignore), rewriting only the files whose content
differs (so an unchanged file keeps its time, and an incremental build sees only what changed) and
deleting the files DEST has that SRC doesn't track. Modes (the executable bit) and symbolic links are
copied as they are. Prints how many files it wrote and deleted.

    python3 scripts/mirror-sources.py SRC DEST
    python3 scripts/mirror-sources.py --self-test
"""
import os
import pathlib
import shutil
import stat
import subprocess
import sys
import tempfile


def tracked(source: pathlib.Path) -> list[str]:
    # Tracked files and new ones git doesn't ignore: a working tree's uncommitted files are copied too.
    listing = subprocess.run(
        ["git", "-C", str(source), "ls-files", "-z", "--cached", "--others", "--exclude-standard"], capture_output=True, check=True).stdout
    return [name for name in listing.decode().split("\0") if name]


def mirror(source: pathlib.Path, destination: pathlib.Path) -> tuple[int, int]:
    names = [name for name in tracked(source) if (source / name).is_symlink() or (source / name).is_file()]
    wanted = set(names)
    written = 0
    rewritten = []
    manifests = []
    for name in names:
        origin, target = source / name, destination / name
        if origin.is_symlink():
            link = os.readlink(origin)
            if not (target.is_symlink() and os.readlink(target) == link):
                if target.exists() or target.is_symlink():
                    target.unlink()
                target.parent.mkdir(parents=True, exist_ok=True)
                os.symlink(link, target)
                written += 1
            continue
        if not origin.is_file():
            continue  # a submodule or a file deleted in the working tree
        content = origin.read_bytes()
        mode = stat.S_IMODE(origin.stat().st_mode)
        if target.is_symlink() or target.is_dir():
            shutil.rmtree(target) if target.is_dir() and not target.is_symlink() else target.unlink()
        if not target.is_file() or target.read_bytes() != content:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
            written += 1
            rewritten.append(name)
            if target.name == "Package.swift":
                manifests.append(target.parent)
        if stat.S_IMODE(target.stat().st_mode) != mode:
            target.chmod(mode)
    # SwiftPM compiles a C file again when it changes, not when its package's manifest changes its
    # defines (cSettings): a rewritten manifest makes its package's C sources new again.
    for package in manifests:
        for name in names:
            path = destination / name
            if name.endswith(".c") and path.is_file() and not path.is_symlink() and package in path.parents:
                os.utime(path)
    # The Swift driver compiles a client of EntitleKit again when EntitleKit's interface changes, not when
    # only the layout of a struct it holds from another module does (a field added to EntitleWire's
    # SubscriberResponse changes CustomerInfo's size): the sample app, linked with the new EntitleKit,
    # then crashes copying a CustomerInfo. A rewritten source of the client's modules makes the server
    # package's EntitleKit clients new again.
    if any(name.startswith("Sources/") and name.endswith(".swift") for name in rewritten):
        for name in names:
            path = destination / name
            if name.startswith("server/") and name.endswith(".swift") and path.is_file() and not path.is_symlink():
                if b"import EntitleKit" in path.read_bytes():
                    os.utime(path)
    deleted = 0
    if destination.is_dir():
        for folder, subfolders, files in os.walk(destination, topdown=False):
            for file in files:
                path = pathlib.Path(folder) / file
                if str(path.relative_to(destination)) not in wanted:
                    path.unlink()
                    deleted += 1
            for subfolder in subfolders:
                path = pathlib.Path(folder) / subfolder
                if path.is_symlink():
                    if str(path.relative_to(destination)) not in wanted:
                        path.unlink()
                        deleted += 1
                elif not any(path.iterdir()):
                    path.rmdir()
    return written, deleted


def self_test() -> int:
    with tempfile.TemporaryDirectory() as work:
        source, destination = pathlib.Path(work, "src"), pathlib.Path(work, "dst")
        source.mkdir()
        run = lambda *args: subprocess.run(["git", "-C", str(source), *args], capture_output=True, check=True)
        run("init", "-q")
        (source / "a.swift").write_text("let a = 1\n")
        (source / "tool.sh").write_text("#!/bin/sh\n")
        (source / "tool.sh").chmod(0o755)
        (source / "Sub").mkdir()
        (source / "Sub/b.swift").write_text("let b = 1\n")
        run("add", "-A")
        if mirror(source, destination) != (3, 0):
            print("self-test: the first mirror did not write every file")
            return 1
        (source / "Sub/b.swift").write_text("let b = 2\n")
        (source / "a.swift").unlink()
        run("add", "-A")
        (destination / "stray.o").write_text("left by a test")
        (source / "New.swift").write_text("let new = 1\n")
        result = mirror(source, destination)
        checks = [
            (result == (2, 2), f"two files written (a changed one, an untracked one) and two deleted, got {result}"),
            ((destination / "New.swift").is_file(), "a file git doesn't track yet is copied"),
            ((destination / "Sub/b.swift").read_text() == "let b = 2\n", "the changed file is rewritten"),
            (not (destination / "a.swift").exists() and not (destination / "stray.o").exists(), "the removed and the stray files are deleted"),
            (os.access(destination / "tool.sh", os.X_OK), "the executable bit is kept"),
        ]
        (source / "a.swift").write_text("let a = 1\n")
        run("add", "-A")
        mirror(source, destination)
        unchanged_before = (destination / "tool.sh").stat().st_mtime_ns
        mirror(source, destination)
        checks.append(((destination / "tool.sh").stat().st_mtime_ns == unchanged_before, "an unchanged file keeps its time"))
        (source / "Sub/c.c").write_text("int c;\n")
        (source / "Package.swift").write_text("// 1\n")
        run("add", "-A")
        mirror(source, destination)
        os.utime(destination / "Sub/c.c", ns=(1, 1))
        mirror(source, destination)
        checks.append(((destination / "Sub/c.c").stat().st_mtime_ns == 1, "an unchanged manifest leaves the C sources as they are"))
        (source / "Package.swift").write_text("// 2\n")
        mirror(source, destination)
        checks.append(((destination / "Sub/c.c").stat().st_mtime_ns > 1, "a changed manifest makes its package's C sources new (their defines may have changed)"))
        (source / "Sources/Kit").mkdir(parents=True)
        (source / "Sources/Kit/Info.swift").write_text("struct Info { var a = 1 }\n")
        (source / "server/App").mkdir(parents=True)
        (source / "server/App/main.swift").write_text("import EntitleKit\n")
        (source / "server/App/other.swift").write_text("import Foundation\n")
        run("add", "-A")
        mirror(source, destination)
        for name in ["server/App/main.swift", "server/App/other.swift"]:
            os.utime(destination / name, ns=(1, 1))
        (source / "Sources/Kit/Info.swift").write_text("struct Info { var a = 1; var b = 2 }\n")
        mirror(source, destination)
        checks.append(((destination / "server/App/main.swift").stat().st_mtime_ns > 1, "a changed client module makes EntitleKit's clients new"))
        checks.append(((destination / "server/App/other.swift").stat().st_mtime_ns == 1, "and leaves the other sources as they are"))
        failed = [message for ok, message in checks if not ok]
        for message in failed:
            print(f"self-test: {message}")
        print(f"mirror self-test: {len(checks) - len(failed)} of {len(checks)} checks as expected")
        return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    written, deleted = mirror(pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2]))
    print(f"sources mirrored: {written} files written, {deleted} deleted")
