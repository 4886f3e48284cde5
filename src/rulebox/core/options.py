"""Game options: declared once per game, parsed from ``key=value`` text, echoed canonically."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rulebox.core.errors import OptionError
from rulebox.core.rng import SEED_LIMIT, fresh_seed
from rulebox.i18n import _, pgettext


@dataclass(frozen=True)
class OptionSpec:
    """One option a game accepts.

    ``parse`` turns the text into a value (raising ``ValueError`` with a reason) and ``show``
    turns a value back into its canonical text. ``choices`` restricts the text when given.
    """

    name: str
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    parse: Callable[[str], Any] = str
    show: Callable[[Any], str] = str
    aliases: dict[str, str] = field(default_factory=dict)


def int_option(name: str, default: int | None, help: str, lo: int, hi: int) -> OptionSpec:
    """An integer option accepting ``lo..hi`` inclusive."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{name} must be a whole number from {lo} to {hi}") from None
        if not lo <= value <= hi:
            raise ValueError(f"{name} must be from {lo} to {hi}")
        return value

    return OptionSpec(name, default, help, parse=parse)


def choice_option(name: str, default: str, help: str, choices: tuple[str, ...]) -> OptionSpec:
    """An option that takes one of a few words."""
    return OptionSpec(name, default, help, choices=choices)


SEED = int_option("seed", None, "seed for every random choice (drawn at random if omitted)",
                  0, SEED_LIMIT - 1)


def option_pairs(pairs: Iterable[str]) -> dict[str, str]:
    """Game options written ``key=value`` (the command line, the engine's ``new``, a diagram
    line) as text by key: the key trimmed and in lower case, the value as written (trimmed);
    :func:`parse_options` then checks them against the game. ``OptionError`` for a word
    without ``=`` or a key, and for a key given twice. The one reader of ``key=value`` words."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        key = key.strip().lower()
        if not eq or not key:
            raise OptionError(_("options are written key=value, not {pair!r}").format(
                                  pair=pair[:40]))
        if key in out:
            raise OptionError(_("option {key!r} given twice").format(key=key[:40]))
        out[key] = value.strip()
    return out


def parse_options(
    game_id: str, specs: tuple[OptionSpec, ...], raw: Mapping[str, Any]
) -> dict[str, Any]:
    """Check ``raw`` (text or already-parsed values) against ``specs``; fill in defaults.

    ``seed`` is accepted by every game; when it is missing a fresh one is drawn and kept,
    so that the game can always be repeated.
    """
    by_name = {s.name: s for s in (SEED, *specs)}
    out: dict[str, Any] = {}
    for key, value in raw.items():
        key_l = str(key).strip().lower()
        spec = by_name.get(key_l)
        if spec is None:
            known = ", ".join(sorted(by_name))
            raise OptionError(_("{game_id} has no option {key!r} (options: {known})").format(
                                  game_id=game_id, key=str(key)[:40], known=known))
        if isinstance(value, str):
            text = value.strip()
            if spec.choices and text.lower() not in spec.choices:
                raise OptionError(
                    _("{name}={text!r} is not allowed; choose one of {choices}").format(
                        name=spec.name, text=text[:40], choices="|".join(spec.choices))
                )
            try:
                out[spec.name] = spec.parse(text.lower() if spec.choices else text)
            except ValueError as e:
                raise OptionError(_("bad option {name}={text!r}: {e}").format(
                                      name=spec.name, text=text[:40], e=e)) from None
        else:
            out[spec.name] = value
    for spec in by_name.values():
        if spec.name not in out:
            out[spec.name] = spec.default
    if out["seed"] is None:
        out["seed"] = fresh_seed()
    return out


def show_options(specs: tuple[OptionSpec, ...], values: Mapping[str, Any]) -> dict[str, str]:
    """The canonical text of every option in force, sorted by key."""
    by_name = {s.name: s for s in (SEED, *specs)}
    shown = {}
    for key in sorted(values):
        spec = by_name.get(key)
        value = values[key]
        if value is None:
            continue
        shown[key] = spec.show(value) if spec else str(value)
    return shown


def option_label(name: str) -> str:
    """An option's name as the lobby shows it, in the current language (``stack_lift`` ->
    *Wegziehen vom Stapel*); the name itself is what is typed (``stack_lift=free``) and stays."""
    return {
        "first": pgettext("option", "first"), "even": pgettext("option", "even"),
        "stack_lift": pgettext("option", "stack_lift"), "end": pgettext("option", "end"),
        "green": pgettext("option", "green"), "grid": pgettext("option", "grid"),
        "deck": pgettext("option", "deck"), "players": pgettext("option", "players"),
        "variant": pgettext("option", "variant"), "pond": pgettext("option", "pond"),
        "officia": pgettext("option", "officia"), "roles": pgettext("option", "roles"),
        "quiet_limit": pgettext("option", "quiet_limit"), "seed": pgettext("option", "seed"),
    }.get(name, name)


def option_value_label(value: str) -> str:
    """An option's value as the lobby shows it, in the current language (``kids`` ->
    *Kinderspiel*); the value itself is what is sent and stays."""
    return {
        "continue": pgettext("option value", "continue"),
        "literal": pgettext("option value", "literal"),
        "standard": pgettext("option value", "standard"),
        "random": pgettext("option value", "random"), "seed": pgettext("option value", "seed"),
        "free": pgettext("option value", "free"), "kids": pgettext("option value", "kids"),
    }.get(value, value)
