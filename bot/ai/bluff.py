"""The computer at a bluffing table: the heads-up strategy computed by CFR (README,
Playing against the computer), read off the seat's inputs and shaded by the persona.

The policy speaks of one round between two players; at a larger table the computer uses
it by position: it answers the claim made to it and claims to the next player alike.
What it may know is exactly its :class:`~bot.ai.knowledge.Inputs`: its own dice if it
saw them, the standing claim, how that claim was made and what it beat; and, for a
persona that reads people, the profile the server's public statistics hold of each
person (:mod:`bot.ai.opponents`).

The policy is the safe play against anyone: nobody can beat it by much, but it also
takes little from players who bluff too little or call too much. Against a profile the
expert plays the best answer to that person instead, as often as she trusts the profile
(more counters, more trust; heads-up never more than ``MAX_TRUST``) and, heads-up, no
more often than she can afford
(README, Playing against the computer: "Safe exploitation"): the best answer can itself
be beaten by someone who knows it, so she risks on it only what she has already won from
that person above the policy's own expected result, as their public record of rounds
against her shows, and no more than a capped running bank of it (:mod:`bot.ai.bank`), so
that a long stretch of weak play cannot pay for a long punishment. Against weak play the
bank fills and she leans in; against someone who punishes the lean it empties and she
is back on the policy, so nobody can take more from her than they gave, nor more than
the cap in any stretch. And she does not answer a
record at all while the person's recent play has left it (:mod:`bot.ai.recent`): a
switch of style, which is how a lean is punished, is caught within a few games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import TypeVar

from bot.ai import View, bluff_policy
from bot.ai.bank import banked, opening
from bot.ai.knowledge import Inputs
from bot.ai.opponents import Profile, Reading, Rules, reading
from bot.ai.personas import Persona
from bot.engine import ORDER, RANK, Act, Move

#: Counters (seen claims and answers) at which the model of an opponent is trusted half,
#: and the most it is ever trusted heads-up: the rest of the time she plays the policy.
#: At a bigger table the alternative to the person's record is a typical player's, no
#: safer an answer than their own long, steady record, so there trust has no cap.
HALF_TRUST = 30
MAX_TRUST = 0.9

#: What one round of the pure best answer may cost her against someone who knows it, in
#: rounds, per preset and part (``"claim"``: what she claims, and whether she rolls or
#: passes; ``"answer"``: whether she calls): what the arena's best responder to her takes
#: from each part alone (README, Benchmarks: Computer players). Each part risks the bank
#: on its own: ``bank / (RISK * SPEND)`` of her plays, ``SPEND`` the rounds over which
#: the bank may be spent. Her calls are the easier part to punish: someone who knows
#: where she accepts bluffs there.
RISK: dict[str, dict[str, float]] = {
    "mexican": {"claim": 0.005, "answer": 0.07},
    "dollar": {"claim": 0.03, "answer": 0.075},
}
SPEND = 150.0
#: The most each part may risk per round however big the bank, in rounds, per preset: a
#: last brake behind the bank and the doubt (docs/computer.md, "Safe exploitation"). The
#: running bank bounds what a punishment takes in any stretch (:mod:`bot.ai.bank`), so
#: this no longer has to: at 0.07 it lets her calls reach the trust cap against a steady
#: player.
RATE: dict[str, float] = {"mexican": 0.07, "dollar": 0.07}

K = TypeVar("K")


def decide(inputs: Inputs, rng: Random, persona: Persona) -> Move | None:
    view = inputs.view
    known = {p: r.profile for p, r in inputs.records.items()}
    doubted = {p for p, r in inputs.records.items() if r.doubted}
    banks = {p: r.bank for p, r in inputs.records.items()}
    legal = [Move.decode(m) for m in view.get("legal_moves") or []]
    if not legal:
        return None
    table = "mexican" if view["options"]["ties"] else "dollar"
    stage = view["stage"]
    standing = _rank(view.get("standing"))
    seen = _rank(view.get("cup"))
    if stage == "answer" and seen is not None and standing is not None and seen < standing:
        return Move(Act.BULLSHIT)  # a cup passed back to the one who saw it: a sure catch
    best = _read(view, rng, persona, known, doubted, banks, stage)
    if best is not None:
        move = _exploit(view, best, stage, standing, seen, legal)
        if move is not None:
            return move
    if stage in ("open", "reroll"):
        start = dict(bluff_policy.start(table))
        start["blind"] = start.get("blind", 0.0) * persona.blind
        return _pick(rng, {Act.ROLL: start.get("roll", 0.0), Act.ROLL_BLIND: start["blind"]}, legal)
    if stage == "rolled":
        return _claim(view, rng, persona, table, standing, legal)
    if stage == "answer":
        claim = standing
        assert claim is not None  # a claim is standing whenever one waits for an answer
        over, how = _rank(view.get("claim_over")), view.get("claim_how") or "seen"
        answer = bluff_policy.respond(table, claim, over, how)
        call = answer.get("call", 0.0) + persona.call
        if persona.read and seen is not None:
            call = 0.0  # it saw that cup, and it holds the claim
        call = min(1.0, max(0.0, call))
        if rng.random() < call and Move(Act.BULLSHIT) in legal:
            return Move(Act.BULLSHIT)
        return _after(view, rng, persona, table, claim, over, how, legal, answering=True)
    if stage == "accepted":
        over, how = _rank(view.get("claim_over")), view.get("claim_how") or "seen"
        return _after(view, rng, persona, table, standing, over, how, legal, answering=False)
    return legal[0]


def _opponent(view: View, stage: str) -> str | None:
    """Whom this decision is about: the claimer when answering, else the next player,
    who will answer our claim."""
    if stage == "answer":
        claimer: str | None = view.get("claimer")
        return claimer
    seats: list[str] = list(view.get("seats") or [])
    me = view.get("viewer")
    if me not in seats or len(seats) < 2:
        return None
    return seats[(seats.index(me) + 1) % len(seats)]


def _read(
    view: View,
    rng: Random,
    persona: Persona,
    known: Mapping[str, Profile],
    doubted: set[str],
    banks: Mapping[str, float | None],
    stage: str,
) -> Reading | None:
    """The best answer to this opponent's profile, or None to play the policy this time:
    the more the bot knows of them (and the more the persona reads people), the more
    often it plays the best answer rather than the policy.

    The policy is a heads-up equilibrium; at a bigger table it is not the safe play (its
    calls buy a next start that is worth less there), so there the expert answers a
    typical player instead when she does not play to the person: that too is an answer
    nobody can steer."""
    if not persona.read:
        return None
    opponent = _opponent(view, stage) or ""
    profile = known.get(opponent)
    players = max(2, len(view.get("seats") or ()))
    table = "mexican" if view["options"]["ties"] else "dollar"
    part = part_of(stage)
    share = exploit_share(
        profile, persona, table, players, part, opponent in doubted, banks.get(opponent)
    )
    if profile is None or share <= 0 or rng.random() >= share:
        if players == 2:
            return None
        profile = Profile()
    start = bluff_policy.policy(table).start_value * 2 / players
    return reading(profile, Rules.of(view["options"]), start, players)


def part_of(stage: str) -> str:
    """Which part of her play a decision is, for its risk (``RISK``)."""
    return "answer" if stage == "answer" else "claim"


def exploit_share(
    profile: Profile | None,
    persona: Persona,
    table: str,
    players: int,
    part: str,
    doubted: bool = False,
    bank: float | None = None,
) -> float:
    """How often she plays the best answer to ``profile`` rather than the policy in
    ``part`` of her play: as often as she trusts the record and, heads-up, can afford
    (:func:`affordable`); never while the record is ``doubted``: the person's recent
    play left it (:mod:`bot.ai.recent`), and the answer to a record someone has left is
    what a switch of style is made to punish (at a bigger table she then answers a
    typical player, as when she does not play to the person). At a bigger table there
    is no equilibrium to keep to, so otherwise trust alone decides, up to always."""
    if profile is None or not persona.read or doubted:
        return 0.0
    seen = profile.seen_claims + profile.answers
    trust = persona.read * seen / (seen + HALF_TRUST)
    if players > 2:
        return trust
    return min(MAX_TRUST, trust, affordable(profile, table, part, bank))


def affordable(profile: Profile, table: str, part: str, bank: float | None = None) -> float:
    """The share of her plays in ``part`` she can put on the best answer heads-up: her
    running ``bank`` (:mod:`bot.ai.bank`; without one, what a memory would open with)
    spread over ``SPEND`` rounds at that part's ``RISK`` each, 0..1."""
    risk = RISK[table][part]
    if bank is None:
        bank = opening(banked(profile, table))
    return min(1.0, RATE[table] / risk, max(0.0, bank / (risk * SPEND)))


