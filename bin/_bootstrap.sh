# Sourced by the bin/ scripts: make sure the project's virtual environment exists and is
# current (it is created on first use and refreshed when pyproject.toml changes).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${PYSTREAM_VENV:-$ROOT/.venv}"
STAMP="$VENV/.pystream-installed"
want="$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)"
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$want" ]; then
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
    # pip's and setuptools' output goes to a log, shown only when the set-up fails
    log="$(mktemp "${TMPDIR:-/tmp}/pystream-setup.XXXXXX")"
    if { [ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"; } >"$log" 2>&1 \
            && "$VENV/bin/python" -m pip install --quiet --upgrade pip >>"$log" 2>&1 \
            && "$VENV/bin/python" -m pip install --quiet -e "$ROOT[dev]" >>"$log" 2>&1; then
        rm -f "$log"
    else
        cat "$log" >&2
        echo "pystream: setting up $VENV failed (pip's output above, kept in $log)" >&2
        exit 1
    fi
    echo "pystream: $VENV is ready" >&2
    echo "$want" > "$STAMP"
fi
