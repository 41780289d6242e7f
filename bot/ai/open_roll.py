"""The computer player for the open-roll rule sets: ``mexen``, ``mexicanen``, ``mexico`` and
any house-rule mix of their mechanisms (README, Rule sets).

Every roll at an open table is public, so nothing needs guessing: for each legal move the
brain computes the penalty it expects this round against the table, its own less the
average of the others', and plays the smallest. Against the table, because that is what
a game without a winner is scored by (who drank least: README, Playing against the
computer) and what the leaderboard compares; it is not the same as drinking least when
the penalty grows with the rolls (the pot, the doubling): a pot I grow costs me only as
far as I am the one likely to drink it, and the rest of it goes to the others. The unit
is what decides the game: lives where the table plays for lives, otherwise sips (a point
is a sip, README, Rule sets). Like every brain it sees only ``Game.view(seat)``.

The model, exact under these assumptions:

* The lowest result loses the round. A tie for lowest is lost with probability
  1/(players tied): a roll-off is symmetric, each tied player throws once alike. With
  ``rolloff`` off the later of the tied players loses (README, Choices where the rule
  book is silent).
* Each player still to roll this round plays to finish above the lowest result standing
  before them: they roll until they are above it or out of rolls, keep a die when that
  gives them the better chance (a lone 2, and a lone 1 only where the Knight is not
  played: a kept 1 throws 1-1 one time in 6, and with it the title), and never end the
  round early. Their final results follow exactly from that, by dynamic programming over
  (roll, rolls used, kept); one who ends below the lowest is taken to end on each lower
  roll in proportion to the throws that show it, and the rest then roll against that.
* A 3-2 with rolls left where STUCK is played is always TAPped: it stands.
* The penalty: ``base * mex_multiplier**21s`` sips up to the cap (``mexen``), 1 life or
  ``lives_per_mex`` per 21 (lives games), the pot (``mexico``: doubles add their die, a
  21 makes it 8 or doubles it), counting every 21 and double the later players are
  expected to roll, also once I am safe: whoever loses pays it. Ending early costs the
  single penalty for sure, and nobody else anything.
* Sips within the round are priced the same way: a Social 3-1 (everyone sips, so nobody
  moves), a hand-out (mine puts one of the others a sip behind me; a later player's comes
  to me one time in players - 1) and the Knight's (``_knight``): each double the Knight's
  sips, each 1-1 the title it passes, which is worth one tenure, 21 sips, against the
  table.

Left out, as too small or not mine to steer: 21s thrown during a roll-off; doubles I
throw and then roll past (they grow the pot, but the model keeps only my final roll's);
the Knight changing hands within my turn; a pot cap on the doubles later players add (the
expectation is then capped as a whole, an upper bound); another loser's lives as a bound
on the lives they lose; and whom a Knight who throws 1-1 names (any other alike).

The tables depend only on a handful of small numbers (the lowest result and how many hold
it, players to come, the limit, 21s so far, the pot, the Knight), so they are memoised and
a decision is mostly a dictionary lookup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from random import Random
from typing import Any, NamedTuple

from bot.engine import Act, Move
from bot.engine.rolls import ORDER, RANK, STUCK, THREE_ONE, TOP, make_roll

View = Mapping[str, Any]

# --- the dice, by rank (README, Rule sets: the 21 rolls in order) ---------------------------
_N = len(ORDER)
_TOP = RANK[TOP]
_STUCK = RANK[STUCK]
_ELBOW = RANK[THREE_ONE]
#: Throws of two dice (out of 36) that show each roll.
_WEIGHT: tuple[int, ...] = tuple(1 if a == b else 2 for a, b in ORDER)
#: The die a double adds to the pot and makes the Knight sip; 0 for a non-double.
_DOUBLE: tuple[int, ...] = tuple(a if a == b else 0 for a, b in ORDER)


def _lone_small(roll: tuple[int, int]) -> int:
    small = [d for d in roll if d in (1, 2)]
    return small[0] if len(small) == 1 else 0


#: The die a roll lets you keep (``mexico``: a lone 1 or 2), 0 if none.
_SMALL: tuple[int, ...] = tuple(_lone_small(r) for r in ORDER)
#: The rolls a kept die can become, one per face of the die thrown with it.
_KEEP_OUT: dict[int, tuple[int, ...]] = {
    die: tuple(RANK[make_roll(die, face)] for face in range(1, 7)) for die in (1, 2)
}

#: How much bolder (+1) or more careful (-1) each move is, for the ``risk`` persona.
_BOLDNESS = {"roll": 1.0, "keep": 1.0, "stand": 0.0, "endround": -1.0}
#: On an exact tie the quieter move wins: fewer rolls, fewer surprises for the table.
_PREFERENCE = {"stand": 0, "endround": 1, "keep": 2, "roll": 3}
_TAP = Move(Act.TAP)


class _Rules(NamedTuple):
    """The options that change the sums, read once from the view's option dict."""

    mode: str  # what a 3-1 does to a turn: "low" (a result), "reroll" (free), "elbow"
    keep: bool
    stuck: bool
    rolloff: bool
    pot: bool
    lives: bool  # lives decide the game: drinks are then not what the brain minimises
    base: int
    multiplier: int
    lives_per_mex: int
    cap: int | None
    end_early: bool
    social: bool
    knight: bool
    max_rolls: int


