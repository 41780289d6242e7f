"""The leaderboard, the player card, /history, /resetleaderboard and /rules say nothing
the catalog does not (README, Languages).

No second catalog is needed to prove it: a `Talk` that says every message as «key» stands
in for a language nobody speaks, and whatever is left once the «keys», player names and
rule set names are taken out was written in the code, where no translator can reach it.
The same stand-in, told which language it plays, shows who each answer speaks to: the
user who asked, or the one who turned the page.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import sys
from collections.abc import Iterator
from functools import cache
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from fluent.runtime import FluentBundle, FluentResource
from fluent.syntax import FluentParser, FluentSerializer, ast
from fluent.syntax.visitor import Transformer

import bot.adapter.checks
import cogs.rules
import cogs.stats
from bot.ai.personas import PERSONAS
from bot.engine import Cause
from bot.engine.presets import PRESET_NAMES
from bot.present import i18n
from bot.present.card import CardData, for_the_font, layout_card
from bot.present.history import history_line
from bot.present.i18n import Talk
from bot.present.rulebook import RULEBOOK
from bot.storage import STATS, PlayerTotals, Ranked, RoundRecord
from cogs.rules import overview_embed, rules_embed
from cogs.stats import ConfirmReset, PageButton, Stats, card_data, leaderboard_page

from .support.sim import PLAYER_NAMES, SimTable
from .test_card import cut_problems, outside_problems, overlap_problems
from .test_stats import bluff_rounds

#: Words that are no one's language: players' and computer players' names, rule sets.
NAMES = (
    *PLAYER_NAMES,
    "admin",
    *(p.name for p in PERSONAS.values()),
    *PRESET_NAMES,
)
_KEY = re.compile(r"«[^»]*»")
_WORD = re.compile(r"[A-Za-z]{2,}")


class _Mark(Transformer):
    """Writes every piece of a message's own text as «key», keeping its line breaks."""

    def __init__(self, plays: str) -> None:
        super().__init__()
        self.plays, self.key = plays, ""

    def visit_Message(self, node: ast.Message) -> ast.Message:
        self.key = node.id.name
        return self.generic_visit(node)  # type: ignore[no-any-return]

    def visit_Term(self, node: ast.Term) -> ast.Term:
        self.key = f"-{node.id.name}"
        return self.generic_visit(node)  # type: ignore[no-any-return]

    def visit_TextElement(self, node: ast.TextElement) -> ast.TextElement:
        marker = f"«{self.plays}:{self.key}»" if self.plays else f"«{self.key}»"
        node.value = re.sub(r"[^\n]*\S[^\n]*", marker, node.value)
        return node


@cache
def _marked(plays: str) -> FluentBundle:
    resource = FluentParser().parse((i18n.LOCALES / f"{i18n.DEFAULT}.ftl").read_text("utf-8"))
    bundle = FluentBundle([i18n.DEFAULT], use_isolating=False)
    bundle.add_resource(FluentResource(FluentSerializer().serialize(_Mark(plays).visit(resource))))
    return bundle


class Keys(Talk):
    """The English catalog with each message's own words written as «key» (or
    «language:key» when it plays a language): numbers, names and whatever else the code
    passes in still show, so English handed over as a variable is caught as well.

    A key the catalog lacks raises, and a message that fails to format is logged, which
    `formats_cleanly` turns into a failure.
    """

    def __init__(self, plays: str = "") -> None:
        super().__init__(i18n.DEFAULT)
        self._bundle, self._english = _marked(plays), None


def leftover(*texts: str) -> list[str]:
    """The words in ``texts`` that are neither a catalog message nor a name."""
    words: list[str] = []
    for text in texts:
        rest = _KEY.sub(" ", text)
        for name in NAMES:
            rest = re.sub(rf"\b{re.escape(name)}\b", " ", rest)
        words += _WORD.findall(rest)
    return words


def embed_texts(embed: discord.Embed) -> list[str]:
    texts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    return texts + [text for field in embed.fields for text in (field.name, field.value)]


def card_texts(data: CardData) -> list[str]:
    return [
        data.name,
        data.headline,
        data.footer,
        *(text for pair in data.figures for text in pair),
    ]


