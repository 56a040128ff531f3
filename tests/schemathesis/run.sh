#!/usr/bin/env bash
# Runs schemathesis (every check, positive and negative data) against the
# sandbox binary, using the hand-written spec openapi/crossborder.yaml.
#
#   tests/schemathesis/run.sh [extra schemathesis arguments]
#
# Environment:
#   SCHEMATHESIS_MAX_EXAMPLES  examples per operation (default 50)
#   SCHEMATHESIS_SEED          seed for a reproducible run (default 20261121)
#   SCHEMATHESIS_WORKERS       concurrent workers (default 1)
#
# Installs schemathesis (pinned) into target/tools/schemathesis-venv the first
# time and reuses it afterwards. Exits with schemathesis's status. Every
# exclusion is explained in tests/schemathesis/README.md.
set -euo pipefail

SCHEMATHESIS_VERSION="4.32.5"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="$ROOT/target/tools/schemathesis-venv"
ST="$VENV/bin/schemathesis"
REPORT_DIR="$ROOT/target/schemathesis-report"

cd "$ROOT"

if ! "$ST" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
    echo "installing schemathesis $SCHEMATHESIS_VERSION into $VENV" >&2
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

cargo build --quiet -p crossborder-sandbox --bin crossborder-sandbox
BIN="$ROOT/target/debug/crossborder-sandbox"

# A free loopback port.
PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
LOG="$(mktemp)"
"$BIN" --port "$PORT" --host 127.0.0.1 >"$LOG" 2>&1 &
SERVER_PID=$!

stop_server() {
    if kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -f "$LOG"
}
trap stop_server EXIT

BASE_URL="http://127.0.0.1:$PORT/v1"
for _ in $(seq 1 100); do
    if grep -q "listening on" "$LOG" 2>/dev/null; then
        break
    fi
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
        echo "the sandbox did not start:" >&2
        cat "$LOG" >&2
        exit 1
    fi
    sleep 0.1
done
echo "sandbox at $BASE_URL (pid $SERVER_PID)" >&2

set +e
"$ST" run openapi/crossborder.yaml \
    --url "$BASE_URL" \
    --header "x-api-key: test_sandbox_key" \
    --checks all \
    --exclude-checks positive_data_acceptance \
    --mode all \
    --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-50}" \
    --seed "${SCHEMATHESIS_SEED:-20261121}" \
    --workers "${SCHEMATHESIS_WORKERS:-1}" \
    --request-timeout 10 \
    --report junit \
    --report-dir "$REPORT_DIR" \
    "$@"
STATUS=$?
set -e
echo "schemathesis exited with $STATUS (report: $REPORT_DIR)" >&2
exit "$STATUS"