def _rules(options: Mapping[str, Any]) -> _Rules:
    three_one = options["three_one"]
    mode = three_one if three_one in ("low", "elbow") else "reroll"
    return _Rules(
        mode=mode,
        keep=bool(options["keep"]),
        stuck=bool(options["stuck"]),
        rolloff=bool(options["rolloff"]),
        pot=options["loss"] == "pot",
        lives=options["lives"] is not None,
        base=int(options["base"]),
        multiplier=int(options["mex_multiplier"]),
        lives_per_mex=int(options["lives_per_mex"]),
        cap=options["cap"],
        end_early=bool(options["end_early"]),
        social=three_one == "social",
        knight=bool(options["knight"]),
        max_rolls=int(options["max_rolls"]),
    )


# --- the players still to roll ---------------------------------------------------------------
# A turn's outcome, summed over the ways it can go. P: probability; B: the expected pot
# added by the turn's doubles, jointly with the outcome (E[b * 1{outcome}]); C: the
# probability of the outcome with no double on the way (an untouched pot of 1 stays 1, so
# a 21 then makes it 8). Outcomes relative to the threshold: below, tie, above, a 21, and
# (for one segment of an Elbow game) the Elbow that starts the turn over. Last, not joint
# with any outcome, what the turn throws that costs drinks besides the pot: its 1-1s and
# the dice of its other doubles (the Knight's sips), and its hand-outs (a 3-1 in ``mexen``).
_PB, _PT, _PA, _P21, _PE = range(5)
_BB, _BT, _BA, _B21, _BE = range(5, 10)
_CB, _CT, _CA, _C21, _CE = range(10, 15)
_N11, _SD, _N31 = range(15, 18)
_LEN = 18
_PAIRS = tuple((prob, prob + 5) for prob in range(5))
_PRISTINE = tuple(range(10, 15))
_ELBOW_VEC = tuple(1.0 if i in (_PE, _CE) else 0.0 for i in range(_LEN))
#: Hand-outs per counting roll where a 3-1 is re-rolled: 2 in 36 each time, so 2 in 34.
_THREE_ONES_PER_ROLL = 2 / 34


#: A spot in a turn: (rolls used, a die kept already, the roll showing).
_Spot = tuple[int, bool, int]


class _Opponent(NamedTuple):
    """How a later player's turn ends against a threshold (the lowest result standing)."""

    #: From a fresh turn, by outcome (below, tie, above, 21): P, then B, then C.
    fresh: tuple[float, ...]
    #: From a 3-2 with rolls left, by (rolls used, kept): (pb, pt, pa, p21).
    from_stuck: dict[tuple[int, bool], tuple[float, float, float, float]]
    #: From a fresh turn, whatever its outcome: 1-1s, dice of other doubles, hand-outs.
    extras: tuple[float, float, float]


def _terminal(rank: int, t: int) -> list[float]:
    vec = [0.0] * _LEN
    if rank == _TOP:
        vec[_P21] = vec[_C21] = 1.0
    elif rank < t:
        vec[_PB] = vec[_CB] = 1.0
    elif rank == t:
        vec[_PT] = vec[_CT] = 1.0
    else:
        vec[_PA] = vec[_CA] = 1.0
    return vec


def _add(acc: list[float], child: Sequence[float], p: float, double: int) -> None:
    """acc += p * child, where the throw that led to child was a double of ``double``."""
    for i in range(_LEN):
        acc[i] += p * child[i]
    if not double:
        return
    for prob, pot in _PAIRS:
        acc[pot] += p * double * child[prob]
    for pristine in _PRISTINE:  # the double has touched the pot
        acc[pristine] -= p * child[pristine]
    if double == 1:
        acc[_N11] += p
    else:
        acc[_SD] += p * double


def _roll_outcomes(mode: str) -> tuple[tuple[tuple[int, float], ...], float, float]:
    """(rank, probability) of a counting roll; the Elbow's probability; the normaliser.

    A 3-1 that is re-rolled for free (hand-out, Social) is no outcome, so the rest are out
    of 34 (README, Rule sets); an Elbow is an outcome of its own.
    """
    if mode == "low":
        return tuple((r, _WEIGHT[r] / 36) for r in range(_N)), 0.0, 36.0
    outs = tuple((r, _WEIGHT[r] / (34 if mode == "reroll" else 36)) for r in range(1, _N))
    return outs, (2 / 36 if mode == "elbow" else 0.0), (34.0 if mode == "reroll" else 36.0)


_OUTCOMES = {mode: _roll_outcomes(mode) for mode in ("low", "reroll", "elbow")}


