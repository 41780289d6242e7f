"""The computer at a bluffing table: the heads-up strategy computed by CFR (README,
Playing against the computer), read off the seat's inputs and shaded by the persona.

The policy speaks of one round between two players; at a larger table the computer uses
it by position: it answers the claim made to it and claims to the next player alike.
What it may know is exactly its :class:`~bot.ai.knowledge.Inputs`: its own dice if it
saw them, the standing claim, how that claim was made and what it beat, and what the
server's public statistics say of the claimer.

The policy is the safe play against anyone. A persona that reads people (the expert)
leans its calls toward a claimer's recorded bluff rate, bounded (``MAX_LEAN``) and only as
far as the record is worth trusting, so a player who bluffs a lot is called more, and
one who tries to steer her by bluffing rarely for a while can move her only a little.
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random

from bot.engine import ORDER, RANK, Act, Move

from . import View, bluff_policy
from .knowledge import Inputs, Record
from .personas import Persona

TOP_RANK = len(ORDER) - 1

#: How far a claimer's recorded bluff rate moves the chance of calling them, per unit of
#: difference from a typical rate; the lean never exceeds ``MAX_LEAN`` either way.
READ_WEIGHT = 0.8
TYPICAL_BLUFF_RATE = 0.3
MAX_LEAN = 0.15
#: Claims a player must have made before their bluff rate is read at all, and the number
#: at which it is trusted half.
MIN_CLAIMS = 10
HALF_TRUST = 30
#: How often a player whose dice fall short of the standing claim is taken to answer
#: with a tie (rather than a higher lie), where ties are allowed: what makes a tie claim
#: likely a bluff when the policy itself has no tie to answer.
TIE_LIE_SHARE = 0.5


def decide(inputs: Inputs, rng: Random, persona: Persona) -> Move | None:
    view = inputs.view
    legal = [Move.decode(m) for m in view.get("legal_moves") or []]
    if not legal:
        return None
    table = "mexican" if view["options"]["ties"] else "dollar"
    stage = view["stage"]
    standing = _rank(view.get("standing"))
    seen = _rank(view.get("cup"))
    if stage == "answer" and seen is not None and standing is not None and seen < standing:
        return Move(Act.BULLSHIT)  # a cup passed back to the one who saw it: a sure catch
    if stage in ("open", "reroll"):
        start = dict(bluff_policy.start(table))
        start["blind"] = start.get("blind", 0.0) * persona.blind
        return _pick(rng, {Act.ROLL: start.get("roll", 0.0), Act.ROLL_BLIND: start["blind"]},
                     legal)  # fmt: skip
    if stage == "rolled":
        return _claim(view, rng, persona, table, standing, legal)
    if stage == "answer":
        claim = standing
        over, how = _rank(view.get("claim_over")), view.get("claim_how") or "seen"
        if claim is not None and claim == over and how == "seen":
            call = _tie_call(table, claim)  # the policy's round always calls a tie
        else:
            call = bluff_policy.respond(table, claim, over, how).get("call", 0.0)
        call += persona.call
        if persona.read:
            call += persona.read * lean(inputs.records.get(view.get("claimer") or ""))
        if seen is not None:
            call = 0.0  # it saw that cup, and it holds the claim
        call = min(1.0, max(0.0, call))
        if rng.random() < call and Move(Act.BULLSHIT) in legal:
            return Move(Act.BULLSHIT)
        return _after(view, rng, persona, table, claim, over, how, legal, answering=True)
    if stage == "accepted":
        over, how = _rank(view.get("claim_over")), view.get("claim_how") or "seen"
        return _after(view, rng, persona, table, standing, over, how, legal, answering=False)
    return legal[0]


def lean(record: Record | None) -> float:
    """How much more (or less) often to call this claimer than the policy does, from
    their public bluff rate: 0 until they made ``MIN_CLAIMS`` claims, and at most
    ``MAX_LEAN`` either way however extreme the record."""
    rate = record.bluff_rate(MIN_CLAIMS) if record is not None else None
    if rate is None or record is None:
        return 0.0
    trust = record.claims / (record.claims + HALF_TRUST)
    shift = READ_WEIGHT * (rate - TYPICAL_BLUFF_RATE) * trust
    return max(-MAX_LEAN, min(MAX_LEAN, shift))


def _tie_call(table: str, claim: int) -> float:
    """Whether to call a claim that ties the one it beat (1.0) or accept it (0.0): calling
    wins when it is a lie, and also gives the caller the next start; accepting means
    rolling against the same claim, worth what the policy's round says it is worth."""
    policy = bluff_policy.policy(table)
    p = policy.roll_odds
    below = sum(p[:claim])
    true = p[claim] / (p[claim] + below * TIE_LIE_SHARE) if p[claim] else 0.0
    call_value = (1.0 - 2.0 * true) + policy.start_value
    return 1.0 if call_value > policy.roll_value(claim) else 0.0