def _exploit(
    view: View,
    reading: Reading,
    stage: str,
    standing: int | None,
    seen: int | None,
    legal: list[Move],
) -> Move | None:
    """The best answer's move, or None where it has none (the policy decides)."""
    roll = Move(Act.ROLL)
    if stage in ("open", "reroll", "accepted"):
        return roll if roll in legal else None
    if stage == "rolled":
        if seen is None:
            return None
        values = reading.claim_values(standing, seen)
        claims = {RANK[m.roll]: m for m in legal if m.act is Act.CLAIM and m.roll is not None}
        # Never below her dice: a claim under them tells whoever knows her code that the
        # cup holds more, which in ``dollar`` they pass on unseen at no risk.
        usable = [(values[r], -r) for r in claims if r in values and r >= seen]
        usable = usable or [(values[r], -r) for r in claims if r in values]
        if not usable:
            return None
        return claims[-max(usable)[1]]
    if stage != "answer" or standing is None or roll not in legal:
        return None
    call = Move(Act.BULLSHIT)
    if seen is not None:
        return call if seen < standing else roll
    how = view.get("claim_how") or "seen"
    worth = worth_calling(reading, standing, _rank(view.get("claim_over")), how)
    if worth is None:
        return None
    return call if worth and call in legal else roll


def worth_calling(reading: Reading, claim: int, over: int | None, how: str = "seen") -> bool | None:
    """Whether calling ``claim`` wins more than accepting it and rolling (None: the
    reading cannot say, e.g. a cup passed on by someone who never saw it)."""
    if how == "seen":
        bluff = reading.bluff_chance(claim, over)
    elif how == "blind":
        bluff = sum(reading.fresh[:claim])  # a fresh roll nobody saw
    else:
        return None
    if bluff is None:
        return None
    return reading.call_value(bluff) > reading.accept_value(claim)


