# Sourced by scripts/test.sh: a throwaway PostgreSQL cluster for the tests, on loopback.
#   postgres_cluster_start   installs PostgreSQL when missing, starts a cluster in a temp folder,
#                            exports ENTITLE_TEST_POSTGRES_URL (loopback TCP) and
#                            ENTITLE_TEST_POSTGRES_SOCKET_URL (its Unix socket); fsync is off unless
#                            ENTITLE_TEST_POSTGRES_FSYNC=on (benchmarks of durable commits); TLS is on,
#                            its certificate (for localhost, not 127.0.0.1) issued by a CA of the run's own
#                            (ENTITLE_TEST_POSTGRES_TLS_ROOT), and ENTITLE_TEST_POSTGRES_TLS_OTHER_ROOT
#                            is a CA that issued nothing
#   postgres_cluster_stop    stops it and deletes the folder
PG_PORT=${ENTITLE_TEST_POSTGRES_PORT:-54329}

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

postgres_bin() {
    local dir
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        [ -x "$dir/initdb" ] && { echo "$dir"; return 0; }
    done
    return 1
}

# A CA, and the server's certificate and key for the name localhost (P-256), in $1; another CA.
postgres_cluster_tls() {
    local dir=$1
    local ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
    openssl req -x509 "${ec[@]}" -days 30 -subj "/CN=Entitle test CA" -keyout "$dir/ca.key" -out "$dir/ca.pem" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign" 2>/dev/null || return 1
    openssl req -x509 "${ec[@]}" -days 30 -subj "/CN=Entitle test other CA" -keyout "$dir/other-ca.key" -out "$dir/other-ca.pem" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign" 2>/dev/null || return 1
    openssl req -new "${ec[@]}" -subj "/CN=localhost" -keyout "$dir/server.key" -out "$dir/server.csr" 2>/dev/null || return 1
    printf 'subjectAltName=DNS:localhost\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n' >"$dir/server.ext"
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days 30 \
        -extfile "$dir/server.ext" -out "$dir/server.pem" 2>/dev/null || return 1
    rm -f "$dir/ca.key" "$dir/other-ca.key" "$dir/server.csr" "$dir/server.ext"
    chmod 600 "$dir/server.key"
}

postgres_cluster_start() {
    if ! PG_BIN=$(postgres_bin); then
        echo "== installing PostgreSQL (apt)"
        as_root mkdir -p /etc/postgresql-common/createcluster.d
        echo "create_main_cluster = false" | as_root tee /etc/postgresql-common/createcluster.d/entitle-tests.conf >/dev/null
        as_root apt-get update -qq
        DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends postgresql >/dev/null
        PG_BIN=$(postgres_bin) || { echo "error: PostgreSQL did not install" >&2; return 1; }
    fi
    PG_DIR=$(mktemp -d /tmp/entitle-pg.XXXXXX)
    mkdir -p "$PG_DIR/data" "$PG_DIR/socket" "$PG_DIR/tls"
    postgres_cluster_tls "$PG_DIR/tls" || { echo "error: openssl could not make the test cluster's certificates" >&2; return 1; }
    local run=()
    if [ "$(id -u)" = 0 ]; then
        chown -R postgres:postgres "$PG_DIR"
        run=(runuser -u postgres --)
    fi
    (cd / && "${run[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth=trust --locale=C.UTF-8 -E UTF8 >"$PG_DIR/initdb.log" 2>&1) \
        || { cat "$PG_DIR/initdb.log" >&2; return 1; }
    (cd / && "${run[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR/socket -c fsync=${ENTITLE_TEST_POSTGRES_FSYNC:-off} -c max_connections=400 -c ssl=on -c ssl_cert_file=$PG_DIR/tls/server.pem -c ssl_key_file=$PG_DIR/tls/server.key" start >/dev/null) \
        || { cat "$PG_DIR/server.log" >&2; return 1; }
    export ENTITLE_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres?sslmode=disable"
    export ENTITLE_TEST_POSTGRES_SOCKET_URL="postgres://postgres@/postgres?host=$PG_DIR/socket&port=$PG_PORT"
    export ENTITLE_TEST_POSTGRES_TLS_ROOT="$PG_DIR/tls/ca.pem" ENTITLE_TEST_POSTGRES_TLS_OTHER_ROOT="$PG_DIR/tls/other-ca.pem"
    echo "== PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT ($PG_DIR)"
}

postgres_cluster_stop() {
    [ -n "${PG_DIR:-}" ] || return 0
    local run=()
    [ "$(id -u)" = 0 ] && run=(runuser -u postgres --)
    (cd / && "${run[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1) || true
    rm -rf "$PG_DIR"
    PG_DIR=
}
