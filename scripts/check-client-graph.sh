#!/usr/bin/env bash
# The client package as an app adds it: a throwaway consumer package that depends on the repository's
# root by path and links EntitleKit is resolved, its dependency graph printed, and the check fails when
# the graph holds anything but the client package, swift-crypto and what swift-crypto itself declares.
#
#   scripts/check-client-graph.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/App/Sources/App"
cat > "$work/App/Package.swift" <<EOF
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.iOS(.v17), .macOS(.v14)],
    dependencies: [.package(name: "Entitle", path: "$root")],
    targets: [.target(name: "App", dependencies: [.product(name: "EntitleKit", package: "Entitle")])]
)
EOF
printf 'import EntitleKit\n' > "$work/App/Sources/App/App.swift"
swift package --package-path "$work/App" --scratch-path "$work/.build" resolve >/dev/null
swift package --package-path "$work/App" --scratch-path "$work/.build" show-dependencies
swift package --package-path "$work/App" --scratch-path "$work/.build" show-dependencies --format json >"$work/graph.json"
python3 - "$work/graph.json" <<'PY'
import json, sys
graph = json.load(open(sys.argv[1]))
clients = graph["dependencies"]
if len(clients) != 1:
    sys.exit(f"error: the consumer resolved {[node['identity'] for node in clients]}, not the client package alone")
client = clients[0]
direct = sorted(node["identity"] for node in client["dependencies"])
if direct != ["swift-crypto"]:
    sys.exit(f"error: the client package depends on {direct}: only swift-crypto is allowed")
def names(node):
    yield node["identity"]
    for child in node["dependencies"]:
        yield from names(child)
crypto = client["dependencies"][0]
brought = sorted(set(names(crypto)) - {"swift-crypto"})
total = sorted(set(names(client)))
print(f"client graph: {client['identity']} -> swift-crypto" + (f" (which itself declares {', '.join(brought)})" if brought else "")
      + f"; {len(total)} packages in all")
PY