def component_labels(components: list[dict[str, Any]]) -> list[str]:
    """Every label and placeholder a person reads on a message's buttons and menus."""
    found: list[str] = []
    for item in components:
        found += [str(item[k]) for k in ("label", "placeholder") if item.get(k)]
        found += [str(o.get("label", "")) for o in item.get("options", [])]
        found += component_labels(item.get("components", []))
    return found


@pytest.fixture(autouse=True)
def formats_cleanly(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """The catalog logs a message that fails to format; none may."""
    with caplog.at_level(logging.WARNING, logger=i18n.__name__):
        yield
    assert [r.getMessage() for r in caplog.records if r.name == i18n.__name__] == []


def test_the_word_check_catches_english_left_in_the_code() -> None:
    assert leftover("«stat-wins» · this server", "🏆 «x» · alice") == ["this", "server"]
    assert leftover("**#1** <@123> · 12 · 50%", "🤖 Expert Ada: «rules-computer»") == []


# --- the presenters, called directly --------------------------------------------------


class Store:
    def __init__(self, rows: list[Ranked], total: int, mine: Ranked | None) -> None:
        self.rows, self.total, self.mine = rows, total, mine

    async def leaderboard(self, *_: Any, **__: Any) -> tuple[list[Ranked], int]:
        return self.rows, self.total

    async def rank_of(self, *_: Any, **__: Any) -> Ranked | None:
        return self.mine


BOARDS = [
    ([], 0, None, 0),
    (
        [Ranked(1, 5, 0.5, 3), Ranked(1, 6, 0.5, 2), Ranked(3, -1, 12.0, 1)],
        23,
        Ranked(26, 9, 1.0, 3),
        1,
    ),
]


@pytest.mark.parametrize("stat", list(STATS))
async def test_every_leaderboard_page_comes_from_the_catalog(stat: str) -> None:
    for scope in ("server", "channel"):
        for period in ("all", "month", "week"):
            for rows, total, mine, page in BOARDS:
                bot: Any = SimpleNamespace(storage=Store(rows, total, mine))
                embed, view = await leaderboard_page(
                    bot, 1, 2, 9, stat, scope, period, page, Keys()
                )
                labels = [str(item.item.label) for item in view.children]  # type: ignore[attr-defined]
                assert leftover(*embed_texts(embed), *labels) == [], (scope, period, page)
                assert f"«stat-{stat}»" in (embed.title or "")


TOTALS = [PlayerTotals(*([0] * 21)), PlayerTotals(*([1] * 21)), PlayerTotals(*range(21))]


@pytest.mark.parametrize("totals", TOTALS)
def test_every_text_on_the_card_comes_from_the_catalog(totals: PlayerTotals) -> None:
    for favourite, nemesis, name in (
        (None, None, None),
        (("21", 3), (5, 2), "bob"),
        (("55", 1), (-1, 4), "Expert Ada"),
    ):
        data = card_data("alice", totals, favourite, nemesis, name, Keys())
        assert leftover(*card_texts(data)) == []
        assert leftover(*card_texts(for_the_font(data))) == []


def test_every_history_line_comes_from_the_catalog() -> None:
    ids = ("111111111111111111", "222222222222222222")
    paid = [
        [ids[0], "sip", 1, Cause.SOCIAL, {}, ids[1]],
        [ids[1], "shot", 2, Cause.CAUGHT, {"claim": "65", "cup": "52"}, None],
        ["-2", "life", 1, Cause.LOWEST, {"roll": "43", "mexes": 1}, None],
    ]
    for reason in ("call", "fold", "timer", "lowest", "end_early", "end early", "timeout", "void"):
        for loser in (int(ids[0]), None, -1):
            for preset in PRESET_NAMES:
                for summary in ({}, {"paid": paid}, {"paid": paid * 20}):
                    record = RoundRecord(7, preset, loser, reason, summary)
                    assert leftover(history_line(record, Keys())) == [], (reason, preset)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_rule_comes_from_the_catalog(preset: str) -> None:
    assert leftover(*embed_texts(rules_embed(preset, Keys()))) == []


def test_the_rules_overview_comes_from_the_catalog() -> None:
    embed = overview_embed(Keys())
    assert leftover(*embed_texts(embed)) == []
    assert len(embed.fields) == len(PRESET_NAMES) + 3


def test_the_english_rulebook_is_the_catalog_s() -> None:
    english = i18n.talk()
    for preset, page in RULEBOOK.items():
        assert page.title == english(f"rules-{preset}-title")
        assert "\n".join(page.rules) == english(f"rules-{preset}-lines")


async def test_the_reset_buttons_come_from_the_catalog() -> None:
    view = ConfirmReset(1, Keys())
    labels = [str(item.label) for item in view.children]  # type: ignore[attr-defined]
    assert labels == ["«reset-confirm»", "«reset-cancel»"]


def test_the_server_only_refusal_speaks_the_user_s_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    speaks(monkeypatch)
    asked = SimpleNamespace(guild_id=None, channel_id=None, locale=discord.Locale.german)
    assert bot.adapter.checks.in_server(asked) == "«de:server-only-command»"  # type: ignore[arg-type]


async def test_a_stale_page_and_an_unknown_player_come_from_the_catalog(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    speaks(monkeypatch)
    said: list[str] = []

    async def send_message(content: str, **_: Any) -> Any:
        said.append(content)
        return SimpleNamespace(message_id=None)

    gone = PageButton("gone", "server", "all", 0)
    # A click on the leaderboard page that carries the button: only the page is wrong.
    page = SimpleNamespace(
        id=5,
        author=SimpleNamespace(id=1),
        flags=discord.MessageFlags(),
        components=[discord.ActionRow({"type": 1, "components": [gone.item.to_component_dict()]})],
    )
    clicked: Any = SimpleNamespace(
        locale=discord.Locale.german,
        guild_id=1,
        channel_id=2,
        client=SimpleNamespace(user=SimpleNamespace(id=1), tables={}),
        message=page,
        data={"custom_id": gone.item.custom_id, "component_type": 2},
        response=SimpleNamespace(send_message=send_message, is_done=lambda: False),
    )
    await gone.callback(clicked)
    assert said == ["«de:leaderboard-page-gone»"]
    cog = Stats(SimpleNamespace(get_user=lambda _: None))  # type: ignore[arg-type]
    name = await cog._name(None, 12345, Keys())
    assert "«card-unknown-player»" in name and leftover(name) == []


# --- the commands, through the bot ----------------------------------------------------


def speaks(
    monkeypatch: pytest.MonkeyPatch, locales: dict[int, discord.Locale] | None = None
) -> None:
    """Each cog speaks «language:key», the language being the interaction's locale as is;
    the users in ``locales`` get that locale on each interaction they make."""
    # The bot loads its cogs as fresh modules: patch those it runs and those imported here.
    names = ("cogs.stats", "cogs.rules", "bot.adapter.checks")
    running = [sys.modules.get(name) for name in names]
    here = (*running, cogs.stats, cogs.rules, bot.adapter.checks)
    for module in {id(m): m for m in here if m}.values():
        monkeypatch.setattr(module, "talk", lambda language=None: Keys(language or "en"))
        monkeypatch.setattr(module, "language_of", lambda locale: str(locale.value)[:2])
    if locales:
        real = discord.Interaction._from_data

        def from_data(self: discord.Interaction, data: Any) -> None:
            real(self, data)
            self.locale = locales.get(self.user.id, self.locale)

        monkeypatch.setattr(discord.Interaction, "_from_data", from_data)


def message_texts(message: Any) -> list[str]:
    texts = [message.content or ""]
    for embed in message.embeds:
        texts += embed_texts(embed)
    return texts + component_labels(message.components)


async def test_the_commands_speak_each_user_s_own_language(
    sim: SimTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    await bluff_rounds(sim)
    alice, bob, carol = sim.users[:3]
    speaks(monkeypatch, {alice.id: discord.Locale.dutch, bob.id: discord.Locale.german})
    drawn: list[CardData] = []
    monkeypatch.setattr(
        sys.modules["cogs.stats"], "render_card", lambda data: drawn.append(data) or b"png"
    )
    store = sim.bot.storage
    game = await store.create_game(sim.guild.id, sim.channel.id, "mexen", "{}")
    deltas = {(sim.guild.id, 1000 + i): {"sips": 30 - i, "games_played": 1} for i in range(25)}
    await store.save_move(game.id, "{}", "running", [], deltas, channel_id=sim.channel.id)

    board = await alice.slash(sim.channel, "leaderboard", stat="sips")
    assert board.response is not None
    shown = message_texts(board.response)
    assert "«nl:leaderboard-your-place»" in shown and leftover(*shown) == []
    turned = await bob.click(sim.channel.last_message, label="▶")  # the clicker's language
    assert turned.response is not None
    shown = message_texts(turned.response)
    assert "«de:leaderboard-your-place»" in shown and leftover(*shown) == []

    for options in ({"text": True}, {}, {"user": bob}):
        card = await alice.slash(sim.channel, "stats", **options)
        assert card.response is not None
        assert leftover(*message_texts(card.response)) == []
    assert drawn and all(leftover(*card_texts(data)) == [] for data in drawn)
    assert "«nl:card-taken»" in card_texts(drawn[0])

    history = await carol.slash(sim.channel, "history", count=5)
    assert history.response is not None
    shown = message_texts(history.response)
    assert "«en:history-title»" in shown and leftover(*shown) == []

    for ruleset in (None, *PRESET_NAMES):
        options = {} if ruleset is None else {"ruleset": ruleset}
        rules = await bob.slash(sim.channel, "rules", **options)
        assert rules.response is not None
        shown = message_texts(rules.response)
        assert leftover(*shown) == [] and any(text.startswith("«de:rules-") for text in shown)


async def test_the_reset_speaks_the_admin_s_language(
    sim: SimTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    await bluff_rounds(sim)
    admins = sim.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = sim.guild.add_member(sim.env.create_user("admin"), roles=[admins])
    speaks(monkeypatch, {admin.id: discord.Locale.dutch})
    asked = await admin.slash(sim.channel, "resetleaderboard")
    assert asked.response is not None and asked.response.content == "«nl:reset-sure»"
    assert component_labels(asked.response.components) == [
        "«nl:reset-confirm»",
        "«nl:reset-cancel»",
    ]
    cancelled = await admin.click(asked.response, label="«nl:reset-cancel»")
    assert cancelled.response is not None
    assert cancelled.response.content == "«nl:reset-nothing»"
    asked = await admin.slash(sim.channel, "resetleaderboard")
    assert asked.response is not None
    done = await admin.click(asked.response, label="«nl:reset-confirm»")
    assert done.response is not None and "«nl:reset-done»" in done.response.content
    assert leftover(done.response.content) == []


# --- longer words ---------------------------------------------------------------------


class Longer(Talk):
    """English with every word a good third longer and with an umlaut, as Dutch and German
    words may be."""

    def __init__(self) -> None:
        super().__init__(i18n.DEFAULT)

    def __call__(self, key: str, **args: Any) -> str:
        text = super().__call__(key, **args)
        return re.sub(r"[A-Za-z]{3,}", lambda m: m[0] + "ü" + m[0][: len(m[0]) // 3], text)


@pytest.mark.parametrize("totals", [TOTALS[1], PlayerTotals(1, 2, *([123_456] * 19))])
def test_the_card_fits_longer_words(totals: PlayerTotals) -> None:
    data = card_data(
        "Maximilian the Magnificent Gamer",
        totals,
        ("21", 99_999),
        (5, 88_888),
        "Bartholomew Fitzgerald Jr. III",
        Longer(),
    )
    english = card_data("x", totals, None, None, None)
    assert len(data.footer) >= 1.3 * len(english.footer)
    drawn = for_the_font(data)
    assert drawn == data and "ü" in drawn.footer  # the font has the letter: drawn as is
    layout = layout_card(drawn)
    assert outside_problems(layout) == []
    assert overlap_problems(layout) == []
    assert cut_problems(layout, drawn) == []


def test_the_font_step_leaves_letters_alone() -> None:
    """Only what the font cannot draw is drawn plainly: mathematical letters as the
    letters they are; an emoji, with no plain form, stays as it is."""
    data = card_data("alice", TOTALS[2], ("21", 3), (5, 2), "bob")
    assert for_the_font(data) == data
    odd = dataclasses.replace(data, name="Zoë 🤖 𝐁𝐨𝐛", footer="Glück · Straße · Søren")
    assert (for_the_font(odd).name, for_the_font(odd).footer) == (
        "Zoë 🤖 Bob",
        "Glück · Straße · Søren",
    )
