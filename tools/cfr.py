"""Offline solver: a heads-up strategy for one bluffing round by counterfactual regret
minimisation (CFR+), shipped as data for :mod:`bot.ai.bluff_policy` (README, Rule sets:
``mexican`` and ``dollar``).

The abstract game is one round between two players, zero-sum: whoever loses the call (or
folds) scores -1, the other +1, and whoever starts the next round (the caller; after a
fold, the other player) scores a further ``start_value`` against the other: starting is
an edge, so a call is worth more than the round it settles. ``start_value`` is the fixed
point of "the discounted value of a round to its starter" (:func:`settle_start_value`).
Ranks are 0..20, the index in ``ORDER`` (20 is the top roll). Every node is seen from the
player to act, and an information set is exactly a node key:

- ``START``: roll (see the dice) or, where blind rolls are on, roll blind.
- ``CLAIM_SEEN(s, d)``: own dice ``d`` against the standing claim ``s`` (``None``: the
  first claim): claim a valid value, or fold where folding is on.
- ``CLAIM_BLIND(s)``: the same without knowing the dice.
- ``RESP(c, s, how)``: a claim ``c`` over ``s``, made after a seen roll, a blind roll or
  a pass: call, or accept.
- ``AFTER(c, s, how)``: the accepter holds the cup: roll, roll blind, or pass it on
  unseen (``dollar``, not after a top claim).
- ``PASS_CLAIM(c, s, how)``: the higher claim made about the unseen cup being passed.

Simplifications, so that the game is finite and small:

- A responder facing a claim equal to the claim it beat (a tie in ``mexican``, the top
  over the top in ``dollar``) may call or accept it, as in the real game; accepting means
  rolling against the same claim again, so that level of the game loops on itself. Its
  values are found by repeating the level (``TIE_PASSES``) until they settle; the forward
  passes leave out the reach that comes round such a loop, which scales the weight of a
  level's information sets but not the beliefs in them.
- A player remembers only the node key. In particular the dice under a passed cup are
  carried exactly through the dynamics (every node holds a vector over the 21 possible
  cups), but the player who once saw them does not use them after the pass.
- A 3-1 where it is a Social (``mexican``) is re-rolled: it is never a result nor a claim.
- Every lost round scores the same, so drink tiers are out of it and a fold, the sure
  loss, is never better than some claim.

Apart from ties, the key fixes the future: the game is a DAG of (key, cup) states, each reached by
many histories. One pass forward sums the reach of every history (split by whose actions
are counted), one pass backward gives each state's value to the player to act there, and
regret matching+ updates each information set from the regrets of all its states. Both
seats play the same role-relative strategy, which is what the lookup table serves.

Exploitability is computed exactly on this abstraction by a best-response DP against the
fixed average strategy (the best responder chooses one action per information set,
bottom-up over the claim ranks), for the starter and for the second player; the figure
reported is their mean, ``(BR as starter + BR as second) / 2``: what a perfect opponent
wins per round on average over both seats (0 at an equilibrium). Where an information set
merges histories with different beliefs about the cup (only after a pass: chains that
began differently) the per-set choice is the one the summed counterfactual values favour
(the usual computation), which does not prove that no cleverer per-set choice exists;
everywhere else the merged histories share one belief and the best response is exact.

Run ``python -m tools.cfr --preset dollar --iterations 10000 --out bot/ai/policy/dollar.json``
(a few minutes per preset on one core; ``mexican``'s ties make it the slower).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bot.engine.presets import PRESETS
from bot.engine.rolls import ORDER, THREE_ONE, odds_in_36

Array = NDArray[np.float64]
Mask = NDArray[np.bool_]
Profile = dict[str, Array]

N = len(ORDER)  # ranks 0..20
TOP = N - 1
NONE = N  # the index of "no standing claim" on every s axis
S = N + 1
HOWS = ("seen", "blind", "pass")
SEEN, BLIND, PASS = 0, 1, 2
CALL, ACCEPT = 0, 1
ROLL, ROLL_BLIND, PASS_ON = 0, 1, 2  # actions at START (the first two) and AFTER
FOLD = N  # the last action of a claim node
AFTER_ACTIONS = ("roll", "blind", "pass")
RESP_ACTIONS = ("call", "accept")
#: Table names, in the order the JSON lists them.
TABLES = ("start", "claim_seen", "claim_blind", "respond", "after", "pass_claim")
#: Probabilities below this are dropped from the shipped table (and the rest renormalised).
PRUNE = 1e-3
DIGITS = 4
#: How often a player errs, for the belief at spots that perfect play never reaches.
TREMBLE = 1e-3
FORMAT = 2
#: How much the round after next counts against the next: a game of lives is a handful of
#: rounds, so the start of the next one is worth a little less than a whole round's edge.
DISCOUNT = 0.9


@dataclass(frozen=True)
class Rules:
    """The mechanisms of a bluffing preset that change the abstract game."""

    preset: str
    ties: bool
    blind: bool
    pass_on: bool
    fold: bool
    reroll_three_one: bool
    #: A top claim is lifted at once (no accepting it, nothing over it), and every round
    #: is reseated at random, so starting the next one is worth nothing: the bot arena's
    #: Mäxchen rules (README, Arena rules).
    top_shown: bool = False

    @classmethod
    def of(cls, preset: str) -> Rules:
        if preset in ARENA_RULES:
            return ARENA_RULES[preset]
        options = PRESETS[preset]
        if options.family != "bluff":
            raise ValueError(f"{preset} is not a bluffing rule set")
        return cls(
            preset=preset,
            ties=options.ties,
            blind=options.blind,
            pass_on=options.pass_unrolled,
            fold=options.fold,
            reroll_three_one=options.three_one == "social",
        )

    def to_dict(self) -> dict[str, Any]:
        rules = {
            "ties": self.ties,
            "blind": self.blind,
            "pass": self.pass_on,
            "fold": self.fold,
            "reroll_three_one": self.reroll_three_one,
        }
        return {**rules, "top_shown": True} if self.top_shown else rules


#: Rule sets solved here that are no Discord preset: the bot arena's (bot/arena/).
ARENA_RULES: dict[str, Rules] = {
    "maexchen": Rules("maexchen", False, False, False, False, False, top_shown=True),
}
#: Every rule set the solver takes.
SOLVABLE: tuple[str, ...] = ("dollar", "mexican", *ARENA_RULES)


class Game:
    """The abstract game's legal actions as masks over fixed-shape arrays, so one CFR
    iteration is a few hundred vector operations instead of a walk over every node.

    Shapes (``h``: how, ``c``: claim, ``s``/``k``: the claim beaten, ``d``/``D``: the cup):
    ``start`` (2,), ``claim_seen`` (s, d, N+1), ``claim_blind`` (s, N+1), ``respond``
    (h, c, k, 2), ``after`` (h, c, k, 3), ``pass_claim`` (h, c, k, N).
    """

    def __init__(self, rules: Rules, start_value: float = 0.0) -> None:
        self.rules = rules
        self.start_value = start_value
        odds = np.array([odds_in_36(r) for r in ORDER], dtype=np.float64)
        if rules.reroll_three_one:
            odds[ORDER.index(THREE_ONE)] = 0.0
        self.p: Array = odds / odds.sum()
        claimable = self.p > 0
        self.claimable: Mask = claimable
        claim_ok = np.zeros((S, N), dtype=bool)
        claim_ok[NONE] = claimable
        for s in range(N):
            for c in range(N):
                higher = c > s or (c == s and (rules.ties or (s == TOP and not rules.top_shown)))
                claim_ok[s, c] = bool(claimable[s] and claimable[c] and higher)
        self.claim_ok: Mask = claim_ok
        tie = np.zeros((S, N), dtype=bool)
        for s in range(N):
            tie[s, s] = claim_ok[s, s]
        self.tie: Mask = tie
        free = claim_ok & ~tie  # claims a cup passed on unseen may carry
        resp_ok = np.zeros((3, N, S), dtype=bool)
        resp_ok[SEEN] = claim_ok.T  # a tie too: it may be accepted (and the cup rolled)
        if rules.blind:
            resp_ok[BLIND] = claim_ok.T
        if rules.pass_on:
            resp_ok[PASS, :, :TOP] = free[:TOP].T  # passing is off after a top claim
        self.resp_ok: Mask = resp_ok
        self.term: Array = (
            np.where(np.arange(N)[None, :] < np.arange(N)[:, None], 1.0, -1.0) + start_value
        )  # [c, D]: the responder's score for calling a claim c over a cup D
        #: A fold loses the round and hands the next start to the other player.
        self.fold_score = -1.0 - start_value

        seen_ok = np.zeros((S, N), dtype=bool)  # claim_seen(s, d) exists
        for s in range(S):
            if s == NONE or claimable[s]:
                seen_ok[s] = claimable
        blind_ok = np.zeros(S, dtype=bool)
        if rules.blind:
            blind_ok[NONE] = True
            blind_ok[:N] = claimable
        fold_ok = np.zeros(S, dtype=bool)
        fold_ok[:N] = rules.fold
        cs = np.zeros((S, N, N + 1), dtype=bool)
        cs[:, :, :N] = seen_ok[:, :, None] & claim_ok[:, None, :]
        cs[:, :, FOLD] = seen_ok & fold_ok[:, None]
        cb = np.zeros((S, N + 1), dtype=bool)
        cb[:, :N] = blind_ok[:, None] & claim_ok
        cb[:, FOLD] = blind_ok & fold_ok
        after = np.zeros((3, N, S, 3), dtype=bool)
        after[..., ROLL] = resp_ok
        after[..., ROLL_BLIND] = resp_ok & rules.blind
        after[..., PASS_ON] = resp_ok & rules.pass_on & (np.arange(N) < TOP)[None, :, None]
        pc = after[..., PASS_ON][..., None] & claim_ok[:N][None, :, None, :]
        respond = np.repeat(resp_ok[..., None], 2, axis=-1)
        if rules.top_shown:  # a top claim is lifted at once: calling it is all there is
            respond[:, TOP, :, ACCEPT] = False
            after[:, TOP] = False
        self.masks: dict[str, Mask] = {
            "start": np.array([True, rules.blind]),
            "claim_seen": cs,
            "claim_blind": cb,
            "respond": respond,
            "after": after,
            "pass_claim": pc,
        }
        self.floats: dict[str, Array] = {k: m.astype(np.float64) for k, m in self.masks.items()}
        self.resp_okf: Array = resp_ok.astype(np.float64)

    @classmethod
    def of(cls, preset: str, start_value: float = 0.0) -> Game:
        return cls(Rules.of(preset), start_value)

    def uniform(self) -> Profile:
        return {name: _normalise(f, f) for name, f in self.floats.items()}


def _normalise(weights: Array, mask: Array) -> Array:
    """Weights as a distribution over the legal actions; uniform where they are all 0."""
    total = weights.sum(axis=-1, keepdims=True)
    count = mask.sum(axis=-1, keepdims=True)
    uniform = np.divide(mask, count, out=np.zeros_like(mask), where=count > 0)
    shares = np.divide(weights, total, out=np.zeros_like(weights), where=total > 0)
    return np.where(total > 0, shares, uniform)


#: Passes over a standing claim that may be tied: accepting a tie means rolling against
#: the same claim again, so its value is found by repeating the level until it settles.
TIE_PASSES = 12


def _passes(g: Game, s: int) -> int:
    return TIE_PASSES if s != NONE and g.tie[s, s] else 1


def _levels() -> list[int]:
    """The standing claims in the order reach flows: no claim yet, then upwards."""
    return [NONE, *range(N)]


# --- one CFR iteration --------------------------------------------------------------------


def _reach(g: Game, prof: Profile) -> tuple[dict[str, Array], dict[str, Array]]:
    """Forward pass: per state, X sums over histories the product of the actor's own
    action probabilities and chance, Y the product of the opponent's and chance.

    Y is the counterfactual reach that weighs regrets; X (own reach, each opponent path
    counted once) weighs the average strategy. With perfect recall X is the textbook own
    reach times a constant per information set, which the average cancels.
    """
    p = g.p
    okf = g.resp_okf
    amask = g.floats["after"]
    xs = {k: np.zeros(shape) for k, shape in _STATE_SHAPES.items()}
    ys = {k: np.zeros(shape) for k, shape in _STATE_SHAPES.items()}
    xcs, ycs, xcb, ycb = xs["claim_seen"], ys["claim_seen"], xs["claim_blind"], ys["claim_blind"]
    xr, yr, xa, ya = xs["respond"], ys["respond"], xs["after"], ys["after"]
    xp, yp = xs["pass_claim"], ys["pass_claim"]
    xcs[NONE] = prof["start"][ROLL] * p
    ycs[NONE] = p
    xcb[NONE] = prof["start"][ROLL_BLIND] * p
    ycb[NONE] = g.floats["start"][ROLL_BLIND] * p
    for s in _levels():
        if s != NONE:
            c = s
            after = prof["after"][:, c]
            xa[:, c] = xr[:, c] * prof["respond"][:, c, :, ACCEPT, None]
            ya[:, c] = yr[:, c] * okf[:, c, :, None]
            xcs[c] = p * np.einsum("hkd,hk->", xa[:, c], after[..., ROLL])
            ycs[c] = p * np.einsum("hkd,hk->", ya[:, c], amask[:, c, :, ROLL])
            xcb[c] = p * np.einsum("hkd,hk->", xa[:, c], after[..., ROLL_BLIND])
            ycb[c] = p * np.einsum("hkd,hk->", ya[:, c], amask[:, c, :, ROLL_BLIND])
            xp[:, c] = xa[:, c] * after[..., PASS_ON, None]
            yp[:, c] = ya[:, c] * amask[:, c, :, PASS_ON, None]
        # Claims made over s switch roles: the claimer's own reach becomes the
        # responder's counterfactual reach and the other way round.
        ok = okf[:, :, s]
        yr[SEEN, :, s] = ok[SEEN][:, None] * prof["claim_seen"][s, :, :N].T * xcs[s][None, :]
        xr[SEEN, :, s] = ok[SEEN][:, None] * ycs[s][None, :]
        yr[BLIND, :, s] = ok[BLIND][:, None] * prof["claim_blind"][s, :N, None] * xcb[s][None, :]
        xr[BLIND, :, s] = ok[BLIND][:, None] * ycb[s][None, :]
        if s != NONE:
            passed = np.einsum("hkd,hkc->cd", xp[:, s], prof["pass_claim"][:, s])
            yr[PASS, :, s] = ok[PASS][:, None] * passed
            xr[PASS, :, s] = ok[PASS][:, None] * yp[:, s].sum(axis=(0, 1))[None, :]
    return xs, ys


_STATE_SHAPES: dict[str, tuple[int, ...]] = {
    "claim_seen": (S, N),
    "claim_blind": (S, N),
    "respond": (3, N, S, N),
    "after": (3, N, S, N),
    "pass_claim": (3, N, S, N),
}


@dataclass
class _Values:
    """Per state, the value to the player to act, and per action the value of taking it."""

    start: float
    q_start: Array
    v: dict[str, Array]
    q_seen: Array  # (s, d, N+1)
    q_blind: Array  # (s, D, N+1)
    q_after: Array  # (h, c, k, D, 3)
    q_pass: Array  # (c, D, c'), the same for every (h, k)


def _values(g: Game, prof: Profile) -> _Values:
    """Backward pass, from the top claim down: each claim node's children are claims
    at least as high, so every value it needs is already known."""
    p = g.p
    vr = np.zeros((3, N, S, N))
    va = np.zeros((3, N, S, N))
    vp = np.zeros((3, N, S, N))
    vcs = np.zeros((S, N))
    vcb = np.zeros((S, N))
    q_seen = np.zeros((S, N, N + 1))
    q_blind = np.zeros((S, N, N + 1))
    q_after = np.zeros((3, N, S, N, 3))
    q_pass = np.zeros((N, N, N))
    for s in reversed(_levels()):
        for _ in range(_passes(g, s)):
            q_seen[s, :, :N] = -vr[SEEN, :, s, :].T
            q_seen[s, :, FOLD] = g.fold_score
            vcs[s] = (prof["claim_seen"][s] * q_seen[s]).sum(axis=-1)
            q_blind[s, :, :N] = -vr[BLIND, :, s, :].T
            q_blind[s, :, FOLD] = g.fold_score
            vcb[s] = (prof["claim_blind"][s] * q_blind[s]).sum(axis=-1)
            if s == NONE:
                continue
            c = s
            q_pass[c] = -vr[PASS, :, c, :].T
            vp[:, c] = np.einsum("hkc,dc->hkd", prof["pass_claim"][:, c], q_pass[c])
            q_after[:, c, :, :, ROLL] = p @ vcs[c]
            q_after[:, c, :, :, ROLL_BLIND] = p @ vcb[c]
            q_after[:, c, :, :, PASS_ON] = vp[:, c]
            va[:, c] = np.einsum("hkda,hka->hkd", q_after[:, c], prof["after"][:, c])
            resp = prof["respond"][:, c]
            vr[:, c] = resp[..., CALL, None] * g.term[c] + resp[..., ACCEPT, None] * va[:, c]
    q_start = np.array([p @ vcs[NONE], p @ vcb[NONE]])
    start = float(prof["start"] @ q_start)
    v = {"claim_seen": vcs, "claim_blind": vcb, "respond": vr, "after": va, "pass_claim": vp}
    return _Values(start, q_start, v, q_seen, q_blind, q_after, q_pass)


def _regrets(g: Game, vals: _Values, ys: dict[str, Array]) -> Profile:
    """Counterfactual regret of every action at every information set: the values of its
    states weighted by their counterfactual reach."""
    v = vals.v
    q_resp = np.empty((3, N, S, N, 2))
    q_resp[..., CALL] = g.term[None, :, None, :]
    q_resp[..., ACCEPT] = v["after"]
    yp = ys["pass_claim"]
    return {
        "start": vals.q_start - vals.start,
        "claim_seen": ys["claim_seen"][..., None] * (vals.q_seen - v["claim_seen"][..., None]),
        "claim_blind": np.einsum(
            "sd,sda->sa", ys["claim_blind"], vals.q_blind - v["claim_blind"][..., None]
        ),
        "respond": np.einsum("hcsd,hcsda->hcsa", ys["respond"], q_resp - v["respond"][..., None]),
        "after": np.einsum("hcsd,hcsda->hcsa", ys["after"], vals.q_after - v["after"][..., None]),
        "pass_claim": np.einsum("hcsd,cde->hcse", yp, vals.q_pass)
        - np.einsum("hcsd,hcsd->hcs", yp, v["pass_claim"])[..., None],
    }


def _own_weights(xs: dict[str, Array]) -> dict[str, Array]:
    """Own reach per information set (summed over the cups it does not know)."""
    return {
        "start": np.ones(()),
        "claim_seen": xs["claim_seen"],
        "claim_blind": xs["claim_blind"].sum(axis=-1),
        "respond": xs["respond"].sum(axis=-1),
        "after": xs["after"].sum(axis=-1),
        "pass_claim": xs["pass_claim"].sum(axis=-1),
    }


class Solver:
    """CFR+ (regret matching+, linear averaging) on the abstract round of one preset."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.iterations = 0
        self.regret: Profile = {k: np.zeros(m.shape) for k, m in game.masks.items()}
        self.total: Profile = {k: np.zeros(m.shape) for k, m in game.masks.items()}
        self.current: Profile = game.uniform()

    def step(self) -> None:
        g, prof = self.game, self.current
        self.iterations += 1
        t = float(self.iterations)
        xs, ys = _reach(g, prof)
        vals = _values(g, prof)
        regrets = _regrets(g, vals, ys)
        own = _own_weights(xs)
        for name, mask in g.floats.items():
            self.total[name] += t * own[name][..., None] * prof[name]
            self.regret[name] = np.maximum(self.regret[name] + regrets[name], 0.0) * mask
        self.current = {
            name: _normalise(self.regret[name], mask) for name, mask in g.floats.items()
        }

    def run(self, iterations: int) -> None:
        for _ in range(iterations):
            self.step()

    def average(self) -> Profile:
        """The average strategy; where an information set was never reached by its own
        player the current strategy stands in (it only matters against other players)."""
        out: Profile = {}
        for name, mask in self.game.floats.items():
            avg = _normalise(self.total[name], mask)
            seen = self.total[name].sum(axis=-1, keepdims=True) > 0
            out[name] = np.where(seen, avg, self.current[name])
        return out