def _policy(t: int, lim: int, mode: str, keep: tuple[int, ...], stuck: bool) -> dict[_Spot, int]:
    """A later player's choice in each spot where they roll on: 0 to throw both dice, else
    the die they keep, whichever gives the better chance to finish above rank ``t``.

    An Elbow starts the turn over, so the chance of a fresh turn is a fixed point of the
    induction; it is found by iteration (each round trip loses the Elbow's 1 in 18).
    """
    outs, p_elbow, _ = _OUTCOMES[mode]
    kepts = (False, True) if keep else (False,)
    fresh = 0.0
    choice: dict[_Spot, int] = {}
    last_row = [1.0 if rank > t else 0.0 for rank in range(_N)]
    succ: dict[tuple[int, bool], list[float]] = {}

    def after(rank: int, n1: int, kept: bool) -> float:
        if rank > t or (stuck and rank == _STUCK and n1 < lim):
            return 1.0 if rank > t else 0.0
        return succ[n1, kept][rank]

    for _ in range(200):
        succ.clear()
        succ.update({(lim, kept): last_row for kept in kepts})
        roll: dict[tuple[int, bool], float] = {}
        for n in range(lim - 1, -1, -1):
            for kept in kepts:
                roll[n, kept] = p_elbow * fresh + sum(p * after(o, n + 1, kept) for o, p in outs)
            if n == 0:
                break
            keeps: dict[int, float] = {}
            for die in keep:
                total = 0.0
                for rank in _KEEP_OUT[die]:
                    if rank == _ELBOW and mode != "low":
                        total += fresh if mode == "elbow" else roll[n, True]
                    else:
                        total += after(rank, n + 1, True)
                keeps[die] = total / 6
            for kept in kepts:
                row = list(last_row)
                for rank in range(min(t + 1, _TOP)):
                    best, die = roll[n, kept], 0
                    small = _SMALL[rank]
                    if small in keeps and not kept and keeps[small] > best + 1e-15:
                        best, die = keeps[small], small
                    row[rank] = best
                    choice[n, kept, rank] = die
                succ[n, kept] = row
        new = roll[0, False]
        done = abs(new - fresh) < 1e-15 or not p_elbow
        fresh = new
        if done:
            break
    return choice


def _their_keep(r: _Rules) -> tuple[int, ...]:
    """The dice a later player keeps where that helps: a lone 1 or 2, but where the Knight
    is played a kept 1 throws 1-1 one time in 6 and with it the title (21 sips, far more
    than the round), so only a 2."""
    if not r.keep:
        return ()
    return (2,) if r.knight and not r.lives else (1, 2)


@lru_cache(maxsize=4096)
def _opponent(t: int, lim: int, mode: str, keep: tuple[int, ...], stuck: bool) -> _Opponent:
    """How a later player's turn ends against threshold rank ``t`` with ``lim`` rolls,
    playing by ``_policy`` (module docstring), one Elbow-to-Elbow segment at a time."""
    outs, p_elbow, _ = _OUTCOMES[mode]
    kepts = (False, True) if keep else (False,)
    choice = _policy(t, lim, mode, keep, stuck)
    terminals = [_terminal(rank, t) for rank in range(_N)]
    vec: dict[tuple[int, bool], list[list[float]]] = {(lim, kept): terminals for kept in kepts}
    roll: dict[tuple[int, bool], list[float]] = {}

    def after(rank: int, n1: int, kept: bool) -> Sequence[float]:
        if stuck and rank == _STUCK and n1 < lim:
            return terminals[rank]
        return vec[n1, kept][rank]

    for n in range(lim - 1, -1, -1):
        for kept in kepts:
            acc = [0.0] * _LEN
            if p_elbow:
                _add(acc, _ELBOW_VEC, p_elbow, 0)
            elif mode == "reroll":
                acc[_N31] += _THREE_ONES_PER_ROLL
            for rank, p in outs:
                _add(acc, after(rank, n + 1, kept), p, _DOUBLE[rank])
            roll[n, kept] = acc
        if n == 0:
            break
        keeps: dict[int, list[float]] = {}
        for die in keep:
            acc = [0.0] * _LEN
            for rank in _KEEP_OUT[die]:
                if rank == _ELBOW and mode != "low":
                    _add(acc, _ELBOW_VEC if mode == "elbow" else roll[n, True], 1 / 6, 0)
                    acc[_N31] += 1 / 6 if mode == "reroll" else 0.0
                else:
                    _add(acc, after(rank, n + 1, True), 1 / 6, _DOUBLE[rank])
            keeps[die] = acc
        for kept in kepts:
            rows = list(terminals)
            for rank in range(min(t + 1, _TOP)):
                die = choice[n, kept, rank]
                rows[rank] = keeps[die] if die else roll[n, kept]
            vec[n, kept] = rows

    seg = roll[0, False]
    e, be, ce = seg[_PE], seg[_BE], seg[_CE]
    outcomes = (_PB, _PT, _PA, _P21)
    full = [seg[i] / (1 - e) for i in outcomes]
    full += [seg[i + 5] / (1 - e) + seg[i] * be / (1 - e) ** 2 for i in outcomes]
    full += [seg[i + 10] / (1 - ce) for i in outcomes]
    from_stuck: dict[tuple[int, bool], tuple[float, float, float, float]] = {}
    for n in range(1, lim):
        for kept in kepts:
            mid = vec[n, kept][_STUCK]
            pb, pt, pa, p21 = (mid[i] + mid[_PE] * full[i] for i in outcomes)
            from_stuck[n, kept] = (pb, pt, pa, p21)
    extras = (seg[_N11] / (1 - e), seg[_SD] / (1 - e), seg[_N31] / (1 - e))
    return _Opponent(tuple(full), from_stuck, extras)


