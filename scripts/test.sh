#!/usr/bin/env bash
# Runs every test of Entitle on a fresh Debian machine with Swift 6.1 or later, installing what the
# tests need first. Exits non-zero when anything fails, including a compiler warning in Entitle's code.
set -euo pipefail
cd "$(dirname "$0")/.."

# The build cache. Both packages build in a folder kept between runs (ENTITLE_BUILD_CACHE,
# ~/.cache/entitle-build by default; one per toolchain and `cache_epoch`, raised to start every machine
# cold; the two newest kept), from a copy of the clone's tracked files there
# (scripts/mirror-sources.py), in which only the files whose content changed since the last run are
# rewritten: SwiftPM's incremental build then compiles what changed and what depends on it, the
# dependencies (swift-nio, BoringSSL twice, SQLite, Hummingbird…) once per toolchain, and the fuzz
# targets' instrumented build the same way. Every check runs on that copy, which is the clone's content
# byte for byte. One run at a time uses a cache folder (a lock). ENTITLE_BUILD_CACHE=off builds in the
# clone from scratch (server/.build and .build), as a machine without the cache does.
cache_epoch=1
if [ "${ENTITLE_BUILD_CACHE:-}" = off ] || ! command -v python3 >/dev/null 2>&1 || ! command -v git >/dev/null 2>&1; then
    server_scratch=$(pwd)/server/.build
    client_scratch=$(pwd)/.build
    fuzz_scratch=$server_scratch
