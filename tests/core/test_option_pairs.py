"""Issue 31 (3): game options written ``key=value`` are read in one place,
``rulebox.core.options.option_pairs``, the same way by the command line, the tournament, the
trainer, the engine's ``new`` and a diagram line."""

from __future__ import annotations

import pytest

from rulebox.cli.main import main
from rulebox.core.errors import OptionError, StateError
from rulebox.core.load import load_any
from rulebox.core.options import option_pairs
from rulebox.engine import Engine


def test_keys_are_trimmed_and_lower_case_values_trimmed() -> None:
    assert option_pairs([" Players=3", "seed= 7 ", "deck=C01,C02"]) == {
        "players": "3", "seed": "7", "deck": "C01,C02"}
    assert option_pairs(["note=a=b"]) == {"note": "a=b"}
    assert option_pairs([]) == {}


@pytest.mark.parametrize("bad", ["players", "=3", " =3"])
def test_a_word_without_key_or_equals_is_refused(bad: str) -> None:
    with pytest.raises(OptionError, match="key=value"):
        option_pairs([bad])


def test_a_key_given_twice_is_refused_whatever_its_case() -> None:
    with pytest.raises(OptionError, match="given twice"):
        option_pairs(["seed=1", "SEED=2"])


def test_every_reader_refuses_a_key_given_twice() -> None:
    answer = Engine().handle("new columns seed=1 Seed=2")
    assert answer is not None and answer.startswith("?") and "given twice" in answer
    with pytest.raises(StateError, match="given twice"):
        load_any("columns seed=1 Seed=2 .,.,.,./.,.,.,./.,.,.,. 0")
    assert main(["bench", "columns", "seed=1", "seed=2", "--seconds", "0.01"]) == 2