#: A state of the round after some of the later players: (players tied with me for lowest,
#: 0 once someone is below me; 21s thrown; pot still untouched; the lowest result).
_State = tuple[int, int, bool, int]


def _put(states: dict[_State, list[float]], key: _State, mass: float, ea: float, eb: float) -> None:
    cell = states.get(key)
    if cell is None:
        states[key] = [mass, ea, eb]
    else:
        cell[0] += mass
        cell[1] += ea
        cell[2] += eb


@lru_cache(maxsize=64)
def _below_shares(t: int, mode: str) -> tuple[tuple[int, float], ...]:
    """Where a player who ends below rank ``t`` ends: in proportion to the throws that
    show each rank, as their last throw decided it (exact but for a kept die and a TAPped
    3-2, which skew it a little)."""
    outs = [(rank, p) for rank, p in _OUTCOMES[mode][0] if rank < t]
    total = sum(p for _, p in outs)
    return tuple((rank, p / total) for rank, p in outs) if total else ()


def _one_more(
    states: dict[_State, list[float]],
    lim: int,
    m_cap: int,
    mode: str,
    keep: tuple[int, ...],
    stuck: bool,
    rolloff: bool,
    pot: bool,
) -> dict[_State, list[float]]:
    """One more player rolls, against the lowest result of the state: ``[chance, E[A],
    E[B]]`` per state (see ``_later``). Once I am safe the state is kept all the same:
    its pot is still drunk, by another, and who is lowest decides how long the rest roll."""
    new: dict[_State, list[float]] = {}
    for (k, m, pr, t), (mass, ea, eb) in states.items():
        if mass < 1e-15:
            continue
        stats = _opponent(t, lim, mode, keep, stuck).fresh
        # Where each outcome (below, tie, above, 21: the index into ``stats``, then its
        # share) leaves me and the lowest result: below, I am safe and they are lowest; a
        # tie joins the roll-off, or without one the later player loses it; a 21 is a tie
        # where the lowest is a 21.
        tie = k + 1 if rolloff and k else 0
        moves = [(0, rank, 0, share) for rank, share in _below_shares(t, mode)]
        moves += [(tie, t, 1, 1.0), (k, t, 2, 1.0), (tie if t == _TOP else k, t, 3, 1.0)]
        for k2, t2, i, share in moves:
            p, b, c = stats[i] * share, stats[i + 4] * share, stats[i + 8] * share
            if not p:
                continue
            m2 = min(m + 1, m_cap) if i == 3 else m
            if not pot:
                _put(new, (k2, m2, False, t2), mass * p, 0.0, 0.0)
            elif i == 3 and pr:  # an untouched pot of 1 becomes 8
                pot21 = 8 * c + 2 * (p - c) + 2 * b
                _put(new, (k2, m2, False, t2), mass * p, 0.0, mass * pot21)
            elif i == 3:
                _put(new, (k2, m2, False, t2), mass * p, 2 * ea * p, 2 * (eb * p + mass * b))
            elif pr:
                _put(new, (k2, m2, True, t2), mass * c, 0.0, 0.0)
                _put(new, (k2, m2, False, t2), mass * (p - c), 0.0, mass * (p - c + b))
            else:
                _put(new, (k2, m2, False, t2), mass * p, ea * p, eb * p + mass * b)
    return new


class _Later(NamedTuple):
    """What the players still to roll do, as expectations over the rest of the round."""

    #: The chance that I lose (weighted by 1/(players tied) with roll-offs), by 21s thrown.
    lose: tuple[float, ...]
    #: The pot I drink: ``pot_me * lose_a + lose_b``.
    lose_a: float
    lose_b: float
    #: The same for whoever loses: the chance of each count of 21s, and the final pot.
    any_: tuple[float, ...]
    any_a: float
    any_b: float
    #: What they throw besides: 1-1s, dice of other doubles, hand-outs (``_Opponent``).
    extras: tuple[float, float, float]


