# Sourced by the bin/ scripts: make sure the project's virtual environment exists and is
# current (it is created on first use and refreshed when pyproject.toml changes).
# EXTRAS (set by the caller) names what to install: "all" for the shell and the CLI (no test
# tooling), "dev" for ./bin/test (all of it and the test tooling).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${PYSTREAM_VENV:-$ROOT/.venv}"
EXTRAS="${EXTRAS:-all}"
STAMP="$VENV/.pystream-installed"
hash="$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)"
installed="$(cat "$STAMP" 2>/dev/null || true)"

has_java17() {  # a Java 17 or newer in JAVA_HOME or on PATH (else the java extra brings one)
    local java="java"
    [ -n "${JAVA_HOME:-}" ] && java="$JAVA_HOME/bin/java"
    "$java" -version 2>&1 | head -1 | grep -Eq '"(1[7-9]|[2-9][0-9])[."]'
}

# "dev" holds everything "all" does, so a test environment serves the shell as is
if [ ! -x "$VENV/bin/python" ] || { [ "$installed" != "$hash $EXTRAS" ] \
        && [ "$installed" != "$hash dev" ]; }; then
    extras="$EXTRAS"
    has_java17 || extras="$extras,java"
    PY="${PYTHON:-}"
    if [ -z "$PY" ]; then
        for candidate in python3 python3.13 python3.12 python3.11 python3.10; do
            if "$candidate" -c 'import sys, venv; assert sys.version_info >= (3, 10)' \
                    >/dev/null 2>&1; then
                PY="$candidate"; break
            fi
        done
    fi
    [ -n "$PY" ] || { echo "pystream: no python3 (3.10 or newer) found" >&2; exit 1; }
    echo "pystream: setting up $VENV (first run, takes a minute or two)..." >&2
    # (an environment made before the distribution was called pystream-spark holds "pystream")
    # pip's and setuptools' output goes to a log, shown only when the set-up fails
    log="$(mktemp "${TMPDIR:-/tmp}/pystream-setup.XXXXXX")"
    if { [ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"; } >"$log" 2>&1 \
            && "$VENV/bin/python" -m pip install --quiet --upgrade pip >>"$log" 2>&1 \
            && { "$VENV/bin/python" -m pip uninstall --quiet -y pystream || true; } \
                >>"$log" 2>&1 \
            && "$VENV/bin/python" -m pip install --quiet -e "$ROOT[$extras]" >>"$log" 2>&1; then
        :
    else
        cat "$log" >&2
        echo "pystream: setting up $VENV failed (pip's output above, kept in $log)" >&2
        exit 1
    fi
    # the archive of Spark's classes that local JVMs start from (pystream.jvm_archive)
    if "$VENV/bin/pystream" jvm-archive >>"$log" 2>&1; then
        rm -f "$log"
    else
        echo "pystream: JVMs will start without a class archive (see $log)" >&2
    fi
    echo "pystream: $VENV is ready" >&2
    echo "$hash $EXTRAS" > "$STAMP"
fi
