"""The bot arena: a Mäxchen protocol server where outside bots play each other (README, Bot arena).

Not to be confused with ``benchmarks/ai_arena.py``, the offline arena that pits the
computer players against each other inside one process.
"""
