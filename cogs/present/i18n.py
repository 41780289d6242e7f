"""The bot's languages, as the presenter reaches them: the catalogs' reader lives in
bot/i18n.py so that bot/ imports nothing from cogs/ (README, Languages)."""

from bot.i18n import DEFAULT, LOCALES, MEMO_SIZE, Talk, language_of, languages, talk

__all__ = ["DEFAULT", "LOCALES", "MEMO_SIZE", "Talk", "language_of", "languages", "talk"]
