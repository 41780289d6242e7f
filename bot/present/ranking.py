"""What players read of the league (README, Ratings; Seasons): ratings and their changes,
season names, `/season`, `/achievements` and the season's end.

Pure functions of what bot/league/service.py returns into text and ``Reply`` values; no Discord
I/O. A rating is always worded by one message (``rating``), so the final standing, the
leaderboard, the card and `/season` show the same number the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.league.ratings import FAMILIES
from bot.league.seasons import Champion
from bot.league.service import AchievementView, RatingChange, SeasonClose, SeasonView
from bot.present.i18n import Talk
from bot.present.message import (
    CONTENT_LIMIT,
    EMBED_DESCRIPTION_LIMIT,
    FIELD_LIMIT,
    Embed,
    Reply,
    clip,
)
from bot.present.words import listing, who


def rating(value: int, provisional: bool, t: Talk) -> str:
    """'1,034', or '1,034?' while provisional (under 10 rated games, bot/league/ratings.py)."""
    return t("rating", rating=value, provisional="yes" if provisional else "no")


def change(delta: int, t: Talk) -> str:
    direction = "up" if delta > 0 else "down" if delta < 0 else "same"
    return t("rating-change", direction=direction, delta=abs(delta))


def legend(family: str | None, provisional: bool, t: Talk) -> str:
    """The one line that says what the rating numbers are: of which family (None: every
    family the reader sees), that everyone starts at 1,000, and, where a ? is shown,
    what it means (README, Ratings)."""
    text = t("rating-legend", family=family or "all")
    return text + " · " + t("rating-provisional") if provisional else text


def standing_rating(moved: RatingChange, t: Talk) -> str:
    """A final standing's rating column: '1,018 (+18)'."""
    return t(
        "standing-rating",
        rating=rating(moved.after, moved.provisional, t),
        change=change(moved.delta, t),
    )


def achievement_name(key: str, t: Talk) -> str:
    """An achievement's name from the catalog (``achievement-<key>``); its key if the
    catalog has none yet, so a new achievement never costs a game its final standing."""
    try:
        return t(f"achievement-{key}")
    except KeyError:
        return key


def achievement_how(key: str, t: Talk) -> str:
    try:
        return t(f"achievement-{key}-how")
    except KeyError:
        return ""


def earned_lines(earned: Sequence[tuple[str, str]], t: Talk) -> list[str]:
    """'🏅 @bob: First blood and Flawless': one line per player who earned
    achievements in a game (a newcomer's first game often earns two or three; one line
    each would name them again and again on a phone), in the order they were earned.
    The player is named, never pinged (these lines sit in the standing's embed)."""
    names: dict[str, list[str]] = {}
    for player, key in earned:
        names.setdefault(player, []).append(achievement_name(key, t))
    # Players who earned the same share a line: "🏅 @bob and @carol: First blood".
    alike: dict[tuple[str, ...], list[str]] = {}
    for player, theirs in names.items():
        alike.setdefault(tuple(theirs), []).append(who(player, t))
    return [
        t("achievement-earned", p=listing(players, t), names=listing(list(theirs), t))
        for theirs, players in alike.items()
    ]


def season_name(key: str, t: Talk) -> str:
    """'December 2026' or 'Q4 2026', in the reader's language (bot/league/seasons.py keys)."""
    year, part = key.split("-")
    if part.startswith("Q"):
        return t("season-name", quarter=int(part[1:]), month=0, year=int(year))
    return t("season-name", quarter=0, month=int(part), year=int(year))


def _champions(champions: Iterable[Champion], family: str, t: Talk) -> list[str]:
    return [
        t(
            "season-crowned",
            place=c.place,
            p=who(str(c.user_id), t),
            rating=rating(c.rating, False, t),
        )
        for c in sorted(champions, key=lambda c: c.place)
        if c.family == family
    ]


def season(view: SeasonView, t: Talk) -> Reply:
    """`/season`: the season's name and days left, the top per family, past champions
    (as many as the league reads: bot/league/service.py `SEASON_TOP`, `PAST_SEASONS`)."""
    top = [f for f in FAMILIES if view.top.get(f)]
    fields: list[tuple[str, str]] = []
    for family in top:
        lines = [
            t(
                "season-place",
                place=n,
                p=who(str(s.user_id), t),
                rating=rating(s.rating, s.provisional, t),
            )
            for n, s in enumerate(view.top[family], start=1)
        ]
        fields.append((t("family", family=family), clip("\n".join(lines), FIELD_LIMIT)))
    past = []
    for key, champions in view.past:
        firsts = [
            t(
                "season-champion",
                family=c.family,
                p=who(str(c.user_id), t),
                rating=rating(c.rating, False, t),
            )
            for family in FAMILIES
            for c in champions
            if c.family == family and c.place == 1
        ]
        if firsts:
            past.append(
                t("season-past-line", season=season_name(key, t), champions=" · ".join(firsts))
            )
    if past:
        fields.append((t("season-past"), clip("\n".join(past), FIELD_LIMIT)))
    description = t("season-days-left", days=view.days_left)
    if not top:
        description += "\n" + t("season-nobody-yet")
    provisional = any(s.provisional for f in top for s in view.top[f])
    footer = t("season-length", length=view.length)
    if provisional:
        footer += " · " + t("rating-provisional")
    embed = Embed(
        title=t("season-title", season=season_name(view.season, t)),
        description=description,
        fields=tuple(fields),
        footer=footer,
    )
    return Reply(embed=embed)


def season_over(close: SeasonClose, t: Talk) -> Reply:
    """The one message that closes a season: its champions per family, with ratings.
    Names only: nobody is pinged by it."""
    lines = [t("season-over", season=season_name(close.season, t))]
    for family in FAMILIES:
        crowned = _champions(close.champions, family, t)
        if crowned:
            lines.append(
                t(
                    "season-over-family",
                    family=t("family", family=family),
                    champions=" · ".join(crowned),
                )
            )
    lines.append(t("season-over-next"))
    return Reply(clip("\n".join(lines), CONTENT_LIMIT))


def achievements(name: str, views: Sequence[AchievementView], t: Talk) -> Reply:
    """`/achievements`: earned ones first (newest first), then the open ones, each with
    how rare it is on this server; cut to fit one embed."""
    earned = sorted(
        (v for v in views if v.earned_at is not None), key=lambda v: -(v.earned_at or 0)
    )
    still_open = [v for v in views if v.earned_at is None]
    lines = [
        t("achievements-earned", name=achievement_name(v.key, t), rarity=rarity(v, t))
        for v in earned
    ] + [
        t("achievements-open", name=achievement_name(v.key, t), how=how, rarity=rarity(v, t))
        if (how := achievement_how(v.key, t))
        else t(
            "achievements-open-unexplained", name=achievement_name(v.key, t), rarity=rarity(v, t)
        )
        for v in still_open
    ]
    title = t("achievements-title", name=name, earned=len(earned), total=len(views))
    text = "\n".join(lines) if lines else t("achievements-none")
    return Reply(
        embed=Embed(title=clip(title, 256), description=clip(text, EMBED_DESCRIPTION_LIMIT))
    )


def rarity(view: AchievementView, t: Talk) -> str:
    """'12% of players' on this server (never 0% for a held one: at least 1%)."""
    if view.holders <= 0 or view.players <= 0:
        return t("achievements-rarity", holders=0, percent=0)
    percent = max(1, round(100 * view.holders / view.players))
    return t("achievements-rarity", holders=view.holders, percent=percent)


def rarest(keys: Sequence[str], t: Talk) -> str:
    return listing([achievement_name(k, t) for k in keys], t)