def _after(
    view: View,
    rng: Random,
    persona: Persona,
    table: str,
    claim: int | None,
    over: int | None,
    how: str,
    legal: list[Move],
    *,
    answering: bool,
) -> Move:
    """Having taken the cup: roll, roll blind, or pass it on unseen with a higher claim.
    While still answering, passing is done by accepting first (the next decision)."""
    after = dict(bluff_policy.after(table, claim, over, how)) if claim is not None else {}
    weights = {
        Act.ROLL: after.get("roll", 1.0),
        Act.ROLL_BLIND: after.get("blind", 0.0) * persona.blind,
    }
    passing = after.get("pass", 0.0)
    if answering:
        weights[Act.ACCEPT] = passing
        return _pick(rng, weights, legal)
    weights[Act.PASS] = passing
    chosen = _pick(rng, weights, legal)
    if chosen.act is not Act.PASS:
        return chosen
    assert claim is not None  # a pass is legal only with an accepted claim standing
    values = bluff_policy.pass_claim(table, claim, over, how)
    return _pick_claim(rng, values, [m for m in legal if m.act is Act.PASS], Act.PASS)


def _claim(
    view: View,
    rng: Random,
    persona: Persona,
    table: str,
    standing: int | None,
    legal: list[Move],
) -> Move:
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


def _pick_claim(
    rng: Random,
    weights: Mapping[int, float] | Mapping[bluff_policy.Action, float],
    legal: list[Move],
    act: Act,
) -> Move:
    offered = {RANK[m.roll]: m for m in legal if m.roll is not None}
    usable = {r: p for r, p in weights.items() if isinstance(r, int) and r in offered and p > 0}
    if not usable:  # the policy has no legal claim here: the lowest one
        return offered[min(offered)] if offered else Move(act)
    return offered[_sample(rng, usable)]


def _pick(rng: Random, weights: Mapping[Act, float], legal: list[Move]) -> Move:
    plain = {m.act: m for m in legal if m.roll is None and m.to is None}
    usable = {a: p for a, p in weights.items() if a in plain and p > 0}
    if not usable:
        return next(iter(plain.values())) if plain else legal[0]
    return plain[_sample(rng, usable)]


def _sample(rng: Random, weights: Mapping[K, float]) -> K:
    total = sum(weights.values())
    pick = rng.random() * total
    for key, weight in weights.items():
        pick -= weight
        if pick <= 0:
            return key
    return next(reversed(list(weights)))


def _rank(value: Sequence[int] | None) -> int | None:
    if value is None:
        return None
    high, low = value
    return RANK[(int(high), int(low))]
