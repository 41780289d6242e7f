"""The figures of a player card and of a leaderboard line, as plain text in the reader's
language: one wording for `/stats`, `/leaderboard` and the web companion's pages (README,
Web companion), so the numbers read the same wherever they are shown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine import from_code
from bot.engine.rolls import TOP
from bot.league.ratings import FAMILIES, PROVISIONAL_GAMES, Skill
from bot.present import ranking as league
from bot.present.card import CardData
from bot.present.faces import Faces
from bot.present.i18n import Talk, talk
from bot.present.words import Words, amount
from bot.storage import STATS, PlayerTotals

#: The dice the /stats card draws: its font's Unicode faces (bot/present/fonts).
CARD_FACES = Faces()

#: The rating leaderboards' stats, by the family each ranks (README, Ratings).
RATING_STATS = {key: spec.family for key, spec in STATS.items() if spec.family}


def board_value(stat: str, value: float, games: int = 0, t: Talk | None = None) -> str:
    """A leaderboard figure: a rate as a percentage, a rating as the card shows it
    ("1,034", marked while provisional), a count as it is."""
    if stat in RATING_STATS:
        return league.rating(round(value), games < PROVISIONAL_GAMES, t or talk())
    return f"{value * 100:.0f}%" if STATS[stat].percent else f"{value:g}"


def card_data(
    name: str,
    totals: PlayerTotals,
    favourite: tuple[str, int] | None,
    nemesis: tuple[int, int] | None,
    nemesis_name: str | None,
    t: Talk | None = None,
    *,
    skills: Mapping[str, Skill] | None = None,
    achievements: tuple[int, Sequence[str]] | None = None,
) -> CardData:
    """The figures of a player card, shared by the image and the text fallback, in the
    reader's language (English when none is given), every letter as written: the card's
    font has them all (`bot/present/card.py`).

    First the rating in each family played (README, Ratings) and, for a person, the
    achievements held with the three rarest; a computer's card has ratings only."""
    t = t or talk()
    league_figures = [
        (t("card-rating", family=family), league.rating(skill.shown, skill.provisional, t))
        for family in FAMILIES
        if (skill := (skills or {}).get(family)) is not None
    ]
    if achievements is not None:
        count, rarest = achievements
        league_figures.append(
            (
                t("card-achievements"),
                t("card-achievements-value", n=count, rarest=league.rarest(rarest, t))
                if count
                else t("card-none-yet"),
            )
        )
    s = totals
    taken = _cell(
        [
            amount(n, u, t)
            for n, u in ((s.sips, "sip"), (s.shots, "shot"), (s.chugs, "chug"), (s.points, "point"))
            if n
        ],
        t,
    )
    caused = _cell(
        [
            amount(n, u, t)
            for n, u in (
                (s.sips_caused, "sip"),
                (s.shots_caused, "shot"),
                (s.chugs_caused, "chug"),
                (s.points_caused, "point"),
                (s.lives_caused, "life"),
            )
            if n
        ],
        t,
    )
    # Claims are made only at the bluffing tables, which speak in words. The card is an
    # image, so its dice are the Unicode faces its font draws, never the bot's emojis.
    claim = ""
    if favourite:
        roll = from_code(favourite[0])
        claim = f"{CARD_FACES.of(roll)} {Words.of_preset('mexican', t).roll(roll)}"
    none_yet = t("card-none-yet")
    figures = [
        *league_figures,
        (t("card-taken"), taken or t("card-nothing")),
        (t("card-caused"), caused or t("card-nothing")),
        (t("card-lives-lost"), t("card-number", n=s.lives_lost)),
        (t("card-rounds-lost"), t("card-number", n=s.rounds_lost)),
        (t("card-bluffs"), t("card-pair", a=s.bluffs_made, b=s.bluffs_caught)),
        (t("card-calls"), t("card-pair", a=s.calls_made, b=s.calls_right)),
        (
            f"{CARD_FACES.of(TOP)} {t('card-luck')}",
            t("card-luck-value", n=s.mex_rolled, expected=s.rolls_made * 2 / 36),
        ),
        (
            t("card-favourite"),
            t("card-times", what=claim, n=favourite[1]) if favourite else none_yet,
        ),
        (
            t("card-nemesis"),
            t("card-times", what=nemesis_name, n=nemesis[1])
            if nemesis and nemesis_name
            else none_yet,
        ),
        (t("card-rolls"), t("card-number", n=s.rolls_made)),
    ]
    games, wins = amount(s.games_played, "game", t), t("card-wins", n=s.games_won)
    if s.games_played:
        rate = f"{s.games_won / s.games_played:.0%}"
        headline = t("card-headline", games=games, wins=wins, rate=rate)
    else:
        headline = t("card-headline-no-rate", games=games, wins=wins)
    footer = t("card-footer")
    if skills:  # what the rating numbers are, said once (README, Ratings)
        provisional = any(skill.provisional for skill in skills.values())
        family = next(iter(skills)) if len(skills) == 1 else None
        footer = league.legend(family, provisional, t) + " · " + footer
    return CardData(name=name, headline=headline, figures=figures, footer=footer)


def _cell(parts: list[str], t: Talk) -> str:
    """'2 sips, 1 shot': a card cell lists its parts with no 'and', as a table would."""
    text = parts[-1] if parts else ""
    for part in reversed(parts[:-1]):
        text = t("list-join", a=part, b=text)
    return text
