#!/usr/bin/env bash
# libFuzzer over Entitle's parsers and decoders (Fuzz/Sources): builds each target (the package with
# ENTITLE_SANITIZE=1: Entitle's code with libFuzzer's coverage and AddressSanitizer), seeds it from the
# test vectors and the examples, and runs it.
#
#   scripts/fuzz.sh [--seconds S] [--runs N] [--scratch DIR] [--build-only | --no-build] [TARGET...]
#
# Both limits: whichever comes first; 60 s by default. --scratch is the build folder (.build-fuzz by
# default; scripts/test.sh uses a folder of its build cache, or without it server/.build, where the
# fuzz build is a debug build beside the tests' release one). --build-only builds the targets and stops;
# --no-build runs those built before.
#
# TARGET is FuzzVerifier, FuzzP256, FuzzDecoders, FuzzCatalog, FuzzRequestBodies, FuzzStoredEvents, FuzzPipeline or
# FuzzRequests (all by default). A crash, a
# sanitizer report or a false accept stops with the input saved under .build-fuzz/artifacts/ and exit 1.
# The last lines per target: executions, time, peak RSS. Leak detection is off: LeakSanitizer reports
# Foundation's buffers held by the targets' globals at exit, which are not leaks. The runtime's backtracer is off:
# under ASan it trips over its own reads and hides the fatal error's message.
set -euo pipefail
# The fuzz targets are the server package's (server/Fuzz); every path below is relative to it.
cd "$(dirname "$0")/../server"

limit=()
targets=()
scratch=.build-fuzz
build=yes
run=yes
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) limit+=(-max_total_time="$2"); shift 2 ;;
        --runs) limit+=(-runs="$2"); shift 2 ;;
        --scratch) scratch="$2"; shift 2 ;;
        --build-only) run=no; shift ;;
        --no-build) build=no; shift ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) targets+=("$1"); shift ;;
    esac
