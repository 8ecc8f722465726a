"""Shared fixtures: a fresh workspace per test, and a service on it."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from lackpy_rs import Service


def write_config(ws: Path, text: str) -> None:
    (ws / ".lackpy").mkdir(exist_ok=True)
    (ws / ".lackpy" / "config.toml").write_text(text)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return tmp_path


@pytest.fixture
def svc(ws: Path) -> Iterator[Service]:
    with Service(ws) as s:
        yield s


# A program that runs until cancelled or timed out: its workspace lifts the
# step limit so only the clock (or a cancel) stops it.
LONG = "n = 0\nfor i in range(1000000000000):\n    n = n + 1\nn"


@pytest.fixture
def long_svc(ws: Path) -> Iterator[Service]:
    write_config(ws, "[limits]\nmax_steps = 1000000000000\ntimeout_ms = 60000\n")
    with Service(ws) as s:
        yield s