@lru_cache(maxsize=1 << 16)
def _later(
    v: int,
    lim: int,
    n: int,
    k_start: int,
    pristine: bool,
    m_cap: int,
    mode: str,
    keep: tuple[int, ...],
    stuck: bool,
    rolloff: bool,
    pot: bool,
) -> _Later:
    """What the ``n`` players still to roll do, all with ``lim`` rolls, each against the
    lowest result before them: ``v`` to start with, mine and tied with ``k_start`` - 1
    others, or (``k_start`` 0) someone else's.

    The 21s are capped at ``m_cap`` (the penalty no longer grows beyond it); the pot after
    the round is ``pot_me * A + B``, with an untouched pot of 1 all in B.
    """
    states: dict[_State, list[float]] = {
        (k_start, 0, pristine, v): [1.0, 0.0 if pristine else 1.0, 0.0]
    }
    extras = [0.0, 0.0, 0.0]
    for _ in range(n):
        for (_, _, _, t), (mass, _, _) in states.items():
            for i, x in enumerate(_opponent(t, lim, mode, keep, stuck).extras):
                extras[i] += mass * x
        states = _one_more(states, lim, m_cap, mode, keep, stuck, rolloff, pot)
    lose = [0.0] * (m_cap + 1)
    any_ = [0.0] * (m_cap + 1)
    lose_a = lose_b = any_a = any_b = 0.0
    for (k, m, pr, _), (mass, ea, eb) in states.items():
        eb += mass if pr else 0.0
        any_[m] += mass
        any_a += ea
        any_b += eb
        if k:
            weight = 1.0 / k if rolloff else 1.0
            lose[m] += weight * mass
            lose_a += weight * ea
            lose_b += weight * eb
    three = (extras[0], extras[1], extras[2])
    return _Later(tuple(lose), lose_a, lose_b, tuple(any_), any_a, any_b, three)


# --- my own turn -------------------------------------------------------------------------------
#: The sips the Knight pays between two 1-1s (README, Rule sets: ``mexico``): every counting
#: roll, whoever throws it, is 1-1 with chance 1/36 and another double d with chance 1/36
#: each, so (2 + 3 + 4 + 5 + 6) sips per 1-1 on average, plus the sip of that 1-1 itself.
_KNIGHT_SIPS = float(sum(range(2, 7)) + 1)
_ONE_ONE = RANK[(1, 1)]


class _Knight(NamedTuple):
    """What the Knight costs me, priced per roll: what each roll of mine costs (by rank),
    and what a later player's 1-1 and each die of their other doubles cost me."""

    mine: tuple[float, ...]
    their_one_one: float
    their_die: float


_NO_KNIGHT = _Knight((0.0,) * _N, 0.0, 0.0)


@lru_cache(maxsize=256)
def _knight(state: str, players: int, knight_later: float) -> _Knight:
    """The Knight's costs to me, against the others' average, in ``state``: "me" (I am
    the Knight), "other" (someone else is), "none" (nobody has thrown a 1-1 yet).

    The title goes round the table, so a 1-1 is priced by what it does to my sips against
    the others' in a long game, in which each of the ``players`` throws a share of the
    rolls alike and a Knight who throws 1-1 names any other alike. Holding the title
    rather than not then costs exactly one tenure, 21 sips, at any table size: the Knight
    pays its 21, the others' average is spared 21/(players - 1), and the title comes back
    to me at a rate that evens the two out. While nobody holds it nobody sips, so its first
    holder is 21 * (players - 1) / players behind the table, any other player 21 / players
    ahead of it. A sip the Knight drinks while I don't counts 1/(players - 1) for me.

    ``knight_later``: the share of the later players who hold the title (state "other").
    """
    n = max(2, players)
    other = 1.0 / (n - 1)  # what a sip someone else drinks is worth to me
    mine = [0.0] * _N
    their_one_one = their_die = 0.0
    if state == "me":
        mine = [float(d) for d in _DOUBLE]
        mine[_ONE_ONE] = 1.0 - _KNIGHT_SIPS
        their_one_one, their_die = 1.0 - _KNIGHT_SIPS, 1.0
    elif state == "other":
        mine = [-other * d for d in _DOUBLE]
        mine[_ONE_ONE] = _KNIGHT_SIPS - other
        their_die = -other
        their_one_one = -other + knight_later * _KNIGHT_SIPS * other
    else:
        mine[_ONE_ONE] = _KNIGHT_SIPS * (n - 1) / n
        their_one_one = -_KNIGHT_SIPS / n
    return _Knight(tuple(mine), their_one_one, their_die)


def _stake(r: _Rules, mexes: int, lives_me: int, pot: int) -> float:
    """What losing the round costs the loser (me, with ``lives_me`` left), in the unit
    that decides the game."""
    if r.pot:
        return 1.0 if r.lives else float(pot if r.cap is None else min(pot, r.cap))
    if r.lives:
        return float(min(r.lives_per_mex * mexes if mexes else 1, lives_me))
    sips = r.base * r.multiplier**mexes
    return float(sips if r.cap is None else min(sips, r.cap))


class _Tables(NamedTuple):
    """Expected penalties (against the table) of the choices in every state of my turn."""

    stand: tuple[tuple[float, ...], ...]  # [rolls used][my roll]: standing there
    roll: dict[tuple[int, bool], float]  # (rolls used, kept): throwing both dice
    keep: dict[tuple[int, int], float]  # (rolls used, die): keeping that die
    abort: float | None  # ending the round early, where allowed
    stake: float  # the penalty on the table now


