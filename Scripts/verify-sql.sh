#!/usr/bin/env bash
# Proof of `flow export --sql` on a real engine (SPEC §10): every example pipeline and every
# pipeline conformance case exported for DuckDB, run, and compared file by file with what
# `flow run` writes; hostile column names and node ids (issue 38); then a seeded property test
# over random table pipelines.
#   Scripts/verify-sql.sh FLOWBIN [PROPERTY_RUNS]
# The venv with `duckdb` (from PyPI) lives at .build/sql-venv and is reused.
set -euo pipefail
FLOW="${1:?usage: Scripts/verify-sql.sh FLOWBIN [PROPERTY_RUNS]}"
RUNS="${2:-150}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VENV="$ROOT/.build/sql-venv"
if ! "$VENV/bin/python" -c "import duckdb" 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet duckdb
fi
exec "$VENV/bin/python" "$ROOT/Scripts/verify_sql.py" "$(cd "$(dirname "$FLOW")" && pwd)/$(basename "$FLOW")" "$ROOT" "$RUNS"
