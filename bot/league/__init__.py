"""The league (README, Ratings, seasons and achievements): ratings, seasons, achievements
and the statistics a game leaves. No Discord here."""
