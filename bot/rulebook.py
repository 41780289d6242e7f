"""The rules of each preset as plain data, for `/rules` and anything else that explains a game.

Kept out of the cog so the wording can be reviewed (and later translated) without
touching Discord code. Written for players at the table: short lines, no edge cases.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class RulePage:
    title: str
    summary: str
    style: str
    rules: tuple[str, ...]


ROLL_ORDER = (
    "Two dice, read high die first (a 6 and a 4 is 64). Lowest to highest: 31 (where it "
    "counts), 32, 41 … 54, 61 … 65, then the doubles 11 up to 66, and 21 on top."
)

RULEBOOK: MappingProxyType[str, RulePage] = MappingProxyType(
    {
        "mexican": RulePage(
            title="Mexican — the bar house rules",
            summary="Bluff about a hidden roll; whoever loses a call drinks a sip, a shot "
            "or the chug.",
            style="Bluffing",
            rules=(
                "You roll in secret: only you see your dice. Then you claim a value and pass "
                "the cup on.",
                "Every claim must match or beat the one standing. Matching is fine, and 21 "
                "after 21 counts as a match.",
                "The next player either takes the cup (and must roll) or calls bullshit and "
                "lifts it.",
                "Bullshit: dice lower than the claim and the claimer loses; equal or higher "
                "and the caller loses. The caller starts the next round.",
                "A 3-1 is a Social: everybody at the table, the roller too, takes a sip and "
                "the roller rolls again. The standing claim still has to be met.",
                "Can't or won't beat the claim? Fold for 1 sip; the dice go unseen and the "
                "next player starts fresh.",
                "The loser's drink depends on the claim: a plain roll is 1 sip, a double is "
                "1 shot, a Mexican (21) is the chug.",
                "No built-in end: the host stops the game. With the lives option (4 each) "
                "every lost round also costs a life and the last player left wins.",
            ),
        ),
        "dollar": RulePage(
            title="Dollar — bluffing for lives",
            summary="Mia-style bluffing where each lost call costs one of your four lives.",
            style="Bluffing",
            rules=(
                "Everyone has 4 lives, one per corner of a dollar bill. Lose the last one and "
                "you're out; the last player standing wins.",
                "31 counts as the lowest roll and 21 (the Mexican) as the highest.",
                "Roll in secret, claim a value, pass the cup. Each claim must be strictly "
                "higher than the one before.",
                "After a claim of 21, the next player who takes the cup must roll again and "
                "may only claim 21.",
                "Taking the cup, you may roll, or pass it unrolled by claiming higher over "
                "dice you haven't seen (never after a 21).",
                "Blind roll: roll without looking. The bot will not show you those dice.",
                "Bullshit: dice lower than the claim and the claimer loses a life; equal or "
                "higher and the caller does. The caller starts the next round.",
            ),
        ),
        "mexen": RulePage(
            title="Mexen — open rolls",
            summary="Everyone rolls in the open; the lowest roll drinks, doubled for every Mex.",
            style="Open rolls",
            rules=(
                "The round's starter rolls up to 3 times and may stop after any roll. That "
                "number of rolls is everyone's limit this round.",
                "Only your last roll counts, even if an earlier one was better. A Mex (21) "
                "ends your turn straight away.",
                "A 3-1 doesn't count: hand a sip to any other player and roll again; that "
                "reroll doesn't use up one of your rolls.",
                "When everyone has rolled, the lowest roll loses. Tied players roll off, one "
                "roll each, until one is lowest.",
                "The loser drinks 1 sip, doubled for each Mex rolled this round (2, 4, …), "
                "but never more than 4.",
                "End early: while nobody has rolled a Mex yet, you may end the round after "
                "your own roll and take the single penalty yourself.",
                "Optional lives (6 each): a loss costs 1 life, or 2 for each Mex. The loser "
                "starts the next round.",
            ),
        ),
        "mexicanen": RulePage(
            title="Mexicanen — open rolls for lives",
            summary="Open rolls with 6 lives each; the lowest roll loses lives, more when a "
            "Mex came up.",
            style="Open rolls",
            rules=(
                "Everyone starts with 6 lives. Turns work as in Mexen: the starter sets how "
                "many rolls (1 to 3) and only your last roll counts.",
                "Scored in numbers: doubles are 100 to 600, Mex (21) is 1000, and 31 is "
                "simply the lowest roll.",
                "The lowest roll loses 1 life, or 2 for every Mex rolled in the round, extra "
                "rounds included.",
                "Ties for lowest go to extra rounds of one roll each among the tied players.",
                "Abort: while nobody has rolled a Mex, you may stop the round after your own "
                "roll; then only you lose 1 life.",
                "The first player down to 0 lives loses and the game ends there (option: "
                "play on until one player is left).",
                "The loser starts the next round.",
            ),
        ),
        "mexico": RulePage(
            title="Mexico — the phone-app rules",
            summary="Open rolls for 2 to 8 players with a growing pot, a Knight and the Elbow.",
            style="Open rolls",
            rules=(
                "2 to 8 players. The starter rolls up to 3 times and sets everyone's limit; "
                "only your last roll counts.",
                "Keep a die: a lone 1 or 2 (the other die neither) may be kept once per turn "
                "while you reroll the other. It uses up a roll.",
                "The pot starts each round at 1. Any double adds the value of one of its dice.",
                "Mexico (21) ends your turn: a pot of 1 jumps to 8, otherwise it doubles. "
                "Each further Mexico doubles it again.",
                "The Knight: rolling 1-1 makes you Knight and the old Knight sips once. If "
                "the Knight rolls it, they pick a new Knight.",
                "Whenever anyone rolls a double from 2-2 to 6-6, the Knight drinks as many "
                "sips as one die shows.",
                "Elbow (3-1): not a result. Your turn starts over with all your rolls.",
                "STUCK (3-2): while you still have rolls, the others may hit TAP before you "
                "roll again; that locks your 3-2 in.",
                "The lowest roll drinks the whole pot; ties roll again. The loser starts the "
                "next round. There is no winner: play until you stop.",
            ),
        ),
    }
)

FAIR_CUP = (
    "When dice go under the cup the bot shows a seal: the SHA-256 of `high-low:salt` "
    "(for example `6-2:` followed by a random salt). When the cup is lifted it shows the "
    "dice and the salt. Hash that text yourself (`printf '6-2:<salt>' | sha256sum`, or "
    "any SHA-256 tool): if it matches the seal, the dice were fixed before anyone "
    "answered and never swapped. Dice come from the operating system's cryptographic "
    "random source."
)

TABLE_RULES: tuple[str, ...] = (
    "Only the player whose move it is can make it.",
    "Every rule set can count neutral points instead of sips.",
    "One game per channel; a game needs at least 2 players.",
)
