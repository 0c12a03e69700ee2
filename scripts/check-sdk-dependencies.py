#!/usr/bin/env python3
"""Checks that the EntitleKit product links no server dependency: from `swift package describe --type json`
on stdin, the targets and products EntitleKit reaches must include none of Hummingbird, NIO, SQLite,
PostgreSQL, swift-certificates, AsyncHTTPClient or ServiceLifecycle. Exits 1 naming what it found."""
import json
import sys

FORBIDDEN = ("Hummingbird", "NIO", "SQLite", "Postgres", "X509", "AsyncHTTPClient", "ServiceLifecycle", "EntitleServer",
             "EntitleStorage", "AppStoreVerification", "LocalAppStore")
package = json.load(sys.stdin)
targets = {target["name"]: target for target in package["targets"]}
reached, products, stack = set(), set(), ["EntitleKit"]
while stack:
    name = stack.pop()
    if name in reached:
        continue
    reached.add(name)
    target = targets[name]
    products.update(target.get("product_dependencies", []))
    stack.extend(target.get("target_dependencies", []))
found = sorted(name for name in reached | products if any(word in name for word in FORBIDDEN))
print(f"EntitleKit reaches targets {sorted(reached)} and products {sorted(products)}")
if found:
    print(f"error: EntitleKit links server dependencies: {', '.join(found)}", file=sys.stderr)
    sys.exit(1)