@lru_cache(maxsize=2048)
def _tables(
    r: _Rules,
    allowed: int,
    first: bool,
    low: int,
    k0: int,
    n_later: int,
    mexes: int,
    pot0: int,
    lives_me: int,
    knight: _Knight,
    players: int,
) -> _Tables:
    """Every choice of my turn valued by backward induction over (roll, rolls used, kept).

    ``low``/``k0``: the lowest result of those who already rolled and how many hold it
    (``low`` = ``_N`` when nobody has). When I start the round (``first``) the rolls I use
    become everyone's limit (README, Rule sets), so standing is valued per rolls used.
    """
    other = 1.0 / max(1, players - 1)  # what a penalty someone else takes is worth to me
    # A Social 3-1 has everyone sip, me too: against the table nobody moves. A hand-out
    # puts one of the others a sip behind me; a later player's comes to me one time in
    # (players - 1), and otherwise puts another of them behind me.
    hand_out = not r.lives and r.mode == "reroll" and not r.social
    three_one = -other if hand_out else 0.0
    their_three_one = other * other if hand_out else 0.0
    knight_cost = knight.mine
    abort: float | None = None
    if r.end_early and mexes == 0:
        abort = 1.0 if r.lives else float(r.base if r.cap is None else min(r.base, r.cap))

    def penalty(mex: int) -> float:
        return _stake(r, mex, lives_me, pot0)

    def penalty_any(mex: int) -> float:
        # Another loser's lives are not mine: only the cap bounds what they lose.
        return _stake(r, mex, 1 << 30, pot0)

    def m_cap_for(mex: int) -> int:
        if r.pot:
            return 0
        costs = [penalty_any(mex + m) for m in range(n_later + 1)]
        cap = n_later
        while cap > 0 and costs[cap - 1] == costs[n_later]:
            cap -= 1
        return cap

    caps = {mexes: m_cap_for(mexes), mexes + 1: m_cap_for(mexes + 1)}

    def cost(v: int, lim: int) -> float:
        """Standing on ``v``: my penalty less the others' average, ``other`` each."""
        t = min(v, low)
        k_start = 0 if v > low else 1 + (k0 if v == low and r.rolloff else 0)
        mex_me = mexes + (v == _TOP)
        pot_me = pot0
        if v == _TOP:
            pot_me = 8 if pot0 == 1 else 2 * pot0
        elif _DOUBLE[v]:
            pot_me = pot0 + _DOUBLE[v]
        if r.cap is not None:
            pot_me = min(pot_me, r.cap)
        pristine = r.pot and pot_me == 1
        later = _later(
            t,
            lim,
            n_later,
            k_start,
            pristine,
            caps[mex_me],
            r.mode,
            _their_keep(r),
            r.stuck,
            r.rolloff,
            r.pot,
        )
        if r.pot and r.lives:
            mine, anyone = sum(later.lose), 1.0
        elif r.pot:
            mine = pot_me * later.lose_a + later.lose_b
            anyone = pot_me * later.any_a + later.any_b
            if r.cap is not None:
                mine, anyone = min(mine, r.cap * sum(later.lose)), min(anyone, r.cap)
        else:
            mine = sum(w * penalty(mex_me + m) for m, w in enumerate(later.lose))
            anyone = sum(w * penalty_any(mex_me + m) for m, w in enumerate(later.any_))
        ones, dice, three_ones = later.extras
        extras = ones * knight.their_one_one + dice * knight.their_die
        return mine - other * (anyone - mine) + extras + three_ones * their_three_one

    stand_rows: list[tuple[float, ...]] = [()]
    for n in range(1, allowed + 1):
        if n > 1 and not first:
            stand_rows.append(stand_rows[1])
        else:
            stand_rows.append(tuple(cost(v, n if first else allowed) for v in range(_N)))
    stand = tuple(stand_rows)

    outs, p_elbow, norm = _OUTCOMES[r.mode]
    three_one_per_roll = three_one * 2 / norm if r.mode == "reroll" else 0.0
    kepts = (False, True) if r.keep else (False,)

    def solve(fresh: float) -> tuple[dict[tuple[int, bool], float], dict[tuple[int, int], float]]:
        roll: dict[tuple[int, bool], float] = {}
        keep: dict[tuple[int, int], float] = {}
        value: dict[bool, list[float]] = {}
        for n in range(allowed, 0, -1):
            after = value  # values with n + 1 rolls used (unused when n == allowed)
            if n < allowed:
                for kept in kepts:
                    roll[n, kept] = _roll_value(
                        outs,
                        after[kept],
                        stand[n + 1],
                        n + 1,
                        allowed,
                        r.stuck,
                        knight_cost,
                        p_elbow * fresh,
                        three_one_per_roll,
                    )
                if r.keep:
                    for die in (1, 2):
                        keep[n, die] = _keep_value(
                            die,
                            after[True],
                            stand[n + 1],
                            n + 1,
                            allowed,
                            r,
                            knight_cost,
                            fresh,
                            roll[n, True],
                            three_one,
                        )
            value = {}
            for kept in kepts:
                row = list(stand[n])
                for v in range(_N):
                    best = row[v]
                    if n < allowed:
                        best = min(best, roll[n, kept])
                        die = _SMALL[v]
                        if die and not kept and r.keep:
                            best = min(best, keep[n, die])
                    if abort is not None:
                        best = min(best, abort)
                    row[v] = best
                value[kept] = row
        roll[0, False] = _roll_value(
            outs,
            value[False],
            stand[1],
            1,
            allowed,
            r.stuck,
            knight_cost,
            p_elbow * fresh,
            three_one_per_roll,
        )
        return roll, keep

    if p_elbow:
        # An Elbow starts the turn over, so a fresh turn's value is a fixed point of the
        # induction; it is piecewise linear with slope below 1, so the secant finds it.
        x0, g0 = 0.0, solve(0.0)[0][0, False]
        x1 = g0
        roll, keep = solve(x1)
        g1 = roll[0, False] - x1
        for _ in range(60):
            if abs(g1) <= 1e-12 * (1.0 + abs(x1)):
                break
            x2 = x1 - g1 * (x1 - x0) / (g1 - g0) if g1 != g0 else x1 + g1
            x0, g0 = x1, g1
            x1 = x2
            roll, keep = solve(x1)
            g1 = roll[0, False] - x1
    else:
        roll, keep = solve(0.0)
    return _Tables(stand, roll, keep, abort, penalty(mexes))