# --- evaluation and best response ---------------------------------------------------------


def _forward_other(g: Game, acts: Callable[[int, str], Array], first: int) -> dict[str, Array]:
    """Reach of every state by chance and the fixed strategy's actions only (the best
    responder's own actions count 1, as ``acts(0, ...)`` gives the legal masks), split by
    who acts there: layer 0 the best responder, layer 1 the fixed strategy."""
    p = g.p
    okf = g.resp_okf
    w = {k: np.zeros((2, *shape)) for k, shape in _STATE_SHAPES.items()}
    wcs, wcb, wr, wa, wp = (
        w["claim_seen"],
        w["claim_blind"],
        w["respond"],
        w["after"],
        w["pass_claim"],
    )
    start = acts(first, "start")
    wcs[first, NONE] = start[ROLL] * p
    wcb[first, NONE] = start[ROLL_BLIND] * p
    for s in _levels():
        for who in (0, 1):
            if s != NONE:
                c = s
                after = acts(who, "after")[:, c]
                wa[who, :, c] = wr[who, :, c] * acts(who, "respond")[:, c, :, ACCEPT, None]
                wcs[who, c] = p * np.einsum("hkd,hk->", wa[who, :, c], after[..., ROLL])
                wcb[who, c] = p * np.einsum("hkd,hk->", wa[who, :, c], after[..., ROLL_BLIND])
                wp[who, :, c] = wa[who, :, c] * after[..., PASS_ON, None]
            ok = okf[:, :, s]
            other = 1 - who
            seen = acts(who, "claim_seen")[s, :, :N].T
            wr[other, SEEN, :, s] = ok[SEEN][:, None] * seen * wcs[who, s][None, :]
            blind = acts(who, "claim_blind")[s, :N, None]
            wr[other, BLIND, :, s] = ok[BLIND][:, None] * blind * wcb[who, s][None, :]
            if s != NONE:
                passed = np.einsum("hkd,hkc->cd", wp[who, :, s], acts(who, "pass_claim")[:, s])
                wr[other, PASS, :, s] = ok[PASS][:, None] * passed
    return w


