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
mkdir -p "$work/symbols"
swift build --scratch-path "${ENTITLE_CLIENT_SCRATCH:-.build}" --target EntitleKit -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$work/all" >/dev/null
cp "$work/all"/EntitleKit*.symbols.json "$work/symbols/"
python3 scripts/check-sdk-surface.py "$work/all"
docc convert Sources/EntitleKit/EntitleKit.docc --fallback-display-name EntitleKit --fallback-bundle-identifier com.entitle.EntitleKit \
    --additional-symbol-graph-dir "$work/symbols" --output-path "$output" "${flags[@]}"
echo "DocC: $output"
