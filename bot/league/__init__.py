"""The league (README, Leaderboard and stats): ratings, seasons, achievements
and the statistics a game leaves. No Discord here."""
