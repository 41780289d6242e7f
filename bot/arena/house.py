"""The house players: the Discord table's computer personas as arena contestants (README,
Bot arena: The house players).

Each plays the bot arena's rules from the heads-up strategy the project's solver computed
for them (``python -m tools.cfr --preset maexchen``, shipped as
``bot/ai/policy/maexchen.json``), bent by its persona's numbers as at the table: Carla
tells the truth more, Bruno bluffs higher, Kees calls more, Ada plays the strategy as
solved. They hear the same messages as any bot and answer through the same server, under
the same answer window.
"""

from __future__ import annotations

import random

from bot.ai import bluff_policy
from bot.ai.personas import PERSONAS, Persona
from bot.arena.protocol import dice, parse_dice
from bot.engine.rolls import ORDER, RANK

#: The rule set the house players' strategy was solved for.
RULES = "maexchen"
TOP = len(ORDER) - 1
#: Each persona's name on the arena (the protocol's names allow no spaces).
HOUSE_NAMES: dict[str, str] = {
    "expert": "ExpertAda",
    "cautious": "CautiousCarla",
    "bold": "BoldBruno",
    "caller": "CallingKees",
}


class HousePlayer:
    """One persona's answers to the server's messages (pure: the server delivers them)."""

    def __init__(self, persona: Persona, rng: random.Random | None = None) -> None:
        self.persona = persona
        self.name = HOUSE_NAMES[persona.key]
        self.rng = rng or random.SystemRandom()
        self.policy = bluff_policy.policy(RULES)
        self.claims: list[int] = []  # the ranks announced this round, in order

    def hear(self, text: str) -> str | None:
        """The answer to one message, or None."""
        head, _, rest = text.partition(";")
        fields = rest.split(";")
        if head == "ROUND STARTING":
            return f"JOIN;{fields[0]}"
        if head == "ROUND STARTED":
            self.claims = []
        elif head == "ANNOUNCED" and len(fields) == 2:
            roll = parse_dice(fields[1])
            if roll is not None:
                self.claims.append(RANK[roll])
        elif head == "YOUR TURN":
            return f"{self.turn()};{fields[0]}"
        elif head == "ROLLED" and len(fields) == 2:
            roll = parse_dice(fields[0])
            if roll is not None:
                return f"ANNOUNCE;{dice(ORDER[self.claim(RANK[roll])])};{fields[1]}"
        return None

    def turn(self) -> str:
        """See the standing claim, or roll against it."""
        if not self.claims:
            return "ROLL"
        c = self.claims[-1]
        s = self.claims[-2] if len(self.claims) > 1 else None
        call = self.policy.respond(c, s, "seen").get("call", 0.0) + self.persona.call
        return "SEE" if self.rng.random() < call else "ROLL"

    def claim(self, d: int) -> int:
        """What to announce, holding dice of rank ``d``."""
        s = self.claims[-1] if self.claims else None
        legal = self.policy.legal_claims(s)
        if not legal:  # nothing is over a top claim (it was lifted): never asked
            return TOP
        if self.rng.random() < self.persona.truth:
            return d if d in legal else legal[0]
        chosen = bluff_policy.choose(self.policy.claim_seen(s, d), self.rng)
        c = chosen if isinstance(chosen, int) else legal[0]
        if c > d and c < TOP and self.persona.bluff:  # a bolder bluff, short of a 21 lie
            c = min(c + round(self.persona.bluff), TOP - 1)
        return c if c in legal else legal[0]


def house(keys: list[str], rng: random.Random | None = None) -> list[HousePlayer]:
    """The house players named by persona keys (``expert``, ``cautious``, ``bold``,
    ``caller``)."""
    unknown = [k for k in keys if k not in PERSONAS]
    if unknown:
        raise ValueError(f"unknown persona {unknown[0]!r}: there are {', '.join(PERSONAS)}")
    return [HousePlayer(PERSONAS[k], rng) for k in keys]
