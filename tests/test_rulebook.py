"""The rule prose: one page per preset, and every embed within Discord's limits."""

from __future__ import annotations

import hashlib

import discord
import pytest

from bot.engine.presets import PRESET_NAMES
from bot.present.rulebook import RULEBOOK
from bot.present.words import ruleset_name
from cogs.rules import overview_embed, rules_embed


def test_a_page_for_every_preset() -> None:
    assert set(RULEBOOK) == set(PRESET_NAMES)
    for page in RULEBOOK.values():
        assert page.title and page.summary and page.rules
        assert "\n" not in page.summary


def assert_within_discord_limits(embed: discord.Embed) -> None:
    assert len(embed) <= 6000
    assert len(embed.title or "") <= 256
    assert len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    for field in embed.fields:
        assert 0 < len(field.name) <= 256
        assert 0 < len(field.value) <= 1024
    assert len(embed.footer.text or "") <= 2048


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_preset_embed_fits(preset: str) -> None:
    embed = rules_embed(preset)
    assert_within_discord_limits(embed)
    assert embed.title == RULEBOOK[preset].title
    for line in RULEBOOK[preset].rules:
        assert line in (embed.description or "")


def test_overview_embed_fits_and_names_all_five() -> None:
    embed = overview_embed()
    assert_within_discord_limits(embed)
    names = " ".join(field.name for field in embed.fields)
    # By their names in the reader's language (the codes are what the option takes).
    assert all(ruleset_name(code) in names for code in PRESET_NAMES)


def test_rules_explain_how_to_check_the_sealed_cup() -> None:
    from bot.game.fairness import commitment
    from bot.present.rulebook import FAIR_CUP
    from cogs.rules import overview_embed, rules_embed

    assert "sha256sum" in FAIR_CUP and "salt" in FAIR_CUP
    # The recipe in the text is the one the bot uses.
    assert commitment((2, 6), "abc") == hashlib.sha256(b"6-2:abc").hexdigest()
    for embed in (overview_embed(), rules_embed("mexican"), rules_embed("dollar")):
        assert any(field.value == FAIR_CUP for field in embed.fields)
    assert not any(field.value == FAIR_CUP for field in rules_embed("mexen").fields)