def _after(
    view: View, rng: Random, persona: Persona, table: str, claim: int | None, over: int | None,
    how: str, legal: list[Move], *, answering: bool,
) -> Move:  # fmt: skip
    """Having taken the cup: roll, roll blind, or pass it on unseen with a higher claim.
    While still answering, passing is done by accepting first (the next decision)."""
    after = dict(bluff_policy.after(table, claim, over, how)) if claim is not None else {}
    weights = {Act.ROLL: after.get("roll", 1.0),
               Act.ROLL_BLIND: after.get("blind", 0.0) * persona.blind}  # fmt: skip
    passing = after.get("pass", 0.0)
    if answering:
        weights[Act.ACCEPT] = passing
        return _pick(rng, weights, legal)
    weights[Act.PASS] = passing
    chosen = _pick(rng, weights, legal)
    if chosen.act is not Act.PASS:
        return chosen
    values = bluff_policy.pass_claim(table, claim, over, how)
    return _pick_claim(rng, values, [m for m in legal if m.act is Act.PASS], Act.PASS)


def _claim(
    view: View, rng: Random, persona: Persona, table: str, standing: int | None,
    legal: list[Move],
) -> Move:  # fmt: skip
    cup = view.get("cup")
    claims = [m for m in legal if m.act is Act.CLAIM]
    if cup is not None:
        dice = RANK[(cup[0], cup[1])]
        policy = dict(bluff_policy.claim_seen(table, standing, dice))
    else:
        dice = None
        policy = dict(bluff_policy.claim_blind(table, standing))
    fold = policy.pop("fold", 0.0)
    weights: dict[int, float] = {int(r): p for r, p in policy.items()}
    if dice is not None and persona.truth:
        honest = _honest(dice, claims)
        weights = {r: (1 - persona.truth) * p for r, p in weights.items()}
        weights[honest] = weights.get(honest, 0.0) + persona.truth
        fold *= 1 - persona.truth
    if persona.bluff:
        weights = _bolder(weights, dice, persona.bluff)
    if fold and Move(Act.FOLD) in legal and rng.random() < fold / (fold + sum(weights.values())):
        return Move(Act.FOLD)
    return _pick_claim(rng, weights, claims, Act.CLAIM)


def _honest(dice: int, claims: list[Move]) -> int:
    """The truth if it is a valid claim, else the lowest valid claim (the least lie)."""
    ranks = sorted(RANK[m.roll] for m in claims if m.roll is not None)
    return dice if dice in ranks else ranks[0]


def _bolder(weights: dict[int, float], dice: int | None, shift: float) -> dict[int, float]:
    """Move the weight of every bluff ``shift`` ranks up (a bolder lie)."""
    out: dict[int, float] = {}
    for rank, p in weights.items():
        if dice is None or rank > dice:
            rank = min(len(ORDER) - 1, rank + round(shift))
        out[rank] = out.get(rank, 0.0) + p
    return out


def _pick_claim(rng: Random, weights: Mapping[int, float], legal: list[Move], act: Act) -> Move:
    offered = {RANK[m.roll]: m for m in legal if m.roll is not None}
    usable = {r: p for r, p in weights.items() if r in offered and p > 0}
    if not usable:  # the policy has no legal claim here: the lowest one
        return offered[min(offered)] if offered else Move(act)
    return offered[_sample(rng, usable)]


def _pick(rng: Random, weights: Mapping[Act, float], legal: list[Move]) -> Move:
    plain = {m.act: m for m in legal if m.roll is None and m.to is None}
    usable = {a: p for a, p in weights.items() if a in plain and p > 0}
    if not usable:
        return next(iter(plain.values())) if plain else legal[0]
    return plain[_sample(rng, usable)]


def _sample(rng: Random, weights: Mapping[int, float] | Mapping[Act, float]) -> object:
    total = sum(weights.values())
    pick = rng.random() * total
    for key, weight in weights.items():
        pick -= weight
        if pick <= 0:
            return key
    return next(reversed(list(weights)))


def _rank(value: object) -> int | None:
    if value is None:
        return None
    high, low = value  # type: ignore[misc]
    return RANK[(int(high), int(low))]
