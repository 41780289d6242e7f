"""The presenter: every message the bot sends, built as plain data by pure functions
(README, Playing). The cogs send what it builds and add nothing of their own."""
