"""What Expert Ada may risk against one person heads-up: her bank (docs/computer.md,
"Safe exploitation").

The bank is what she has won against that person beyond what the solved strategy
expects from anyone, read off their public record of rounds against her (:func:`banked`).
Risking only what was won keeps her expected result at the equilibrium's or above, but
an all-time bank lets a patient adversary buy her lean: a long stretch of weak play fills
it, and a punishment that takes less per block than luck hides then collects on it for
thousands of games. So what she may risk is a **running** bank, kept by the computers'
memory (:mod:`bot.ai.recent`) from the rounds as they are counted (:func:`carry`): it
starts at ``SEED``, moves by every round won or lost above the policy's expectation, and
never holds more than ``CAP`` or less than ``FLOOR``. Gains above the cap are not kept
for later, so nothing won long ago pays for a punishment now: in any stretch of play,
what her lean can lose is at most the cap (and the seed), unless the same stretch gave
it back to her first. Once her lean has lost what the bank held, she plays the solved
strategy until her results against that person have earned ``-FLOOR`` rounds back.
"""

from __future__ import annotations

from bot.ai import bluff_policy
from bot.ai.opponents import Profile

#: Rounds handed to her before any are won: enough to try the best answer now and then,
#: so that a weak player's gifts can start the bank.
SEED = 8.0
#: The most the running bank holds, in rounds: enough that luck against a weak player
#: seldom takes her below the full lean (a part's full lean wants at most 9 rounds), and
#: all that a punishment can take from her lean in one stretch.
CAP = 20.0
#: The least it holds: once her lean has lost the bank, this many rounds won above the
#: policy's expectation before she leans again. Deep, because luck alone moves an empty
#: bank between the floor and zero, and each time it lifts it above zero she leans a
#: little and a punisher takes that back: the deeper the floor, the rarer that is (at -8
#: the arena's responder took 2 points of games more than the solved strategy gives it).
FLOOR = -40.0


def banked(profile: Profile, table: str) -> float:
    """The rounds she has won against this person beyond what the policy expects to win
    from anyone, heads-up (a round is worth 1), luck included, all time.

    In the solver's currency (docs/computer.md): a round is won or lost, and starting
    the next one is worth the policy's ``start_value``; the policy expects
    ``value_for_starter`` from a round it starts and minus that from the others. Starts
    are bought by calling, so she is credited with those she took and charged the
    starter's edge of each round she started. From the person's public record of rounds
    against her: who started them and who lost the finished ones."""
    finished = profile.duel_won + profile.duel_lost
    if finished <= 0:
        return 0.0
    policy = bluff_policy.policy(table)
    led = profile.duel_led / max(1, profile.duel_rounds)  # the share the person started
    mine = finished * (1 - 2 * led)  # the rounds she started, less the person's
    score = 2 * profile.duel_lost - finished + mine * policy.start_value
    return (score - mine * policy.value_for_starter) / 2


def opening(won: float) -> float:
    """The running bank for someone first read with ``won`` banked all time (a new
    record, or one the memory forgot): the seed plus that, within the bounds."""
    return clamp(SEED + won)


def carry(bank: float, won_before: float, won_now: float) -> float:
    """The running bank after the all-time bank moved from ``won_before`` to ``won_now``."""
    return clamp(bank + won_now - won_before)


def clamp(bank: float) -> float:
    return min(CAP, max(FLOOR, bank))
