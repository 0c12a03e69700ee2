#!/usr/bin/env bash
# Runs every test of Entitle on a fresh Debian machine with Swift 6.1 or later, installing what the
# tests need first. Exits non-zero when anything fails, including a compiler warning in Entitle's code.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\n== %s\n' "$*"; }

if ! command -v swift >/dev/null 2>&1; then
    echo "error: swift is not on PATH; install Swift 6.1 or later from swift.org" >&2
    exit 1
fi

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# The document checks need python3 with jsonschema and openapi-spec-validator.
if ! python3 -c 'import jsonschema, openapi_spec_validator' >/dev/null 2>&1; then
    log "installing python3 jsonschema and openapi-spec-validator"
    if ! command -v python3 >/dev/null 2>&1; then
        as_root apt-get update -qq && as_root apt-get install -y -qq --no-install-recommends python3 python3-pip >/dev/null
    fi
    python3 -m pip install --quiet jsonschema openapi-spec-validator 2>/dev/null \
        || python3 -m pip install --quiet --break-system-packages jsonschema openapi-spec-validator
fi

# PostgreSQL for the storage suite: a throwaway cluster on loopback, started before the build so the
# environment (ENTITLE_TEST_POSTGRES_URL) is the same for building and testing.
source scripts/postgres-cluster.sh
build_log=$(mktemp)
trap 'postgres_cluster_stop; rm -f "$build_log"' EXIT
postgres_cluster_start

log "build (warnings in Entitle's own code fail the run)"
swift build --build-tests 2>&1 | tee "$build_log"
if grep -E "^$(pwd)/(Sources|Tests)/.*: warning:" "$build_log"; then
    echo "error: the build has warnings in Entitle's code (above)" >&2
    exit 1
fi

log "documents: entitlements files against their schema, docs/openapi.json as OpenAPI 3.1"
python3 scripts/check-schema.py

log "swift test"
swift test --skip-build