def _play(g: Game, profs: tuple[Profile | None, Profile], first: int) -> tuple[float, Profile]:
    """The expected score of player 0 when ``first`` (0 or 1) starts the round; player 0
    plays ``profs[0]``, or a best response to ``profs[1]`` if that is None.

    Returns the score and player 0's (pure, if best) strategy. Values are kept from
    player 0's side throughout, so only the terminal scores depend on who acts.
    """
    mine, theirs = profs
    masks = g.floats

    def acts(who: int, name: str) -> Array:
        if who == 1:
            return theirs[name]
        return masks[name] if mine is None else mine[name]

    w = _forward_other(g, acts, first) if mine is None else None
    chosen: Profile = {k: np.zeros(m.shape) for k, m in masks.items()}

    def decide(
        who: int, name: str, q: Array, index: tuple[Any, ...], weight: Array | None
    ) -> Array:
        """The value of a block of nodes from its action values ``q``: (..., action) for
        nodes that are one state each, (..., D, action) for nodes that merge the states of
        every cup, weighted by ``weight`` (..., D) when the best responder chooses."""
        merged = q.ndim > masks[name][index].ndim
        if who == 1 or mine is not None:
            probs = (theirs if who == 1 else mine)[name][index]  # type: ignore[index]
        else:
            legal = masks[name][index] > 0
            score = np.einsum("...d,...da->...a", weight, q) if merged else q
            best = np.where(legal, score, -np.inf).argmax(axis=-1)
            probs = np.zeros(legal.shape)
            np.put_along_axis(probs, best[..., None], 1.0, axis=-1)
            probs *= legal.any(axis=-1, keepdims=True)
            chosen[name][index] = probs
        if merged:
            return (probs[..., None, :] * q).sum(axis=-1)
        return (probs * q).sum(axis=-1)

    sign = (1.0, -1.0)  # player 0's share of an outcome scored for the actor
    p = g.p
    vr = np.zeros((2, 3, N, S, N))
    vcs = np.zeros((2, S, N))
    vcb = np.zeros((2, S, N))
    va = np.zeros((2, 3, N, S, N))
    vp = np.zeros((2, 3, N, S, N))
    for s in reversed(_levels()):
        for _ in range(_passes(g, s)):
            for who in (0, 1):
                other = 1 - who
                q = np.empty((N, N + 1))
                q[:, :N] = vr[other, SEEN, :, s, :].T
                q[:, FOLD] = sign[who] * g.fold_score
                vcs[who, s] = decide(who, "claim_seen", q, (s,), None)
                qb = np.empty((N, N + 1))
                qb[:, :N] = vr[other, BLIND, :, s, :].T
                qb[:, FOLD] = sign[who] * g.fold_score
                weight = None if w is None else w["claim_blind"][who, s]
                vcb[who, s] = decide(who, "claim_blind", qb, (s,), weight)
            if s == NONE:
                continue
            c = s
            for who in (0, 1):
                other = 1 - who
                qp = np.broadcast_to(vr[other, PASS, :, c, :].T, (3, S, N, N))
                weight = None if w is None else w["pass_claim"][who, :, c]
                vp[who, :, c] = decide(who, "pass_claim", qp, (slice(None), c), weight)
                qa = np.empty((3, S, N, 3))
                qa[..., ROLL] = p @ vcs[who, c]
                qa[..., ROLL_BLIND] = p @ vcb[who, c]
                qa[..., PASS_ON] = vp[who, :, c]
                weight = None if w is None else w["after"][who, :, c]
                va[who, :, c] = decide(who, "after", qa, (slice(None), c), weight)
                qr = np.empty((3, S, N, 2))
                qr[..., CALL] = sign[who] * g.term[c]
                qr[..., ACCEPT] = va[who, :, c]
                weight = None if w is None else w["respond"][who, :, c]
                vr[who, :, c] = decide(who, "respond", qr, (slice(None), c), weight)
    q_start = np.array([p @ vcs[first, NONE], p @ vcb[first, NONE]])
    value = float(decide(first, "start", q_start, (), None))
    if mine is not None:
        chosen = mine
    return value, chosen