def _roll_value(
    outs: tuple[tuple[int, float], ...],
    after: Sequence[float],
    stand: Sequence[float],
    n1: int,
    allowed: int,
    stuck: bool,
    knight_cost: Sequence[float],
    elbow: float,
    three_one: float,
) -> float:
    """Throwing both dice: each roll then decides again (``after``) or ends the turn."""
    total = elbow + three_one
    for rank, p in outs:
        if rank == _TOP or (stuck and rank == _STUCK and n1 < allowed):
            value = stand[rank]
        else:
            value = after[rank]
        total += p * (value + knight_cost[rank])
    return total


def _keep_value(
    die: int,
    after: Sequence[float],
    stand: Sequence[float],
    n1: int,
    allowed: int,
    r: _Rules,
    knight_cost: Sequence[float],
    fresh: float,
    reroll: float,
    three_one: float,
) -> float:
    """Keeping a lone 1 or 2 and throwing the other die (README, Rule sets: ``mexico``)."""
    total = 0.0
    for rank in _KEEP_OUT[die]:
        if rank == _ELBOW and r.mode != "low":
            value = fresh if r.mode == "elbow" else three_one + reroll
        elif rank == _TOP or (r.stuck and rank == _STUCK and n1 < allowed):
            value = stand[rank]
        else:
            value = after[rank]
        total += (value + knight_cost[rank]) / 6
    return total


# --- reading the view -------------------------------------------------------------------------
def _rank(roll: Sequence[int]) -> int:
    return RANK[(roll[0], roll[1])]


def _lives(view: View, player: str) -> int:
    lives = view["players"][player]["lives"]
    return int(lives) if lives else 1


def _table_for(view: View, me: str) -> tuple[_Tables, _Rules]:
    r = _rules(view["options"])
    results: Mapping[str, Sequence[int]] = view["results"]
    known = [_rank(roll) for player, roll in results.items() if player != me]
    low = min(known) if known else _N
    k0 = known.count(low)
    order: Sequence[str] = view["order"]
    later = order[order.index(me) + 1 :] if me in order else ()
    n_later = sum(1 for p in later if p not in results)
    limit = view["limit"]
    allowed = max(1, limit if limit is not None else r.max_rolls)
    tables = _tables(
        r,
        allowed,
        limit is None,
        low,
        k0,
        n_later,
        int(view["mex_count"]),
        int(view["pot"]),
        _lives(view, me),
        _knight_for(view, me, r, later),
        len(view["seats"]),
    )
    return tables, r


def _knight_for(view: View, me: str, r: _Rules, later: Sequence[str]) -> _Knight:
    """The Knight's prices for me now; nothing where the Knight is off or lives decide."""
    if not r.knight or r.lives:
        return _NO_KNIGHT
    knight = view["knight"]
    players = len(view["seats"])
    if knight == me:
        return _knight("me", players, 0.0)
    if knight is None:
        return _knight("none", players, 0.0)
    results: Mapping[str, Sequence[int]] = view["results"]
    to_roll = [p for p in later if p not in results]
    share = to_roll.count(knight) / len(to_roll) if to_roll else 0.0
    return _knight("other", players, share)


def expected_penalties(view: View) -> dict[str, float]:
    """The penalty the player to move expects this round after each of their legal turn
    moves (encoded as in ``legal_moves``), against the table: their own less the others'
    average, under the model of the module docstring.

    Public so tests, and a table that wants to show its reasoning, read the same numbers
    the brain acts on. Empty in a roll-off, where the only move is to roll.
    """
    return _values(view)[0]


def _values(view: View) -> tuple[dict[str, float], float]:
    """``expected_penalties`` and the penalty on the table (the ``risk`` persona's scale)."""
    if view["rolloff"] is not None:
        return {}, 0.0
    tables, _ = _table_for(view, view["viewer"])
    n = int(view["rolls"])
    kept = bool(view["kept"])
    last = view["last"]
    values: dict[str, float] = {}
    for move in view["legal_moves"]:
        act, _, arg = move.partition(".")
        if act == "stand" and last is not None:
            values[move] = tables.stand[n][_rank(last)]
        elif act == "roll" and (n, kept) in tables.roll:
            values[move] = tables.roll[n, kept]
        elif act == "keep" and (n, int(arg)) in tables.keep:
            values[move] = tables.keep[n, int(arg)]
        elif act == "endround" and tables.abort is not None:
            values[move] = tables.abort
    return values, tables.stake