elif [ -z "${ENTITLE_MIRRORED_FROM:-}" ]; then
    cache_root=${ENTITLE_BUILD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/entitle-build}
    cache_key=$({ swift --version 2>&1; echo "epoch $cache_epoch"; } | sha256sum | cut -c1-16)
    mkdir -p "$cache_root/$cache_key"
    exec 9>"$cache_root/$cache_key/lock"
    flock 9
    touch "$cache_root/$cache_key"
    # Folders of other toolchains or epochs, but the newest, unless a run holds them.
    ls -1dt "$cache_root"/*/ | tail -n +3 | while read -r stale; do
        ( flock -n 8 && rm -rf "$stale" ) 8>"$stale/lock" || true
    done
    python3 scripts/mirror-sources.py . "$cache_root/$cache_key/src"
    export ENTITLE_MIRRORED_FROM=$(pwd) ENTITLE_CACHE_FOLDER=$cache_root/$cache_key
    exec "$cache_root/$cache_key/src/scripts/test.sh" "$@"
else
    server_scratch=$ENTITLE_CACHE_FOLDER/server
    client_scratch=$ENTITLE_CACHE_FOLDER/client
    # The fuzz targets' instrumented build in a folder of its own: built over the server's, it would leave
    # Entitle's modules instrumented there, and each run would compile them again twice.
    fuzz_scratch=$ENTITLE_CACHE_FOLDER/fuzz
    export ENTITLE_DOCC_SCRATCH=$ENTITLE_CACHE_FOLDER/docc
fi

# Each step's duration is printed when the next one starts, and every step's at the end (or on failure).
step_name=""
step_started=$SECONDS
step_times=()
close_step() {
    [ -n "$step_name" ] && step_times+=("$(printf '%5ds  %s' $((SECONDS - step_started)) "$step_name")")
    step_name=""
}
log() {
    close_step
    step_name="$*"
    step_started=$SECONDS
    printf '\n== %s  (%ds in)\n' "$*" "$SECONDS"
}
print_step_times() {
    close_step
    [ ${#step_times[@]} -gt 0 ] || return 0
    printf '\n== step durations (total %ds)\n' "$SECONDS"
    printf '%s\n' "${step_times[@]}"
}

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

# The dashboard check needs Debian's Chromium, its driver, and Selenium.
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    log "installing chromium and chromium-driver"
    as_root apt-get update -qq && as_root apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
fi
if ! python3 -c 'import selenium' >/dev/null 2>&1; then
    log "installing python3 selenium"
    python3 -m pip install --quiet selenium 2>/dev/null || python3 -m pip install --quiet --break-system-packages selenium
fi

# The alert rules need promtool (Debian's prometheus package ships it; its daemon is not used).
if ! command -v promtool >/dev/null 2>&1; then
    log "installing prometheus (for promtool)"
    as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends prometheus >/dev/null
fi

# The contract check needs schemathesis (PyPI).
if ! python3 -c 'import schemathesis' >/dev/null 2>&1; then
    log "installing python3 schemathesis"
    python3 -m pip install --quiet schemathesis 2>/dev/null || python3 -m pip install --quiet --break-system-packages schemathesis
fi

# Build folders (set at the top, where the run moved into the build cache).
export ENTITLE_SERVER_SCRATCH=$server_scratch ENTITLE_CLIENT_SCRATCH=$client_scratch
printf 'sources: %s; build folders: %s, %s\n' "$(pwd)" "$server_scratch" "$client_scratch"

# PostgreSQL for the storage suite: a throwaway cluster on loopback, started before the build so the
# environment (ENTITLE_TEST_POSTGRES_URL) is the same for building and testing.
source scripts/postgres-cluster.sh
build_log=$(mktemp)
test_log=$(mktemp)
watchdog_pid=
demo_folder=$(mktemp -d)
demo_pid=
receiver_pid=
fuzz_build_pid=
fuzz_pid=
cleanup() {
    print_step_times
    if [ -n "$fuzz_build_pid" ]; then kill "$fuzz_build_pid" 2>/dev/null || true; wait "$fuzz_build_pid" 2>/dev/null || true; fi
    if [ -n "$fuzz_pid" ]; then kill "$fuzz_pid" 2>/dev/null || true; wait "$fuzz_pid" 2>/dev/null || true; fi
    if [ -n "$watchdog_pid" ]; then kill "$watchdog_pid" 2>/dev/null || true; fi
    if [ -n "$demo_pid" ]; then kill "$demo_pid" 2>/dev/null || true; wait "$demo_pid" 2>/dev/null || true; fi
    if [ -n "$receiver_pid" ]; then kill "$receiver_pid" 2>/dev/null || true; wait "$receiver_pid" 2>/dev/null || true; fi
    postgres_cluster_stop
    rm -rf "$build_log" "$test_log" "$demo_folder" "${fuzz_build_log:-}" "${fuzz_log:-}"
}
trap cleanup EXIT
postgres_cluster_start

log "imports: every module's against docs/architecture.md and its target in Package.swift (and the check refuses a wrong, an undeclared and an internal one)"
python3 scripts/check-imports.py --self-test
python3 scripts/check-imports.py --manifests
python3 scripts/mirror-sources.py --self-test

log "Apple platforms by proxy: no API above a package's platform floor, nor glibc-only, outside a guard"
python3 scripts/check-portability.py --self-test
python3 scripts/check-portability.py

log "the client package as an app resolves it: nothing but the client and swift-crypto"
scripts/check-client-graph.sh

log "build: the client package alone (what an app compiles; warnings in Entitle's code fail the run)"
swift build --scratch-path "$client_scratch" 2>&1 | tee "$build_log"
if grep -E "^$(pwd)/Sources/.*: warning:" "$build_log"; then
    echo "error: the client package has warnings (above)" >&2
    exit 1
fi

# The server and its tests build as a test build (server/Package.swift): the dependencies optimized
# (`-c release`, compiled once per toolchain in the build cache), Entitle's own modules unoptimized
# (ENTITLE_TEST_BUILD=1) and testable (`-enable-testing`, which `@testable import` needs). The test
# binary runs in about two thirds of a debug build's time; a change recompiles at about a debug build's speed.
# Set for these builds only (the benchmarks' too, to share the server's objects): the fuzz targets' and
# DocC's builds keep their own flags.
test_build() { ENTITLE_TEST_BUILD=1 swift build --scratch-path "$server_scratch" -c release -Xswiftc -enable-testing "$@"; }
log "build: the server package with its tests (warnings in Entitle's own code fail the run)"
# Planned afresh: the folder's plan is the benchmarks package's (built last), which SwiftPM otherwise
# reuses when no manifest changed, building none of the tests (a changed test file left the test
# binary as it was).
rm -f "$server_scratch/release/description.json"
test_build --package-path server --build-tests 2>&1 | tee "$build_log"
if grep -E "^$(pwd)/(Sources|server/Sources|server/Tests)/.*: warning:" "$build_log"; then
    echo "error: the build has warnings in Entitle's code (above)" >&2
    exit 1
fi

log "documents: entitlements files against their schema, docs/openapi.json as OpenAPI 3.1"
python3 scripts/check-schema.py

log "build: the benchmarks package (server/Benchmarks, in the server's build folder and configuration: only its own targets compile)"
# The server's build plan is for the server package: without it SwiftPM plans the benchmarks package
# afresh (it had taken the server's plan as its own and built none of the benchmarks' targets).
rm -f "$server_scratch/release/description.json"
test_build --package-path server/Benchmarks 2>&1 | tee "$build_log"
if grep -E "^$(pwd)/server/Benchmarks/Sources/.*: warning:" "$build_log"; then
    echo "error: the benchmarks have warnings (above)" >&2
    exit 1
fi

bin=$(test_build --package-path server --show-bin-path)

log "README: the command reference against every command's --help"
python3 scripts/check-readme-commands.py "$bin/entitle"

log "alert rules: promtool check and unit tests (docs/prometheus)"
(cd docs/prometheus && promtool check rules entitle-alerts.yml && promtool test rules entitle-alerts.test.yml)

log "DocC: EntitleKit's documentation builds with no warning; its public API names only its own types"
python3 scripts/check-sdk-surface.py --self-test
scripts/docc.sh --warnings-as-errors >/dev/null

# A hang fails the run within a bound rather than holding CI: past the limit, the tests still running
# and every thread of the test process (gdb, when installed) are printed, and the process is stopped.
test_limit=${ENTITLE_TEST_TIME_LIMIT:-900}
log "swift test: the test binary (stopped if still running after ${test_limit}s)"
test_processes() {
    local folder
    for folder in /proc/[0-9]*; do
        tr '\0' ' ' <"$folder/cmdline" 2>/dev/null | grep -q 'PackageTests[.]xctest' && echo "${folder#/proc/}"
    done
    return 0
}
watch_tests() {
    local pid=$1 elapsed=0
    while [ "$elapsed" -lt "$test_limit" ]; do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 5
        elapsed=$((elapsed + 5))
    done
    echo "error: swift test still running after ${test_limit}s" >&2
    python3 scripts/tests-in-progress.py "$test_log" >&2 || true
    local process
    for process in $(test_processes); do
        if command -v gdb >/dev/null 2>&1; then
            echo "== threads of the test process $process" >&2
            timeout 120 gdb -p "$process" -batch -ex 'thread apply all bt 25' 2>/dev/null | grep -E '^(Thread|#)' >&2 || true
        fi
        kill -KILL "$process" 2>/dev/null || true
    done
}
# At most this many tests at once: with all of them started together on two cores, a loopback request
# of one test has waited past its client's 20 s read timeout behind the others' work.
test_width=${ENTITLE_TEST_PARALLELISM:-32}
( set -o pipefail; stdbuf -oL -eL "$bin/entitle-serverPackageTests.xctest" --testing-library swift-testing \
    --experimental-maximum-parallelization-width "$test_width" 2>&1 | tee "$test_log" ) &
test_pid=$!
watch_tests "$test_pid" &
watchdog_pid=$!
test_status=0
wait "$test_pid" || test_status=$?
kill "$watchdog_pid" 2>/dev/null || true
wait "$watchdog_pid" 2>/dev/null || true
watchdog_pid=
[ "$test_status" = 0 ] || { echo "error: swift test failed ($test_status)" >&2; exit "$test_status"; }

# The fuzz targets build in the background from here (in the build cache, a folder of their own, built
# incrementally like the rest; without the cache, in the server's, as a debug build beside the test
# build's release one: the dependencies compiled for debugging, Entitle's modules with libFuzzer's
# coverage and AddressSanitizer), at the lowest priority, while the demo, the browser and schemathesis run the
# binaries built above (which that build leaves as they are). Without the cache it holds SwiftPM's lock on
# the server's folder: the steps until it is done call no `swift` command. (Not beside the tests: a few
# of them bound their time.)
fuzz_build_log=$(mktemp)
nice -n 19 scripts/fuzz.sh --scratch "$fuzz_scratch" --build-only >"$fuzz_build_log" 2>&1 &
fuzz_build_pid=$!

log "a demo population with webhooks to a receiver written in Python (signatures checked with hmac)"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
demo_port=$(free_port)
receiver_port=$(free_port)
webhook_secret="whsec_test_$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
python3 scripts/webhook-check.py receive "$receiver_port" "$webhook_secret" "$demo_folder/webhooks.jsonl" &
receiver_pid=$!
"$bin/entitle" demo --subscribers 300 --data "$demo_folder/data" --port "$demo_port" \
    --webhook-url "http://127.0.0.1:$receiver_port/hooks" --webhook-secret "$webhook_secret" >"$demo_folder/demo.log" 2>&1 &
demo_pid=$!
for _ in $(seq 1 600); do
    grep -q "^  took " "$demo_folder/demo.log" 2>/dev/null && break
    kill -0 "$demo_pid" 2>/dev/null || { cat "$demo_folder/demo.log"; echo "error: entitle demo exited" >&2; exit 1; }
    sleep 0.5
done
grep -q "^  took " "$demo_folder/demo.log" || { cat "$demo_folder/demo.log"; echo "error: entitle demo did not finish" >&2; exit 1; }
grep -q "the API agrees with the store" "$demo_folder/demo.log" || { cat "$demo_folder/demo.log"; echo "error: the demo's summary disagrees with the API" >&2; exit 1; }
secret_key=$(awk '/secret key/ {print $3; exit}' "$demo_folder/demo.log")
python3 scripts/webhook-check.py check "$demo_folder/webhooks.jsonl" "http://127.0.0.1:$demo_port" "$secret_key"

log "dashboard in headless Chromium: the demo's population, every chart against GET /v1/analytics/overview"
# Chromium keeps its singleton socket in a folder of TMPDIR that it leaves behind: give it the demo's.
mkdir -p "$demo_folder/browser-tmp"
TMPDIR="$demo_folder/browser-tmp" python3 scripts/dashboard-browser-check.py "http://127.0.0.1:$demo_port" "$secret_key"

log "the fuzz targets' build (started after the tests) finishing"
fuzz_build_status=0
wait "$fuzz_build_pid" || fuzz_build_status=$?
fuzz_build_pid=
cat "$fuzz_build_log"
[ "$fuzz_build_status" = 0 ] || { echo "error: the fuzz targets did not build" >&2; exit 1; }

# The fuzz targets' short pass runs beside schemathesis: each target on one core for 5 s.
fuzz_log=$(mktemp)
scripts/fuzz.sh --scratch "$fuzz_scratch" --no-build --seconds 5 >"$fuzz_log" 2>&1 &
fuzz_pid=$!

log "schemathesis: the live server against docs/openapi.json (bounded: 25 examples an operation, 60 s, seed 1)"
# Every check but positive_data_acceptance: a schema can't say which signatures verify or which
# entitlements a catalog has, so the server rightly refuses schema-valid data it can't accept.
python3 -m schemathesis.cli run docs/openapi.json --url "http://127.0.0.1:$demo_port" -H "Authorization: Bearer $secret_key" \
    --max-examples 25 --max-time 60 --seed 1 --checks all --exclude-checks positive_data_acceptance

log "libFuzzer: a short pass of every fuzz target (docs/fuzzing.md), run beside schemathesis"
fuzz_status=0
wait "$fuzz_pid" || fuzz_status=$?
fuzz_pid=
cat "$fuzz_log"
[ "$fuzz_status" = 0 ] || { echo "error: a fuzz target failed (above)" >&2; exit 1; }
