"""Every Python example of the package README runs as written."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example(code: str, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "README.md").write_text("# hello\n")
    exec(compile(code, str(README), "exec"), {"__name__": "__readme__"})


def test_there_are_examples() -> None:
    assert len(BLOCKS) >= 4
    assert os.path.exists(README)
