"""Rule keys with types, bounds, help and presets. A game declares its RuleBook."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from bot.core.errors import UserError
from bot.core.grammar import clip, parse_bool, parse_decimal, parse_int
from bot.core.i18n.text import Num, Text, _

Parser = Callable[[str], Any]


@dataclass(frozen=True)
class RuleSpec:
    key: str
    default: Any
    help: str
    parse: Parser  # raw text -> stored value (JSON-friendly), raises UserError
    show: Callable[[Any], Text] = str  # a value as /rules shows it (lazy text: yes, auto)
    # What kind of value it takes, so a platform can offer a typed option for it.
    kind: str = "text"  # "int", "bool", "choice", "decimal" or "text"
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    topic: str = ""  # what it is about, when the rules are split by topic (money)
    # False: not a rule of the game's scoring but a setting of the evening (the stake, the
    # packs on the table), which a whole-table preset leaves as it is (RuleBook.with_preset)
    scoring: bool = True


def int_rule(key: str, default: int, low: int, high: int, help: str,
             zero: str = "") -> RuleSpec:
    """A whole number, shown with the separators of the language shown (25,000; 25.000);
    `zero` names what 0 means (Tranca's target: "auto"), translated where it is shown."""
    def show(value: Any) -> Text:
        if zero and value == 0:
            # TRANSLATORS: a number rule set to work itself out (Tranca's target:auto)
            return _("auto") if zero == "auto" else _(zero)
        return Num(value) if isinstance(value, int) else str(value)
    return RuleSpec(key, default, help, lambda text: parse_int(text, f"`{key}`", low, high),
                    show=show, kind="int", low=low, high=high)


def bool_rule(key: str, default: bool, help: str) -> RuleSpec:
    return RuleSpec(key, default, help, lambda text: parse_bool(text, f"`{key}`"),
                    _yes_no, kind="bool")


def _yes_no(value: Any) -> Text:
    # TRANSLATORS: a yes/no rule's value as /rules shows it; people still type yes or no
    return _("yes") if value else _("no")


def choice_rule(key: str, default: str, choices: Mapping[str, str], help: str) -> RuleSpec:
    def parse(text: str) -> str:
        word = text.strip().lower()
        if word not in choices:
            raise UserError(_("`{key}` is one of {choices}; not `{word}`.", key=key,
                              choices=", ".join(choices), word=clip(word)))
        return word

    detail = "; ".join(f"{k}: {v}" for k, v in choices.items())
    return RuleSpec(key, default, f"{help} ({detail})", parse, kind="choice",
                    choices=tuple(choices))


def decimal_rule(key: str, default: str, low: str, high: str, help: str) -> RuleSpec:
    # Stored as a string so that 0.1 stays exactly 0.1 in JSON and in the database; written
    # out in full, since normalize() alone turns 10 into "1E+1".
    def parse(text: str) -> str:
        return f"{parse_decimal(text, f'`{key}`', Decimal(low), Decimal(high)).normalize():f}"

    return RuleSpec(key, default, help, parse, kind="decimal")


def text_rule(key: str, default: str, max_length: int, help: str) -> RuleSpec:
    def parse(text: str) -> str:
        value = text.strip()
        if len(value) > max_length:
            raise UserError(_("`{key}` is at most {limit} characters.", key=key,
                              limit=max_length))
        if any(not (c.isprintable()) for c in value):
            raise UserError(_("`{key}` can't contain control characters.", key=key))
        return "" if value.lower() in CLEARED else value

    return RuleSpec(key, default, help, parse, show=_or_none)


def _or_none(value: Any) -> Text:
    # TRANSLATORS: a rule with no value (no currency), as /rules shows it
    return value or _("none")


CLEARED = ("none", "-")  # currency:none takes the currency away


WHOLE_TABLE, ADDITION = "table", "addition"  # the two kinds of preset


@dataclass(frozen=True)
class Preset:
    """A named set of rules, of one of two kinds, which each declaration names:
    WHOLE_TABLE, a whole table (Tenhou's, the usual Nepali one): it starts from the game's
    defaults for every scoring rule, so nothing of the rules before it stays, only the
    settings that are not scoring rules (RuleSpec.scoring);
    ADDITION, rules laid on whatever is set (Riichi's three-player sanma on any table)."""
    name: str
    description: str
    values: Mapping[str, Any]
    kind: str = field(kw_only=True)

    def __post_init__(self) -> None:
        if self.kind not in (WHOLE_TABLE, ADDITION):
            raise ValueError(f"preset {self.name}: kind is {WHOLE_TABLE} or {ADDITION}")


@dataclass
class RuleBook:
    specs: list[RuleSpec]
    presets: list[Preset] = field(default_factory=list)
    headline: tuple[str, ...] = ()  # the keys a short summary always shows
    # Keys no RuleSpec declares, that the game's own commands or its presets store (Marriage's
    # maal table, set by /setmaal): each with what a stored value of it may be, so a file
    # that carries one is held to what the game could have stored (bot/storage/chats/validate.py)
    extras: Mapping[str, Callable[[Any], bool]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._by_key = {spec.key: spec for spec in self.specs}

    def defaults(self) -> dict[str, Any]:
        return {spec.key: spec.default for spec in self.specs}

    def spec(self, key: str) -> RuleSpec:
        try:
            return self._by_key[key]
        except KeyError:
            raise UserError(_("There is no rule `{key}`. Rules: {rules}.", key=clip(key),
                              rules=", ".join(self._by_key))) from None

    def preset(self, name: str) -> Preset:
        for preset in self.presets:
            if preset.name == name.strip().lower():
                return preset
        names = ", ".join(p.name for p in self.presets)
        if not name.strip():
            raise UserError(_("Name a preset: {presets}.", presets=names))
        raise UserError(_("There is no preset `{name}`. Presets: {presets}.", name=clip(name),
                          presets=names))

    def apply(self, current: Mapping[str, Any], changes: Mapping[str, str]) -> dict[str, Any]:
        """Parse every change first, so one bad value changes nothing."""
        updated = {**self.defaults(), **current}
        for key, text in changes.items():
            updated[key] = self.spec(key).parse(text)
        return updated

    def with_preset(self, current: Mapping[str, Any], name: str) -> dict[str, Any]:
        """The rules after preset `name`: an addition on `current`; a whole table on the
        defaults, keeping from `current` only what is not a scoring rule. Keys no RuleSpec
        declares (Marriage's maal table, set by /setmaal) are the table's too: a whole
        table drops them, back to the game's own."""
        preset = self.preset(name)
        if preset.kind == ADDITION:
            return {**self.defaults(), **current, **preset.values}
        kept = {key: current[key] for key in self.kept() if key in current}
        return {**self.defaults(), **kept, **preset.values}

    def kept(self) -> list[str]:
        """The keys a whole-table preset leaves as they are (rate, currency...)."""
        return [spec.key for spec in self.specs if not spec.scoring]

    def complete(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        """Stored rules plus defaults for keys added since they were stored."""
        return {**self.defaults(), **stored}

    def describe(self, rules: Mapping[str, Any]) -> list[tuple[str, Text]]:
        values = self.complete(rules)
        return [(spec.key, spec.show(values[spec.key])) for spec in self.specs]

    def brief(self, rules: Mapping[str, Any]) -> list[tuple[str, Text]]:
        """The headline keys and whatever differs from the defaults."""
        values = self.complete(rules)
        return [(spec.key, spec.show(values[spec.key])) for spec in self.specs
                if spec.key in self.headline or values[spec.key] != spec.default]
