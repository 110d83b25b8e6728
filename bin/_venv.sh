# shellcheck shell=bash
# Shared by bin/start and bin/test (sourced, not run): creates the project's
# virtual environment in .venv and keeps it in step with a requirements file.
#
#   source "$(dirname "$0")/_venv.sh"
#   ensure_venv requirements.txt     # sets VENV and VENV_PYTHON
#
# The installed requirements are remembered by a hash stamp inside .venv, so
# pip runs only when a requirements file changed (or .venv was deleted).

PROJECT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$PROJECT_ROOT/.venv"
VENV_PYTHON="$VENV/bin/python"

_venv_say() {
    printf '==> %s\n' "$*" >&2
}

# Prints the path of a Python 3.11 or newer interpreter, or fails.
_venv_find_python() {
    local candidate
    for candidate in python3.11 python3; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then
            command -v "$candidate"
            return 0
        fi
    done
    printf 'error: Python 3.11 or newer is needed (tried python3.11 and python3)\n' >&2
    return 1
}

# Hash of every lock file (requirements*.txt, generated from requirements*.in).
_venv_requirements_hash() {
    cat "$PROJECT_ROOT"/requirements*.txt | sha256sum | cut -d' ' -f1
}

# ensure_venv REQUIREMENTS_FILE (relative to the project root)
ensure_venv() {
    local requirements="$1"
    local stamp="$VENV/.installed-${requirements//\//_}.sha256"
    local python wanted

    if ! "$VENV_PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then
        python="$(_venv_find_python)"
        _venv_say "Creating .venv with $python ($("$python" --version 2>&1))"
        rm -rf "$VENV"
        "$python" -m venv "$VENV"
        "$VENV_PYTHON" -m pip install --quiet --upgrade pip ||
            _venv_say "warning: could not upgrade pip; continuing with $("$VENV_PYTHON" -m pip --version)"
    fi

    wanted="$(_venv_requirements_hash)"
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$wanted" ]]; then
        return 0
    fi
    _venv_say "Installing $requirements into .venv"
    # The lock files pin and hash every package: pip refuses anything else.
    "$VENV_PYTHON" -m pip install --quiet --require-hashes --requirement "$PROJECT_ROOT/$requirements"
    printf '%s\n' "$wanted" >"$stamp"
}
