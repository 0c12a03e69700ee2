#!/usr/bin/env python3
"""Validates every example's entitlements.json against docs/entitlements.schema.json, and checks that the
schema rejects the deliberately broken fixture, so the published schema and the files stay in step."""
import json
import pathlib
import sys

import jsonschema

root = pathlib.Path(__file__).resolve().parent.parent
schema = json.loads((root / "docs/entitlements.schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)

failed = 0
examples = sorted((root / "Examples").glob("*/entitlements.json"))
for path in examples:
    errors = list(validator.iter_errors(json.loads(path.read_text())))
    for error in errors:
        print(f"{path.relative_to(root)}: {'/'.join(map(str, error.path))}: {error.message}")
    failed += bool(errors)

broken = root / "Tests/Fixtures/Catalogs/Broken/entitlements.json"
broken_errors = list(validator.iter_errors(json.loads(broken.read_text())))
if not broken_errors:
    print(f"{broken.relative_to(root)}: the schema accepts it, but it must be rejected")
    failed += 1

print(f"{len(examples) - failed + (1 if broken_errors else 0)} passed, {failed} failed")
sys.exit(1 if failed else 0)