def play(g: Game, mine: Profile, theirs: Profile, first: int = 0) -> float:
    """Player 0's expected score (+1 win, -1 loss) playing ``mine`` against ``theirs``;
    player ``first`` starts the round."""
    return _play(g, (mine, theirs), first)[0]


def best_response(g: Game, prof: Profile, first: int = 0) -> tuple[float, Profile]:
    """The best score against ``prof`` (choosing one action per information set) for the
    starter (``first=0``) or the second player (``first=1``), and the strategy scoring it."""
    return _play(g, (None, prof), first)


@dataclass(frozen=True)
class Exploitability:
    starter: float  # a best response's score as the starter
    second: float  # ... as the second player
    value: float  # the strategy's own score as the starter, against itself

    @property
    def gap(self) -> float:
        """The mean of the two best-response scores; 0 exactly at an equilibrium, since
        the strategy plays both seats and the round is zero-sum."""
        return (self.starter + self.second) / 2


def exploitability(g: Game, prof: Profile) -> Exploitability:
    starter, _ = best_response(g, prof, first=0)
    second, _ = best_response(g, prof, first=1)
    return Exploitability(starter, second, play(g, prof, prof, first=0))


# --- the shipped table --------------------------------------------------------------------


def _s_key(s: int) -> str:
    return "-" if s == NONE else str(s)


