"""Words and embeds for a table: how events and views of the engine look in a channel.

Only renders what the engine says; it decides nothing. Public text is built from public
events alone, so hidden dice cannot leak into a channel message by accident.
"""

from __future__ import annotations

import re

import discord

from bot.engine import Event, Game, code
from bot.engine.rolls import Roll, chance_to_beat
from bot.fairness import Commitment, message
from bot.tables import Outcome, Table

COLOUR = discord.Colour.dark_gold()
UNIT_WORDS = {
    "sip": ("sip", "sips"), "shot": ("shot", "shots"), "chug": ("chug", "chugs"),
    "life": ("life", "lives"), "point": ("point", "points"),
}  # fmt: skip


def who(player: str | None) -> str:
    return f"<@{player}>" if player else "nobody"


#: A bare Discord id (a player as the engine names them) not already inside a mention.
_BARE_ID = re.compile(r"(?<![<@#&\d])(\d{15,21})(?![\d>])")


def mention_ids(text: str) -> str:
    """The engine speaks of players by id ("it's 1234's move"); show them as mentions."""
    return _BARE_ID.sub(lambda m: f"<@{m.group(1)}>", text)


def amount(n: int, unit: str) -> str:
    one, many = UNIT_WORDS[unit]
    return f"{n} {one if n == 1 else many}"


def roll_of(data: list[int] | tuple[int, int]) -> Roll:
    return (max(data), min(data))


def odds_line(game: Game, claim: Roll) -> str:
    """How likely the claim was to be true on a fresh roll (out of 34 where 3-1 re-rolls)."""
    reroll = game.options.three_one != "low"
    chance = chance_to_beat(claim, reroll)
    out_of = 34 if reroll else 36
    hits = chance * out_of
    if chance == 1:
        return f"any fresh roll makes {game.say(claim)} or better"
    if chance == 0:
        return f"no fresh roll beats {game.say(claim)}"
    if chance.denominator == 2:
        return f"a fresh roll makes {game.say(claim)} or better half the time"
    return f"a fresh roll makes {game.say(claim)} or better only {hits} in {out_of}"


#: Events whose sentence is a plain template: {p} is the player, other fields come from
#: the event's data.
TEMPLATES: dict[str, str] = {
    "lobby": "{p} opened a **{preset}** table.",
    "joined": "{p} joined.",
    "waiting": "{p} joins at the start of the next round.",
    "seated": "{p} sits down at the table.",
    "left": "{p} left ({reason}).",
    "out": "{p} is out ({reason}).",
    "host": "{p} is the host now.",
    "round_started": "**Round {round}**: {p} starts.",
    "social": "{p} rolled 3-1: **Social**! Everyone sips, and {p} rolls again.",
    "handout": "{p} rolled 3-1: hands out a sip and rolls again.",
    "elbow": "{p} rolled 3-1: **Elbow**! The turn starts over.",
    "folded": "{p} folds.",
    "ended_round": "{p} ends the round early.",
    "stuck": "**STUCK!** {p} rolled 3-2: anyone else can TAP before {p} rolls.",
    "pot": "The pot is now **{pot}**.",
    "knight_choice": "Knight {p} rolled 1-1 and names the next Knight.",
    "limit": "Roll limit this round: **{limit}**.",
    "timeout": "⏰ {p}'s time ran out.",
}


def event_line(game: Game, event: Event) -> str | None:
    """One public event as a sentence; ``None`` for events shown elsewhere or not at all."""
    p, d, kind = event.player, event.data, event.kind
    say = game.say
    if event.to is not None:
        return None
    if kind in TEMPLATES:
        return TEMPLATES[kind].format(**d, p=who(p))
    match kind:
        case "started" | "rolloff":
            lead = "The game is on! Seats: " if kind == "started" else "Tie for lowest! Roll-off: "
            return lead + ", ".join(who(x) for x in d["players"]) + "."
        case "rolled" if game.bluffing:
            blind = " blind" if d.get("blind") else ""
            return f"{who(p)} rolled{blind} under the cup."
        case "rolled":
            extra = f" (kept the {d['kept']})" if d.get("kept") else ""
            off = " in the roll-off" if d.get("rolloff") else ""
            return f"{who(p)} rolled **{say(roll_of(d['dice']))}**{extra}{off}."
        case "claimed" | "passed":
            claim = say(roll_of(_digits(d["claim"])))
            how = "claims" if kind == "claimed" else "passes the cup on unseen, claiming"
            return f"{who(p)} {how} **{claim}** → {who(d['to'])}."
        case "accepted":
            return f"{who(p)} takes the cup." if d.get("by_roll") else f"{who(p)} accepts."
        case "reveal":
            cup, claim = roll_of(d["dice"]), roll_of(_digits(d["claim"]))
            verdict = "caught bluffing!" if d["bluff"] else "it was true!"
            return (
                f"{who(p)} calls **bullshit**! The cup shows **{say(cup)}** against "
                f"{who(d['claimer'])}'s **{say(claim)}**: {verdict} ({odds_line(game, claim)})"
            )
        case "penalty":
            by = f" (thanks to {who(d['by'])})" if d.get("by") and d["by"] != p else ""
            return f"→ {who(p)} takes **{amount(d['amount'], d['unit'])}**: {d['cause']}{by}."
        case "round_over":
            if p is None:
                return f"Round {d['round']} is void: nobody pays."
            return f"Round {d['round']} lost by {who(p)}."
        case "stood":
            return f"{who(p)} stands on **{say(roll_of(_digits(d['roll'])))}**."
        case "tapped":
            return f"{who(p)} hits **TAP**! {who(d['roller'])}'s 3-2 is locked."
        case "knight":
            return f"{who(p)} is the **Knight**." if d.get("knight") else "There is no Knight now."
        case "game_over":
            if d.get("winner"):
                return f"🏆 **Game over!** {who(d['winner'])} wins."
            if d.get("loser"):
                return f"**Game over!** {who(d['loser'])} hit zero lives and loses the game."
            return "**Game over.**"
    return None


