"""The five rule sets as data: each is a preset of the shared per-game options.

Every mechanism the rule texts differ on is one field of :class:`Options`, so a table can
mix house rules (Social in an open-roll game, blind rolls in ``mexican``) and the engine
reads the table instead of asking which rule set it is playing.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from bot.engine.errors import BadOptions
from bot.engine.rolls import Style

Family = Literal["bluff", "open"]
ThreeOne = Literal["low", "social", "handout", "elbow"]
Drink = Literal["tiers", "sip", "none"]
Loss = Literal["doubling", "pot"]
Units = Literal["sips", "points"]
First = Literal["host", "random"]


@dataclass(frozen=True, slots=True)
class Options:
    """One game's rules. Field names match the option names in the README (Rule sets)."""

    family: Family
    top_name: str
    style: Style
    #: What a 3-1 is: the lowest real roll, or a special effect followed by a free re-roll.
    three_one: ThreeOne
    # --- bluffing -----------------------------------------------------------------------
    ties: bool = False  # a claim may equal the standing claim
    pass_unrolled: bool = False  # after accepting, claim higher about the unseen cup
    blind: bool = False  # a roller may roll without looking
    fold: bool = False  # admit you cannot beat the claim: 1 sip, fresh round
    drink: Drink = "none"  # what a lost call costs besides lives
    # --- open rolls ---------------------------------------------------------------------
    max_rolls: int = 3
    loss: Loss = "doubling"  # doubling per 21 (mexen) or the pot (mexico)
    base: int = 1  # sips a loss costs before doubling
    mex_multiplier: int = 2  # each 21 in the round multiplies the sips by this
    lives_per_mex: int = 2  # lives lost per 21 in the round (1 when there was none)
    cap: int | None = None  # most sips a loss costs (the pot's cap in pot games)
    end_early: bool = False  # mexen "end early" / mexicanen "abort"
    rolloff: bool = True  # ties for lowest roll off; off: the later of the tied rolls loses
    keep: bool = False  # keep a lone 1 or 2 and roll the other die
    knight: bool = False
    stuck: bool = False  # a 3-2 with rolls left can be locked by a TAP
    # --- every rule set -----------------------------------------------------------------
    lives: int | None = None  # None: lives are off
    lives_default: int = 4  # the count "lives on" means for this preset
    last_standing: bool = True  # off: the first player at 0 lives loses the game
    units: Units = "sips"
    first: First = "host"
    turn_timer: int = 90  # seconds; 0 = off. The bot keeps the clock, not the engine.
    min_players: int = 2
    max_players: int = 20

    def to_dict(self) -> dict[str, Any]:
        # Every value is a plain immutable scalar, so a flat read is a full copy; asdict's
        # recursive deep copy was 15% of a move's own cost (it runs at every save).
        return {name: getattr(self, name) for name in _OPTION_NAMES}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Options:
        """Tables with the same options share one (frozen) instance: building one was a
        fifth of restoring a game, and a restart restores every running game before it
        answers (README, Benchmarks)."""
        try:
            # With the types: True and 1 are equal keys but not the same option value.
            key = (*data.items(), *map(type, data.values()))
            return _SEEN[key]
        except KeyError:
            pass
        except TypeError:  # a value that is not hashable: Options refuses it anyway
            return cls(**data)
        options = cls(**data)
        if len(_SEEN) >= _SEEN_MAX:
            _SEEN.clear()
        _SEEN[key] = options
        return options


#: The longest turn timer, an hour: a turn longer than that is a table that has left.
MAX_TURN_TIMER = 3600

_OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Options))
#: Options read back from storage, by their stored items (see Options.from_dict).
_SEEN: dict[tuple[Any, ...], Options] = {}
_SEEN_MAX = 1024

PRESETS: dict[str, Options] = {
    "mexican": Options(
        family="bluff",
        top_name="Mexican",
        style="words",
        three_one="social",
        ties=True,
        fold=True,
        drink="tiers",
        lives_default=4,
    ),
    "dollar": Options(
        family="bluff",
        top_name="Mexican",
        style="words",
        three_one="low",
        pass_unrolled=True,
        blind=True,
        drink="none",
        lives=4,
        lives_default=4,
    ),
    "mexen": Options(
        family="open",
        top_name="Mex",
        style="numbers",
        three_one="handout",
        base=1,
        cap=4,
        end_early=True,
        lives_default=6,
    ),
    "mexicanen": Options(
        family="open",
        top_name="Mex",
        style="numbers",
        three_one="low",
        end_early=True,
        lives=6,
        lives_default=6,
        last_standing=False,
    ),
    "mexico": Options(
        family="open",
        top_name="Mexico",
        style="numbers",
        three_one="elbow",
        loss="pot",
        keep=True,
        knight=True,
        stuck=True,
        max_players=8,
    ),
}
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)

_FIELD_NAMES = set(_OPTION_NAMES)
_ALLOWED_THREE_ONE: dict[Family, set[str]] = {
    "bluff": {"low", "social"},
    "open": {"low", "social", "handout", "elbow"},
}


def make_options(preset: str, overrides: dict[str, Any] | None = None) -> Options:
    """A preset with a table's house rules applied, checked so the game can always be played.

    ``lives`` takes ``True`` (the preset's own count), ``False`` or a number, as players say it.
    """
    if preset not in PRESETS:
        raise BadOptions("unknown-preset", preset=preset, presets=list(PRESET_NAMES))
    base = PRESETS[preset]
    changes = dict(overrides or {})
    unknown = set(changes) - _FIELD_NAMES
    if unknown:
        raise BadOptions("unknown-options", options=sorted(unknown))
    if "lives" in changes:
        lives = changes["lives"]
        if lives is True:
            changes["lives"] = base.lives or base.lives_default
        elif lives is False or lives == 0:
            changes["lives"] = None
    options = replace(base, **changes)
    _validate(options)
    return options


def _validate(o: Options) -> None:
    if o.three_one not in _ALLOWED_THREE_ONE[o.family]:
        raise BadOptions("three-one-not-allowed", three_one=o.three_one, family=o.family)
    if o.lives is not None and not 1 <= o.lives <= 99:
        raise BadOptions("lives-range")
    if o.family == "bluff" and o.drink == "none" and o.lives is None:
        raise BadOptions("lives-required")
    if not 1 <= o.max_rolls <= 6:
        raise BadOptions("rolls-range")
    if o.base < 1 or (o.cap is not None and o.cap < 1):
        raise BadOptions("base-cap-range")
    if not 2 <= o.min_players <= o.max_players <= 25:
        raise BadOptions("player-limits")
    if not 0 <= o.turn_timer <= MAX_TURN_TIMER:
        raise BadOptions("turn-timer-range", max_seconds=MAX_TURN_TIMER, seconds=o.turn_timer)
    if o.units not in ("sips", "points") or o.first not in ("host", "random"):
        raise BadOptions("units-first")
