"""The tables in play (README, How the code is laid out): one game per channel under one
lock, the turn clock and the computer players' turns; every outcome leaves through one
sink (outcomes.py). No Discord here."""
