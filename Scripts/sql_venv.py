"""The Python environment of the checks and comparisons that need DuckDB, tpchgen-cli,
pyarrow, polars or the codec packages: `.build/sql-venv` inside the clone, made on first use
and completed with whatever a script asks for (idempotent; nothing outside the clone).

    import sql_venv
    sql_venv.run_in_venv(__file__, [("duckdb", "import duckdb"), ("tpchgen-cli", None)])

A requirement is (pip name, a Python statement that fails without it); `None` means a
console script of that name in the venv's `bin`.
"""
import os
import subprocess
import sys
import venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".build", "sql-venv")
PYTHON = os.path.join(VENV, "bin", "python")


def run_in_venv(script, requirements):
    """Runs `script` again under the venv's Python (made, then completed with the missing
    requirements, first); returns at once when already running there."""
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    if not os.path.exists(PYTHON):
        venv.create(VENV, with_pip=True)

    def present(name, probe):
        if probe is None:
            return os.path.exists(os.path.join(VENV, "bin", name))
        return subprocess.run([PYTHON, "-c", probe], capture_output=True).returncode == 0

    missing = [name for name, probe in requirements if not present(name, probe)]
    if missing:
        subprocess.run([PYTHON, "-m", "pip", "install", "--quiet", *missing], check=True)
    os.execv(PYTHON, [PYTHON, os.path.abspath(script), *sys.argv[1:]])
