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
from bot.arena.reader import PRIOR, Answer, Reader
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
        self.seats: list[str] = []
        self.announcer = ""  # who made the standing claim
        #: A persona that plays to its records (Ada) reads the bots it meets.
        self.reader = Reader(self.policy) if persona.read > 0 else None
        self.rolled_past = False  # the next seat rolled over her claim this round
        #: Per table size: rounds in which the next seat rolled over her claim, and how
        #: many of them she did not lose.
        self.past: dict[int, list[int]] = {}
        self.answers: dict[tuple[str, str, int], tuple[int, Answer]] = {}

    def hear(self, text: str) -> str | None:
        """The answer to one message, or None."""
        head, _, rest = text.partition(";")
        fields = rest.split(";")
        if head == "ROUND STARTING":
            return f"JOIN;{fields[0]}"
        if self.reader is not None:
            self.watch(head, fields)
        if head == "ROUND STARTED":
            self.claims = []
            self.seats = fields[1].split(",") if len(fields) == 2 else []
        elif head == "ANNOUNCED" and len(fields) == 2:
            roll = parse_dice(fields[1])
            if roll is not None:
                self.claims.append(RANK[roll])
                self.announcer = fields[0]
        elif head == "YOUR TURN":
            return f"{self.turn()};{fields[0]}"
        elif head == "ROLLED" and len(fields) == 2:
            roll = parse_dice(fields[0])
            if roll is not None:
                return f"ANNOUNCE;{dice(ORDER[self.claim(RANK[roll])])};{fields[1]}"
        return None

    def watch(self, head: str, fields: list[str]) -> None:
        """What the table shows of the other bots, into the reader's records."""
        assert self.reader is not None
        standing = self.claims[-1] if self.claims else None
        who = fields[0]
        if head == "PLAYER ROLLS" and standing is not None and who != self.name:
            self.reader.answered(who, standing, saw=False)
            self.rolled_past = self.rolled_past or self.announcer == self.name
        elif head == "PLAYER WANTS TO SEE" and standing is not None and who != self.name:
            self.reader.answered(who, standing, saw=True)
        elif head == "ANNOUNCED" and len(fields) == 2 and who != self.name:
            roll = parse_dice(fields[1])
            if roll is not None:
                self.reader.claimed(who, standing, RANK[roll])
        elif head == "ACTUAL DICE" and standing is not None and self.announcer != self.name:
            roll = parse_dice(who)
            if roll is not None:
                self.reader.lifted(self.announcer, standing, RANK[roll])
        elif head == "PLAYER LOST" and self.rolled_past:
            counts = self.past.setdefault(len(self.seats), [0, 0])
            counts[0] += 1
            counts[1] += self.name not in who.split(",")
        if head in ("ROUND STARTED", "PLAYER LOST"):
            self.rolled_past = False

    def neighbours(self) -> tuple[str, str]:
        """The seats before and after hers this round."""
        if self.name not in self.seats:
            return "", ""
        i = self.seats.index(self.name)
        return self.seats[i - 1], self.seats[(i + 1) % len(self.seats)]

    def answer(self) -> Answer:
        """Her best answer to this round's neighbours, worked out again as they show more."""
        assert self.reader is not None
        before, after = self.neighbours()
        size = len(self.seats)
        survived, rounds = self.past.get(size, [0, 0])[::-1]
        stamp = rounds + sum(
            rec.observed for n in (before, after) if (rec := self.reader.records.get(n))
        )
        key = (before, after, size)
        cached = self.answers.get(key)
        if cached is not None and stamp - cached[0] < 5:
            return cached[1]
        if len(self.answers) > 64:
            self.answers.clear()
        rolled_past = (survived + PRIOR * 0.75) / (rounds + PRIOR)
        found = self.reader.answer(before, after, size == 2, rolled_past)
        self.answers[key] = (stamp, found)
        return found

    def turn(self) -> str:
        """See the standing claim, or roll against it."""
        if not self.claims:
            return "ROLL"
        c = self.claims[-1]
        s = self.claims[-2] if len(self.claims) > 1 else None
        if self.reader is not None and self.rng.random() < self.reader.weight(self.announcer):
            return "SEE" if self.answer().see(c, s) else "ROLL"
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
        if self.reader is not None and self.rng.random() < self.reader.weight(self.neighbours()[1]):
            c = self.answer().best_claim(s, d)
            return c if c in legal else legal[0]
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