def _claim_name(a: int) -> str:
    return "fold" if a == FOLD else str(a)


def _info_sets(g: Game) -> Iterable[tuple[str, str, tuple[int, ...], tuple[str, ...]]]:
    """Every information set with a decision: (table, key, array index, action names)."""
    m = g.masks
    yield "start", "", (), ("roll", "blind")
    claims = tuple(_claim_name(a) for a in range(N + 1))
    for s in range(S):
        for d in range(N):
            if m["claim_seen"][s, d].any():
                yield "claim_seen", f"{_s_key(s)},{d}", (s, d), claims
        if m["claim_blind"][s].any():
            yield "claim_blind", _s_key(s), (s,), claims
    for h in range(3):
        for c in range(N):
            for k in range(S):
                key = f"{c},{_s_key(k)},{HOWS[h]}"
                if m["respond"][h, c, k].any():
                    yield "respond", key, (h, c, k), RESP_ACTIONS
                if m["after"][h, c, k].any():
                    yield "after", key, (h, c, k), AFTER_ACTIONS
                if m["pass_claim"][h, c, k].any():
                    yield "pass_claim", key, (h, c, k), claims[:N]


def _tidy(probs: Mapping[str, float]) -> dict[str, float]:
    """Drop tiny probabilities and round, keeping a distribution that sums to 1."""
    kept = {a: x for a, x in probs.items() if x >= PRUNE}
    if not kept:
        kept = {max(probs, key=lambda a: probs[a]): 1.0}
    total = sum(kept.values())
    out = {a: round(x / total, DIGITS) for a, x in kept.items()}
    biggest = max(out, key=lambda a: out[a])
    out[biggest] = round(1.0 - sum(x for a, x in out.items() if a != biggest), DIGITS)
    return out