# --- choices that are not about the dice ---------------------------------------------------------
def _pick_target(view: View, me: str, choices: Sequence[str]) -> str:
    """Who gets my hand-out sip, or becomes Knight: the leader.

    Both cost drinks, never lives, so they cannot bring anyone closer to losing a life;
    what they can change is who is ahead. The leader is whoever has the most lives left
    (in a lives game), then whoever has drunk least; a drink there narrows the gap that
    the table (and the leaderboard) keeps score by. On a tie the next player in seat order
    gets it, so the choice is the same every time the table looks the same.
    """
    players: Mapping[str, Mapping[str, Any]] = view["players"]
    seats: Sequence[str] = view["seats"]
    lives_game = view["options"]["lives"] is not None
    mine = seats.index(me) if me in seats else 0

    def standing(move: str) -> tuple[int, int, int]:
        player = move.partition(".")[2]
        state = players.get(player) or {}
        lives = int(state.get("lives") or 0) if lives_game else 0
        totals: Mapping[str, int] = state.get("totals") or {}
        drunk = sum(amount for unit, amount in totals.items() if unit != "life")
        seat = (seats.index(player) - mine) % len(seats) if player in seats else len(seats)
        return (-lives, drunk, seat)

    return min(choices, key=standing)


def _tap_helps(view: View, me: str) -> bool:
    """Whether locking the roller's 3-2 lowers my chance of losing the round.

    Yet to roll, it always does: the roller is left with (nearly) the lowest result there
    is, which I then only need to beat. Already rolled and safe (someone is below me), it
    only spares my drinks if I am the Knight (their doubles make me sip). Already rolled
    and lowest, the chances are computed: the roller stopped at 3-2, against the roller
    going on by the model of the module docstring, then the players after them.
    """
    r = _rules(view["options"])
    results: Mapping[str, Sequence[int]] = view["results"]
    order: Sequence[str] = view["order"]
    roller = view["to_move"]
    if me not in results:
        return me in order
    knight_me = r.knight and not r.lives and view["knight"] == me
    mine = _rank(results[me])
    others = [_rank(roll) for player, roll in results.items() if player != me]
    if others and min(others) < mine:
        return knight_me
    k = 1 + others.count(mine)
    limit = view["limit"]
    lim = max(1, limit if limit is not None else r.max_rolls)
    after = order[order.index(roller) + 1 :] if roller in order else ()
    n_after = sum(1 for p in after if p not in results)

    def lose_from(k_start: int) -> float:
        args = (r.mode, _their_keep(r), r.stuck, r.rolloff, False)
        return sum(_later(mine, lim, n_after, k_start, False, 0, *args).lose)

    def lose_after(rank: int) -> float:
        if rank < mine:
            return 0.0
        if rank == mine:
            # The roller comes after me: without roll-offs they lose the tie.
            return lose_from(k + 1) if r.rolloff else 0.0
        return lose_from(k)

    tapped = lose_after(_STUCK)
    opponent = _opponent(mine, lim, r.mode, _their_keep(r), r.stuck)
    spread = opponent.from_stuck.get((int(view["rolls"]), bool(view["kept"])))
    if spread is None:
        return True
    _, pt, pa, p21 = spread
    going_on = pt * lose_after(mine) + pa * lose_from(k)
    going_on += p21 * (lose_after(mine) if mine == _TOP else lose_from(k))
    return tapped < going_on - 1e-12 or (knight_me and tapped <= going_on)


# --- the brain ----------------------------------------------------------------------------------
def decide(view: View, rng: Random, *, risk: float = 0.0) -> Move | None:
    """The move for ``view["viewer"]``: for the player to move, the legal move with the
    smallest expected penalty; for anyone else, TAP where it is offered and helps.

    ``risk`` is the persona: each move's expectation is shifted by ``risk`` times the
    penalty on the table, towards rolling on (positive, bold) or standing and ending early
    (negative, cautious), so the persona only shows where the sums are close. ``rng`` is
    taken for the brain interface (``bot.ai.Brain``); the exact choice needs no chance.
    """
    me = view["viewer"]
    legal: Sequence[str] = view["legal_moves"]
    if not legal or me is None:
        return None
    if view["to_move"] != me:
        return _TAP if "tap" in legal and _tap_helps(view, me) else None
    pending = view["pending"]
    if pending in ("handout", "knight"):
        targets = [m for m in legal if m.startswith(f"{pending}.")]
        if targets:
            return Move.decode(_pick_target(view, me, targets))
    if len(legal) == 1:
        return Move.decode(legal[0])
    values, stake = _values(view)
    if not values:
        return Move.decode(legal[0])

    def score(move: str) -> tuple[float, int]:
        act = move.partition(".")[0]
        return values[move] - risk * stake * _BOLDNESS.get(act, 0.0), _PREFERENCE.get(act, 9)

    return Move.decode(min(values, key=score))
