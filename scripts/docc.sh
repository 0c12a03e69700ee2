#!/usr/bin/env bash
# EntitleKit's DocC documentation, built with the toolchain's docc from the client package's symbol
# graph (the client package declares no plugin: it depends on swift-crypto alone), after checking that
# the graph's public API names only EntitleKit's own types (scripts/check-sdk-surface.py).
#
#   scripts/docc.sh [--warnings-as-errors] [--output-path DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
output="$work/EntitleKit.doccarchive"
flags=()
while [ $# -gt 0 ]; do
    case "$1" in
        --warnings-as-errors) flags+=(--warnings-as-errors); shift ;;
        --output-path) output="$2"; shift 2 ;;
        *) echo "usage: scripts/docc.sh [--warnings-as-errors] [--output-path DIR]" >&2; exit 2 ;;
    esac
done
# A build folder of its own (ENTITLE_DOCC_SCRATCH, .build-docc by default): the symbol-graph flags
# would otherwise make the client's own build compile everything again, and it this one. The graphs are
# kept there, so a module an incremental build doesn't compile again keeps its graph.
scratch=${ENTITLE_DOCC_SCRATCH:-$(pwd)/.build-docc}
graphs=$scratch/symbol-graphs
mkdir -p "$work/symbols" "$graphs"
swift build --scratch-path "$scratch" --target EntitleKit -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" >/dev/null
# An extension graph an earlier compile of EntitleKit wrote and this one didn't is stale (a compile writes a
# module's graphs within seconds of each other).
python3 - "$graphs" <<'PY'
import pathlib, sys
graphs = pathlib.Path(sys.argv[1])
main = (graphs / "EntitleKit.symbols.json").stat().st_mtime
for extension in graphs.glob("EntitleKit@*.symbols.json"):
    if extension.stat().st_mtime < main - 60:
        extension.unlink()
PY
cp "$graphs"/EntitleKit*.symbols.json "$work/symbols/"
python3 scripts/check-sdk-surface.py "$graphs"
docc convert Sources/EntitleKit/EntitleKit.docc --fallback-display-name EntitleKit --fallback-bundle-identifier com.entitle.EntitleKit \
    --additional-symbol-graph-dir "$work/symbols" --output-path "$output" "${flags[@]}"
echo "DocC: $output"