def to_tables(g: Game, prof: Profile) -> dict[str, Any]:
    """The strategy as JSON-ready tables: table -> key -> action -> probability (``start``,
    a single information set, is action -> probability)."""
    tables: dict[str, Any] = {name: {} for name in TABLES}
    for name, key, index, actions in _info_sets(g):
        legal = g.masks[name][index]
        probs = {actions[a]: float(prof[name][index][a]) for a in range(len(actions)) if legal[a]}
        tables[name][key] = _tidy(probs)
    tables["start"] = tables["start"][""]  # type: ignore[assignment]  # one set: no key
    return tables


def from_tables(g: Game, tables: Mapping[str, Any]) -> Profile:
    """A strategy read back from tables; a missing information set plays uniformly."""
    prof = g.uniform()
    for name, key, index, actions in _info_sets(g):
        table = tables.get(name, {})
        probs = table if name == "start" else table.get(key)
        if probs is None:
            continue
        row = np.zeros(len(actions))
        for action, x in probs.items():
            row[actions.index(action)] = x
        prof[name][index] = row
    return prof


def settle_off_path(g: Game, prof: Profile, passes: int = 200) -> Profile:
    """The strategy with every information set its own play never reaches replaced by the
    best reply there, by counterfactual values against the strategy itself.

    The average strategy is frozen at such sets (their weight is zero after the first
    iterations), often near uniform. No score against any opponent depends on them, so
    exploitability is unchanged; but a computer nudged off its table (a persona that
    accepts more) then still passes, rolls and claims sensibly. Where the opponent never
    leads there either, its reach is taken from a strategy that trembles (every action
    at least ``TREMBLE``), so every set has a belief over the cup. Values only flow
    upwards, so repeating the replacement until nothing changes settles it.
    """
    prof = {name: table.copy() for name, table in prof.items()}
    xs, _ = _reach(g, prof)  # unchanged by off-path play
    own = _own_weights(xs)
    shaky = {
        name: (1 - TREMBLE) * table + TREMBLE * _normalise(g.floats[name], g.floats[name])
        for name, table in prof.items()
    }
    _, ys = _reach(g, shaky)
    y = {
        "claim_seen": ys["claim_seen"],
        "claim_blind": ys["claim_blind"].sum(axis=-1),
        "respond": ys["respond"].sum(axis=-1),
        "after": ys["after"].sum(axis=-1),
        "pass_claim": ys["pass_claim"].sum(axis=-1),
    }
    for _ in range(passes):
        vals = _values(g, prof)
        q_resp = np.empty((3, N, S, N, 2))
        q_resp[..., CALL] = g.term[None, :, None, :]
        q_resp[..., ACCEPT] = vals.v["after"]
        scores = {
            "claim_seen": vals.q_seen,
            "claim_blind": np.einsum("sd,sda->sa", ys["claim_blind"], vals.q_blind),
            "respond": np.einsum("hcsd,hcsda->hcsa", ys["respond"], q_resp),
            "after": np.einsum("hcsd,hcsda->hcsa", ys["after"], vals.q_after),
            "pass_claim": np.einsum("hcsd,cde->hcse", ys["pass_claim"], vals.q_pass),
        }
        changed = False
        for name, score in scores.items():
            legal = g.masks[name]
            off = (own[name] == 0) & (y[name] > 0) & legal.any(axis=-1)
            best = np.where(legal, score, -np.inf).argmax(axis=-1)
            reply = np.zeros(legal.shape)
            np.put_along_axis(reply, best[..., None], 1.0, axis=-1)
            new = np.where(off[..., None], reply, prof[name])
            if not np.array_equal(new, prof[name]):
                prof[name], changed = new, True
        if not changed:
            break
    return prof


