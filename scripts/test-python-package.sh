#!/usr/bin/env bash
# Builds the Python package (crates/lackpy-py) into a venv under the
# target directory and runs its pytest suite; exits non-zero when a test
# fails. The tools are pinned. The extension is built with the dev
# profile (`maturin develop`), so it reuses what `cargo test` built.
set -euo pipefail
cd "$(dirname "$0")/.."

MATURIN_VERSION=1.16.0
PYTEST_VERSION=9.2.0
PYTEST_ASYNCIO_VERSION=1.5.0

target="${CARGO_TARGET_DIR:-$PWD/target}"
venv="$target/python-venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check \
    "maturin==$MATURIN_VERSION" "pytest==$PYTEST_VERSION" \
    "pytest-asyncio==$PYTEST_ASYNCIO_VERSION"

VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" \
    maturin develop --quiet -m crates/lackpy-py/Cargo.toml

cd crates/lackpy-py
"$venv/bin/python" -m pytest -q tests "$@"
