#!/usr/bin/env python3
"""Validates every example's entitlements.json against docs/entitlements.schema.json, checks that the
schema rejects the deliberately broken fixture, and validates docs/openapi.json as OpenAPI 3.1, so the
published documents and the code stay in step."""
import json
import pathlib
import sys

import jsonschema

root = pathlib.Path(__file__).resolve().parent.parent
schema = json.loads((root / "docs/entitlements.schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)

failed = 0
examples = sorted((root / "server/Examples").glob("*/entitlements.json"))
for path in examples:
    errors = list(validator.iter_errors(json.loads(path.read_text())))
    for error in errors:
        print(f"{path.relative_to(root)}: {'/'.join(map(str, error.path))}: {error.message}")
    failed += bool(errors)

broken = root / "server/Tests/Fixtures/Catalogs/Broken/entitlements.json"
broken_errors = list(validator.iter_errors(json.loads(broken.read_text())))
if not broken_errors:
    print(f"{broken.relative_to(root)}: the schema accepts it, but it must be rejected")
    failed += 1

# The OpenAPI document must itself be valid OpenAPI 3.1.
try:
    from openapi_spec_validator import validate as validate_openapi
    validate_openapi(json.loads((root / "docs/openapi.json").read_text()))
    openapi_ok = 1
except ImportError:
    print("openapi-spec-validator is not installed")
    openapi_ok = 0
    failed += 1
except Exception as error:  # the validator raises its own error types
    print(f"docs/openapi.json: {error}")
    openapi_ok = 0
    failed += 1

print(f"{len(examples) - failed + (1 if broken_errors else 0) + openapi_ok} passed, {failed} failed")
sys.exit(1 if failed else 0)