def _digits(text: str) -> tuple[int, int]:
    return (int(text[0]), int(text[1]))


def story(outcome: Outcome) -> str:
    """The public account of one move, cup seals and openings included."""
    game = outcome.table.game
    lines = [line for e in outcome.events if (line := event_line(game, e))]
    if outcome.sealed:
        lines.append(f"🔒 Cup sealed: `{outcome.sealed.digest}`")
    if outcome.lifted:
        lines.append(fair_line(outcome.lifted))
    if game.phase == "over":
        lines.append(totals_line(game))
    text = "\n".join(lines)
    return text if len(text) <= 3500 else text[-3500:]


def fair_line(commit: Commitment) -> str:
    return f"🔓 Check the cup: sha256(`{message(commit.dice, commit.salt)}`) = `{commit.digest}`"


def totals_line(game: Game) -> str:
    parts = []
    for player, totals in game.summary().items():
        bits = ", ".join(amount(n, unit) for unit, n in sorted(totals.items()))
        parts.append(f"{who(player)}: {bits}")
    return "**Totals**: " + ("; ".join(parts) if parts else "nobody paid anything.")


def private_lines(outcome: Outcome) -> list[str]:
    """What only the actor may read: their own dice."""
    game = outcome.table.game
    lines = []
    for event in outcome.events:
        if event.kind == "dice" and event.to == outcome.player:
            lines.append(
                f"🎲 Your dice: **{game.say(roll_of(event.data['dice']))}** (only you see this)."
            )
    return lines


def table_embed(table: Table, headline: str = "") -> discord.Embed:
    """The table as everyone may see it: seats, lives and drinks, the move, the claim."""
    game = table.game
    o = game.options
    title = f"{game.preset} · " + (
        "lobby" if game.phase == "lobby" else "game over" if game.phase == "over"
        else f"round {game.round_no}"
    )  # fmt: skip
    embed = discord.Embed(title=title, description=headline or None, colour=COLOUR)
    seats = []
    for player in game.seats:
        state = game.players[player]
        marks = []
        if player == game.to_move:
            marks.append("▶")
        if player == game.host:
            marks.append("host")
        if player == game.knight:
            marks.append("Knight")
        if state.lives is not None:
            marks.append(f"❤️ {state.lives}")
        taken = ", ".join(amount(n, u) for u, n in sorted(state.totals.items()) if u != "life")
        if taken:
            marks.append(taken)
        if not game.bluffing and player in game.results:
            marks.append(f"rolled {game.say(game.results[player])}")
        seats.append(" ".join([who(player), " · ".join(marks)]).rstrip())
    embed.add_field(name="Players", value="\n".join(seats)[:1024] or "—", inline=False)
    if game.waiting:
        embed.add_field(name="Next round", value=", ".join(who(p) for p in game.waiting))
    if game.phase == "playing":
        if game.bluffing:
            standing = game.say(game.standing) if game.standing else "none yet"
            embed.add_field(name="Standing claim", value=standing)
            if table.meta.commit:
                embed.add_field(name="Cup seal", value=f"`{table.meta.commit.digest[:16]}…`")
        else:
            if game.last is not None and game.to_move:
                embed.add_field(name="On the table", value=game.say(game.last))
            left = max(game.allowed_rolls() - game.rolls, 0)
            limit = "not set yet" if game.limit is None else str(game.limit)
            embed.add_field(name="Rolls", value=f"limit {limit}, {left} left for this turn")
            if o.loss == "pot":
                embed.add_field(name="Pot", value=str(game.pot))
            if game.rolloff:
                embed.add_field(name="Roll-off", value=", ".join(who(p) for p in game.rolloff))
        if table.meta.deadline is not None:
            embed.add_field(name="Time", value=f"<t:{int(table.meta.deadline)}:R>")
    embed.set_footer(text=f"move {game.move_no} · units: {o.units}")
    return embed


def turn_prompt(game: Game) -> str:
    if game.phase == "lobby":
        return f"{who(game.host)} opened a **{game.preset}** table: join with the button or /join."
    if game.phase == "over" or game.to_move is None:
        return ""
    mover = game.to_move
    if game.pending == "handout":
        return f"{who(mover)}, hand out your sip."
    if game.pending == "knight":
        return f"{who(mover)}, name the next Knight."
    if game.bluffing and game.stage == "answer":
        claim = game.say(game.standing) if game.standing else "?"
        return f"{who(mover)}, {who(game.claimer)} claims **{claim}**: accept or call bullshit?"
    return f"{who(mover)}, your move."


def claim_label(game: Game, roll: Roll) -> str:
    name = game.say(roll)
    digits = code(roll)
    return name if name == digits else f"{name} ({digits})"
