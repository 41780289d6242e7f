"""The web companion (README, Web companion): a server's leaderboards, season, player
profiles and replays of finished games as pages, for the servers that opted in.

A floor of its own above the process's (bot/runtime): it reads storage and the league and
words everything with the presenter's catalogs, and knows nothing of Discord. aiohttp
serves it, as it serves /metrics; Jinja2 fills its templates.
"""