def checkpoints(iterations: int) -> list[int]:
    """1, 2, 5, 10, 20, 50, ... up to ``iterations``, and ``iterations`` itself."""
    marks: set[int] = {iterations}
    scale = 1
    while scale <= iterations:
        marks.update(m * scale for m in (1, 2, 5) if m * scale <= iterations)
        scale *= 10
    return sorted(marks)


def settle_start_value(
    preset: str, discount: float = DISCOUNT, iterations: int = 300, rounds: int = 4
) -> float:
    """The worth of starting the next round, in round outcomes: ``discount`` times the
    starter's value of a round whose own ends carry that worth. Found by iterating a short
    solve to its fixed point (it settles in a few rounds: the value moves little with it).
    """
    value = 0.0
    for _ in range(rounds):
        g = Game.of(preset, value)
        solver = Solver(g)
        solver.run(iterations)
        value = discount * play(g, solver.average(), solver.average(), first=0)
    return value


def solve(
    preset: str,
    iterations: int,
    report: Callable[[str], None] | None = None,
    start_value: float | None = None,
) -> dict[str, Any]:
    """Run CFR+ and return the shipped document: tables and how good they are."""
    if start_value is None:
        start_value = 0.0 if Rules.of(preset).top_shown else settle_start_value(preset)
    start_value = round(start_value, 4)  # as the document records it
    g = Game.of(preset, start_value)
    if report:
        report(f"{preset}: starting the next round is worth {start_value:.4f}")
    solver = Solver(g)
    curve: list[list[float]] = []
    began = time.perf_counter()
    if report:
        report(f"{preset}: iterations  exploitability  BR-as-starter  BR-as-second  seconds")
    for mark in checkpoints(iterations):
        solver.run(mark - solver.iterations)
        ex = exploitability(g, solver.average())
        curve.append([mark, round(ex.gap, 6)])
        if report:
            seconds = time.perf_counter() - began
            report(
                f"{preset}: {mark:10d}  {ex.gap:14.6f}  {ex.starter:13.6f}  "
                f"{ex.second:12.6f}  {seconds:7.1f}"
            )
    pruned = from_tables(g, to_tables(g, solver.average()))
    tables = to_tables(g, settle_off_path(g, pruned))
    shipped = exploitability(g, from_tables(g, tables))
    if report:
        report(f"{preset}: shipped table (pruned below {PRUNE}): {shipped.gap:.6f}")
    return {
        "format": FORMAT,
        "preset": preset,
        "rules": g.rules.to_dict(),
        "solver": {
            "algorithm": "CFR+",
            "averaging": "linear",
            "iterations": iterations,
            "off_path": f"best reply, beliefs from a {TREMBLE} tremble",
        },
        "exploitability": {
            "measure": "(best response as starter + best response as second) / 2, "
            "in round outcomes (win +1, loss -1)",
            "curve": curve,
            "shipped": round(shipped.gap, 9),
            "best_response_as_starter": round(shipped.starter, 9),
            "best_response_as_second": round(shipped.second, 9),
        },
        "value_for_starter": round(shipped.value, 9),
        "start_value": start_value,
        "prune_below": PRUNE,
        **tables,
    }


