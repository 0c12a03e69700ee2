#!/usr/bin/env python3
"""Checks that EntitleKit's public API is its own: no public declaration of EntitleKit names a type of
EntitleWire, EntitleCore or AppStoreModels (an app reads EntitleKit's types, never the wire's), and
EntitleKit extends none of their types publicly. The one knob from EntitleAPI an app may set is the HTTP
transport (`HTTPTransport`).

Reads the symbol graph swift emits for EntitleKit (scripts/docc.sh makes it):

    python3 scripts/check-sdk-surface.py SYMBOL_GRAPH_DIR
    python3 scripts/check-sdk-surface.py --self-test   # the check fails on a wire type in the API
"""
import json
import pathlib
import re
import sys
import tempfile

FOREIGN = {"EntitleWire", "EntitleCore", "AppStoreModels", "EntitleAPI"}
ALLOWED = {("EntitleAPI", "HTTPTransport")}
MANGLED = re.compile(r"^s:(\d+)([A-Za-z_][A-Za-z0-9_]*)")


def module_of(identifier: str) -> str | None:
    match = MANGLED.match(identifier)
    if not match:
        return None
    length = int(match.group(1))
    return match.group(2)[:length] if len(match.group(2)) >= length else None


def check(folder: pathlib.Path) -> list[str]:
    graph_file = folder / "EntitleKit.symbols.json"
    if not graph_file.is_file():
        return [f"{graph_file} is missing"]
    problems = []
    for extension in sorted(folder.glob("EntitleKit@*.symbols.json")):
        extended = extension.name.split("@", 1)[1].removesuffix(".symbols.json")
        if extended in FOREIGN and json.loads(extension.read_text()).get("symbols"):
            problems.append(f"EntitleKit extends {extended}'s types publicly ({extension.name})")
    graph = json.loads(graph_file.read_text())
    for symbol in graph.get("symbols", []):
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        path = ".".join(symbol.get("pathComponents", []))
        for fragment in symbol.get("declarationFragments", []):
            module = module_of(fragment.get("preciseIdentifier", ""))
            if module in FOREIGN and (module, fragment.get("spelling")) not in ALLOWED:
                problems.append(f"{path}: {module}.{fragment.get('spelling')} in EntitleKit's public API")
    return sorted(set(problems))


def self_test() -> int:
    def graph(fragments: list[dict]) -> dict:
        return {"symbols": [{"accessLevel": "public", "pathComponents": ["Entitle", "access(_:)"], "declarationFragments": fragments}]}

    cases = [
        ("a wire type", [{"kind": "typeIdentifier", "spelling": "AccessResponse", "preciseIdentifier": "s:11EntitleWire14AccessResponseV"}], 1),
        ("a core type", [{"kind": "typeIdentifier", "spelling": "PaywallEvent", "preciseIdentifier": "s:11EntitleCore12PaywallEventV"}], 1),
        ("EntitleKit's own", [{"kind": "typeIdentifier", "spelling": "Access", "preciseIdentifier": "s:10EntitleKit6AccessV"}], 0),
        ("the transport", [{"kind": "typeIdentifier", "spelling": "HTTPTransport", "preciseIdentifier": "s:10EntitleAPI13HTTPTransportP"}], 0),
        ("Foundation", [{"kind": "typeIdentifier", "spelling": "Date", "preciseIdentifier": "s:10Foundation4DateV"}], 0),
    ]
    failed = 0
    for name, fragments, expected in cases:
        with tempfile.TemporaryDirectory() as work:
            folder = pathlib.Path(work)
            (folder / "EntitleKit.symbols.json").write_text(json.dumps(graph(fragments)))
            found = len(check(folder))
            if found != expected:
                print(f"self-test: {name}: {found} problems, expected {expected}")
                failed += 1
    with tempfile.TemporaryDirectory() as work:
        folder = pathlib.Path(work)
        (folder / "EntitleKit.symbols.json").write_text(json.dumps({"symbols": []}))
        (folder / "EntitleKit@EntitleWire.symbols.json").write_text(json.dumps({"symbols": [{"accessLevel": "public"}]}))
        if len(check(folder)) != 1:
            print("self-test: a public extension of a wire type passed")
            failed += 1
    print(f"sdk surface self-test: {len(cases) + 1 - failed} of {len(cases) + 1} cases as expected")
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    found = check(pathlib.Path(sys.argv[1]))
    for problem in found:
        print(problem)
    if found:
        sys.exit(1)
    print("sdk surface: EntitleKit's public API names only its own types (and the HTTP transport)")