done
[ ${#limit[@]} -gt 0 ] || limit=(-max_total_time=60)
[ ${#targets[@]} -gt 0 ] || targets=(FuzzVerifier FuzzP256 FuzzDecoders FuzzCatalog FuzzRequestBodies FuzzStoredEvents FuzzPipeline FuzzRequests)

mkdir -p "$scratch"
bin=$scratch/debug
for target in "${targets[@]}"; do
    if [ "$build" = yes ]; then
        status=0
        ENTITLE_SANITIZE=1 swift build --scratch-path "$scratch" --product "$target" > "$scratch/fuzz-build.log" 2>&1 || status=$?
        grep -v -e "swift-distributed-tracing" -e "CMakeLists.txt" -e "^\[[0-9]*/[0-9]*\]" "$scratch/fuzz-build.log" || true
        # The build's own status: a binary an earlier build left must not pass for this one.
        [ "$status" -eq 0 ] && [ -x "$bin/$target" ] || { echo "error: $target did not build" >&2; exit 1; }
    else
        [ -x "$bin/$target" ] || { echo "error: no $target in $bin: build it first (--build-only)" >&2; exit 1; }
    fi
done
[ "$run" = yes ] || exit 0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
vectors=Tests/AppStoreVerificationTests/Vectors

# Seeds, made fresh each run from files the repository already has.
seed() { mkdir -p "$work/$1"; }
seed FuzzVerifier
cp $vectors/apple-shaped/signed* "$work/FuzzVerifier/"
for file in $vectors/apple/mock_signed_data/*; do cp "$file" "$work/FuzzVerifier/apple-$(basename "$file")"; done
seed FuzzP256
# A signature checked as it was made, by a fixed key and by a named one; raw bytes for the even choices.
printf '\x01' > "$work/FuzzP256/signed"
printf '\x07%s' "$(printf 'k%.0s' $(seq 32))" > "$work/FuzzP256/named-key"
python3 -c "import sys; sys.stdout.buffer.write(bytes([0]) + bytes(range(1, 65)) + bytes(32))" > "$work/FuzzP256/raw"
seed FuzzDecoders
cp Tests/Fixtures/AppleModels/*.json "$work/FuzzDecoders/"
python3 - "$work/FuzzDecoders" $vectors/apple-shaped/signed* <<'PY'
import base64, sys, os
out = sys.argv[1]
for path in sys.argv[2:]:
    payload = open(path).read().strip().split(".")[1]
    open(os.path.join(out, "payload-" + os.path.basename(path)), "wb").write(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
PY
seed FuzzCatalog
for app in Examples/*/; do
    [ -f "$app/entitlements.json" ] || continue  # the sample app's folder is code, not a catalog
    name=$(basename "$app")
    cat "$app/Configuration.storekit" <(printf '\0') "$app/entitlements.json" > "$work/FuzzCatalog/$name"
done
seed FuzzRequestBodies
printf '%s' '{"signedPayload":"eyJhbGciOiJFUzI1NiJ9.e30.c2ln"}' > "$work/FuzzRequestBodies/notification"
printf '%s' '{"signedTransaction":"eyJhbGciOiJFUzI1NiJ9.e30.c2ln"}' > "$work/FuzzRequestBodies/transaction"
printf '%s' '{"feature":"conversations","amount":1,"idempotencyKey":"k1"}' > "$work/FuzzRequestBodies/usage"
printf '%s' '{"entitlementID":"premium","startsAt":"2026-01-01T00:00:00Z","endsAt":"2026-02-01T00:00:00Z","reason":"support"}' > "$work/FuzzRequestBodies/grant"
printf '%s' '{"endsAt":"2026-02-01T00:00:00Z","entitlementIDs":["premium"],"reason":"outage"}' > "$work/FuzzRequestBodies/open-access"
seed FuzzStoredEvents
printf '%s' '{"appUserID":"user-0","id":"00000000-0000-4000-8000-000000000003","idempotencyKey":"notification:00000000-0000-4000-8000-000000000003","notificationUUID":"00000000-0000-4000-8000-000000000003","originalTransactionID":"A0","payload":{"notification":{"renewalInfo":{"autoRenewProductId":"com.screentimerewards.individual.monthly","autoRenewStatus":1,"currency":"USD","eligibleWinBackOfferIds":["w1"],"environment":"Sandbox","gracePeriodExpiresDate":1758521613711,"isInBillingRetryPeriod":false,"originalTransactionId":"A0","productId":"com.screentimerewards.individual.monthly","signedDate":1757916813711.5125},"subtype":"INITIAL_BUY","transaction":{"appAccountToken":"7E3FB20B-4CDB-47CC-936D-99D65F608138","bundleId":"com.screentimerewards","currency":"USD","environment":"Sandbox","expiresDate":1758521613711.5125,"inAppOwnershipType":"PURCHASED","isUpgraded":true,"offerDiscountType":"FREE_TRIAL","offerType":1,"originalPurchaseDate":1757916813711.5125,"originalTransactionId":"A0","price":0,"productId":"com.screentimerewards.individual.monthly","purchaseDate":1757916813711.5125,"quantity":1,"revocationDate":-1.5e3,"revocationReason":0,"signedDate":1757916813711.5125,"storefront":"USA","storefrontId":"143441","subscriptionGroupIdentifier":"G1","transactionId":"A0-t","transactionReason":"PURCHASE","type":"Auto-Renewable Subscription","webOrderLineItemId":"A0-w1757916813"},"type":"SUBSCRIBED"}},"receivedAt":1757916813711.5125,"signedDate":1757916813711.5125,"source":"app_store_notification","transactionID":"A0-t"}' > "$work/FuzzStoredEvents/notification"
printf '%s' '{"appUserID":"u1","id":"00000000-0000-4000-8000-000000000005","idempotencyKey":"transaction:R1-1","originalTransactionID":"R1","payload":{"transaction":{"_0":{"originalTransactionId":"R1","price":7990,"productId":"p","purchaseDate":0,"transactionId":"R1-1"}}},"receivedAt":0,"signedDate":0,"source":"app_transaction","transactionID":"R1-1"}' > "$work/FuzzStoredEvents/transaction"
printf '%s' '{"appUserID":"u1","id":"00000000-0000-4000-8000-000000000007","idempotencyKey":"admin:7","payload":{"appTrialStarted":{"at":1735689600000}},"receivedAt":1735689600000,"source":"app_trial_start"}' > "$work/FuzzStoredEvents/trial"
printf '%s' '{"id":"00000000-0000-4000-8000-000000000008","idempotencyKey":"admin:8","payload":{"renewalInfo":{"_0":{"expirationIntent":2,"priceIncreaseStatus":1,"renewalDate":1e12}}},"receivedAt":-0,"source":"admin"}' > "$work/FuzzStoredEvents/renewal"
printf '%s' '[{"d":20454,"m":"revenue","p":"com.screentimerewards.individual.monthly","c":"USD","h":"2026-01","v":7990},{"d":20485,"m":"active_paid","p":"com.screentimerewards.individual.monthly","c":"","h":"","v":-1},{"d":-3,"m":"mrr","p":"p","c":"EUR","h":"","v":9223372036854775807}]' > "$work/FuzzStoredEvents/cells"
printf '%s' '~1{"apzUse' > "$work/FuzzStoredEvents/prefixed"  # text that starts as the compact form does
printf '%s' '{"s":["revenue","com.screentimerewards.individual.monthly","USD","2026-01","active_paid","","mrr","p","EUR"],"c":[20454,0,1,2,3,7990,20485,4,1,5,5,-1,-3,6,7,8,5,9223372036854775807]}' > "$work/FuzzStoredEvents/cell-table"
cp $vectors/apple-shaped/signedNotification "$work/FuzzStoredEvents/signed-notification"
cp $vectors/apple-shaped/signedTransaction "$work/FuzzStoredEvents/signed-transaction"
# The structure-aware targets read their input as choices (FuzzValues): all zeros is every value
# plausible, the rest a few fixed draws.
for target in FuzzPipeline FuzzRequests; do
    seed $target
    python3 - "$work/$target" <<'PY'
import os, random, sys
random.seed(49)
open(os.path.join(sys.argv[1], "plausible"), "wb").write(bytes(1024))
for n in range(4):
    open(os.path.join(sys.argv[1], "draw-%d" % n), "wb").write(bytes([n]) + bytes(random.randrange(256) for _ in range(1023)))
PY
done

mkdir -p "$scratch/artifacts"
status=0
for target in "${targets[@]}"; do
    echo "== $target"
    log="$work/$target.log"
    if SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$bin/$target" "${limit[@]}" -timeout=20 -rss_limit_mb=4096 -detect_leaks=0 -print_final_stats=1 \
        -artifact_prefix="$scratch/artifacts/$target-" "$work/$target" >"$log" 2>&1; then
        grep -E "^Done [0-9]+ runs|stat::peak_rss_mb|stat::number_of_executed_units" "$log" || tail -3 "$log"
        # The structure-aware targets' tally: what the inputs led to (outcomes, statuses by code).
        sed -n '/^outcomes:$/,$p;/^statuses:$/,$p' "$log"
    else
        tail -40 "$log"
        echo "error: $target found a failure; the input is in $scratch/artifacts/" >&2
        status=1
    fi
done
exit $status