def dumps(document: Mapping[str, Any]) -> str:
    """Compact JSON with one information set per line, so a re-solve diffs readably."""
    lines = ["{"]
    items = list(document.items())
    for i, (name, value) in enumerate(items):
        tail = "," if i < len(items) - 1 else ""
        if name in TABLES and name != "start":
            rows = [
                f"    {json.dumps(key)}: {json.dumps(row, separators=(',', ':'))}"
                for key, row in value.items()
            ]
            body = ",\n".join(rows)
            lines.append(f"  {json.dumps(name)}: {{\n{body}\n  }}{tail}")
        else:
            lines.append(f"  {json.dumps(name)}: {json.dumps(value, separators=(',', ':'))}{tail}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.cfr", description=__doc__.split("\n")[0])
    parser.add_argument("--preset", choices=SOLVABLE, required=True)
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--out", type=Path, help="where to write the policy JSON")
    parser.add_argument(
        "--start-value",
        type=float,
        default=None,
        help="worth of starting the next round (default: its fixed point)",
    )
    args = parser.parse_args(argv)
    if args.iterations < 1:
        parser.error("--iterations must be at least 1")
    document = solve(
        args.preset,
        args.iterations,
        report=lambda line: print(line, flush=True),
        start_value=args.start_value,
    )
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(dumps(document), encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
