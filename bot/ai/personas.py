"""The computer players' characters: one strategy with parameters, four settings of it.

Each persona is a row of numbers the same brain reads (README, Playing against the
computer), not a separate program: how much it prefers the truth, how far it bluffs,
how readily it calls, how often it rolls blind, how much risk it takes with open rolls,
and how much it plays to what it has recorded of each opponent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: A computer player's id: ``cpu_<persona>_<n>``. Not a Discord id, so it is never
#: pinged, never stored as a person's statistics, and cannot be typed as a mention.
_ID = re.compile(r"cpu_(?P<persona>[a-z]+)_(?P<n>\d{1,2})")


@dataclass(frozen=True, slots=True)
class Persona:
    key: str
    name: str
    blurb: str
    #: Bluffing: weight of claiming the truth (or the lowest claim above it) over the
    #: computed policy, 0..1.
    truth: float = 0.0
    #: Bluffing: ranks added to what the policy claims when it bluffs (bold > 0).
    bluff: float = 0.0
    #: Bluffing: added to the policy's chance of calling bullshit (callers > 0).
    call: float = 0.0
    #: Bluffing: how often, relative to the policy, it rolls blind where it may.
    blind: float = 1.0
    #: Open rolls: > 0 rolls on when the expectations are close, < 0 stands.
    risk: float = 0.0
    #: Bluffing: how much it plays the best answer to each opponent's recorded profile
    #: rather than the policy, 0..1 (the more it knows of them, the closer to this).
    read: float = 0.0
    face: str = "🤖"

    def display(self, n: int = 1) -> str:
        return f"{self.face} {self.name}" + (f" {n}" if n > 1 else "")


PERSONAS: dict[str, Persona] = {
    p.key: p
    for p in (
        Persona(
            "cautious",
            "Cautious Carla",
            "claims the truth where she can and calls only strong claims",
            truth=0.7,
            call=-0.25,
            blind=0.0,
            risk=-0.15,
        ),
        Persona(
            "bold",
            "Bold Bruno",
            "bluffs high, passes the cup blind and keeps rolling",
            bluff=2.0,
            call=-0.1,
            blind=3.0,
            risk=0.2,
        ),
        Persona(
            "caller",
            "Calling Kees",
            "calls bullshit on anything that looks loose",
            call=0.3,
            risk=0.0,
        ),
        Persona(
            "expert", "Expert Ada", "plays the computed strategy and remembers who bluffs", read=1.0
        ),
    )
}
PERSONA_NAMES: tuple[str, ...] = tuple(PERSONAS)
DEFAULT = "expert"


def computer_id(persona: str, n: int) -> str:
    return f"cpu_{persona}_{n}"


def persona_of(player: str) -> Persona | None:
    """The persona behind a computer player's id; None for a person."""
    m = _ID.fullmatch(player)
    return PERSONAS.get(m["persona"]) if m else None


def display_name(player: str) -> str | None:
    m = _ID.fullmatch(player)
    persona = PERSONAS.get(m["persona"]) if m else None
    return persona.display(int(m["n"])) if m and persona else None


#: The order the lobby's "Add computer" button seats the personas in.
SEATING_ORDER = ("expert", "cautious", "bold", "caller")


def next_persona(seated: list[str]) -> str:
    """The persona the lobby's button adds next: the first not yet at the table."""
    present = {p.key for c in seated if (p := persona_of(c)) is not None}
    return next((k for k in SEATING_ORDER if k not in present), SEATING_ORDER[0])


def next_id(persona: str, taken: list[str]) -> str:
    """The first free id for another computer of ``persona`` at a table."""
    n = 1
    while computer_id(persona, n) in taken:
        n += 1
    return computer_id(persona, n)


#: Statistics of computer players are kept under negative ids (one per persona), which
#: leaderboards leave out: people rank among people, and /stats can still show them.
STATS_IDS: dict[str, int] = {key: -(i + 1) for i, key in enumerate(PERSONAS)}


def stats_id(player: str) -> int | None:
    persona = persona_of(player)
    return STATS_IDS[persona.key] if persona else None


def persona_of_stats_id(user_id: int) -> Persona | None:
    return next((PERSONAS[k] for k, v in STATS_IDS.items() if v == user_id), None)
