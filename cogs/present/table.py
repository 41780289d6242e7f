"""Every message about a table: the turn message, private replies, the lobby, the end of a
game, reminders and refusals, built from the table, the move's outcome and the viewer.

Pure functions into ``Reply`` values: no Discord I/O and no rules. What is legal, who
must choose and who may see the cup are the engine's answers; this module only words
them and lays them out for a phone: the player to act named (and pinged only when the
turn passes to them), one fact once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.engine import RANK, Act, Game, Kind, Move
from bot.engine.state import POINTS_PER
from bot.fairness import Commitment, message
from bot.tables import Outcome, Table

from . import ids
from .message import (
    CONTENT_LIMIT,
    LABEL_LIMIT,
    MENU_OPTIONS,
    OPTION_LIMIT,
    Button,
    Component,
    Embed,
    Menu,
    Reply,
    Style,
    clip,
)
from .story import story
from .words import Words, amount, drinks, mention_ids, who

#: Seal characters shown in the channel; the full digest is behind "Check the cup".
SEAL_SHOWN = 10
#: Lines of earlier moves a turn message keeps above the newest move's lines.
KEEP_LINES = 6

BUTTONS: dict[Act, tuple[str, Style]] = {
    Act.JOIN: ("Join", "success"),
    Act.LEAVE: ("Leave", "secondary"),
    Act.START: ("Start", "primary"),
    Act.ROLL: ("Roll", "primary"),
    Act.ROLL_BLIND: ("Roll blind", "secondary"),
    Act.ACCEPT: ("Accept", "secondary"),
    Act.BULLSHIT: ("Bullshit!", "danger"),
    Act.FOLD: ("Fold", "secondary"),
    Act.STAND: ("Stand", "success"),
    Act.KEEP: ("Keep", "secondary"),
    Act.ENDROUND: ("End round early", "danger"),
    Act.TAP: ("TAP! (anyone else)", "danger"),
}
MENUS: dict[Act, str] = {
    Act.CLAIM: "Claim…",
    Act.PASS: "Pass it on unseen, claiming…",
    Act.HANDOUT: "Hand your sip to…",
    Act.KNIGHT: "Name the next Knight…",
}
#: A claim's answers say what follows them: taking the cup is accepting the claim.
ANSWER_LABELS = {Act.ROLL: "Accept & roll", Act.ROLL_BLIND: "Accept & roll blind",
                 Act.ACCEPT: "Accept & pass on"}  # fmt: skip
LAST_CUP = "Check the last cup"
#: How the open-roll prompt names each choice the mover has.
OPEN_CHOICES = {Act.ROLL: "roll again", Act.KEEP: "keep a die", Act.STAND: "stand"}
TOOLS: dict[str, tuple[str, Style]] = {
    ids.SHOW_DICE: ("Show my dice", "secondary"),
    ids.CHECK_CUP: ("Check the cup", "secondary"),
    ids.REMATCH: ("Rematch", "primary"),
}


# --- the pieces --------------------------------------------------------------------------


def seal_text(commit: Commitment) -> str:
    return f"🔒 `{commit.digest[:SEAL_SHOWN]}`"


def prompt(game: Game) -> str:
    """What the player to act must do, naming them."""
    mover = game.to_move
    p = who(mover)
    choice = game.owes_choice(mover) if mover else None
    if choice is Act.HANDOUT:
        return f"{p}, hand out your sip."
    if choice is Act.KNIGHT:
        return f"{p}, name the next Knight."
    if game.bluffing:
        stage = game.stage
        if stage == "answer":
            return f"{p}: roll to accept, or call bullshit?"
        if stage == "rolled":
            return f"{p}, claim (you may bluff)." if mover in game.seen_by else f"{p}, claim."
        if stage == "accepted":
            if game.can_pass_after_accept():
                return f"{p}, roll, or pass the cup on unseen."
            return f"{p}, roll."
        if stage == "reroll":
            return f"{p}, roll again."
        return f"{p}, roll under the cup."
    if game.rolloff is not None:
        return f"{p}, roll off."
    if game.last is None:
        return f"{p}, your roll."
    acts = {m.act for m in game.legal_actions(mover)} if mover else set()
    choices = {**OPEN_CHOICES, Act.ENDROUND: Words.of(game).ending[1]}
    said = [choices[a] for a in (Act.ROLL, Act.KEEP, Act.STAND, Act.ENDROUND) if a in acts]
    if len(said) > 1:
        return f"{p}, {', '.join(said[:-1])} or {said[-1]}."
    return f"{p}, {said[0] if said else 'your move'}."


def status(table: Table) -> str:
    """The state a player needs for the move at hand, on one line."""
    game, meta = table.game, table.meta
    bits = []
    if game.bluffing and meta.commit is not None:
        bits.append(seal_text(meta.commit))
    if not game.bluffing and game.rolloff is None and game.to_move is not None:
        left = max(game.allowed_rolls() - game.rolls, 0)
        if left and game.limit is None:
            bits.append(f"{left} {'roll' if left == 1 else 'rolls'} left (sets the limit)")
        elif left:
            bits.append(f"{left} of {game.limit} {'roll' if game.limit == 1 else 'rolls'} left")
    if meta.deadline is not None:
        bits.append(f"⏱ <t:{int(meta.deadline)}:R>")
    return " · ".join(bits)


def results(game: Game) -> str:
    """The open rolls standing in this round, lowest first, so the next roller knows what
    to beat."""
    if game.bluffing or not game.results:
        return ""
    words = Words.of(game)
    ranked = sorted(game.results.items(), key=lambda kv: RANK[kv[1]])
    return "So far: " + ", ".join(f"{who(p)} {words.roll(r)}" for p, r in ranked)


def scores(game: Game) -> str:
    """Lives left (and drinks taken) per seated player, one line; nothing while everyone
    still stands where they started."""
    if all(not game.players[p].totals for p in game.seats):
        lives = {game.players[p].lives for p in game.seats}
        if len(lives) == 1:
            (each,) = lives
            return f"❤️ {each} each" if each is not None else ""
    parts = []
    for player in game.seats:
        state = game.players[player]
        bits = []
        if state.lives is not None:
            bits.append(f"❤️ {state.lives}")
        taken = drinks(state.totals)
        if taken:
            bits.append(taken)
        if bits:  # a drinking game names only those who drank
            parts.append(f"{who(player)} {' '.join(bits)}")
    return " · ".join(parts)


def names_of(table: Table) -> dict[str, str]:
    return {p: table.meta.names.get(p, p) for p in table.game.players}


def move_button(table: Table, move: Move, label: str | None = None, row: int = 0) -> Button:
    default, style = BUTTONS[move.act]
    return Button(
        clip(label or default, LABEL_LIMIT),
        ids.move_id(table.game_id, table.game.move_no, move),
        style,
        row,
    )


def tool_button(table: Table, tool: str, arg: str = "", row: int = 1) -> Button:
    label, style = TOOLS[tool]
    return Button(label, ids.tool_id(table.game_id, table.game.move_no, tool, arg), style, row)


def menus(table: Table, moves: Sequence[Move], acts: Iterable[Act]) -> list[Menu]:
    """Menus for the moves that take a value or a target, highest claim first."""
    game, words = table.game, Words.of(table.game)
    names = names_of(table)
    out = []
    for act in acts:
        offered = [m for m in moves if m.act is act]
        if not offered:
            continue
        if act in (Act.CLAIM, Act.PASS):
            options = [(claim_label(words, m), m.encode()) for m in reversed(offered)]
        else:
            options = [(clip(names.get(m.to or "", m.to or ""), OPTION_LIMIT), m.encode())
                       for m in offered]  # fmt: skip
        out.append(Menu(ids.menu_id(table.game_id, game.move_no, act), MENUS[act],
                        tuple(options[:MENU_OPTIONS])))  # fmt: skip
    return out


def claim_label(words: Words, move: Move) -> str:
    assert move.roll is not None
    said = words.roll(move.roll)
    digits = f"{move.roll[0]}{move.roll[1]}"
    return said if said == digits else f"{said} ({digits})"


def move_components(table: Table) -> list[Component]:
    """The public buttons of the move that is due: the mover's moves on the first row,
    TAP (for everyone else) and tools on the second, menus below."""
    game = table.game
    mover = game.to_move
    if game.phase != "playing" or mover is None:
        return []
    moves = game.legal_actions(mover)
    buttons: list[Component] = []
    for move in moves:
        if move.act not in BUTTONS:
            continue
        if move.act is Act.ACCEPT and not game.can_pass_after_accept():
            continue  # accepting would only lead to a roll: the Roll button does both
        label = None
        if game.bluffing and game.stage == "answer":
            label = ANSWER_LABELS.get(move.act)
        elif move.act is Act.KEEP:
            label = f"Keep the {move.die}"
        elif move.act is Act.ENDROUND:
            label = Words.of(game).ending[2]
        buttons.append(move_button(table, move, label))
    if game.stuck:
        buttons.append(move_button(table, Move(Act.TAP), row=1))
    if game.sees_cup(mover) and game.stage == "rolled":
        buttons.append(tool_button(table, ids.SHOW_DICE))
    if game.bluffing and table.meta.commit is not None:
        buttons.append(tool_button(table, ids.CHECK_CUP, table.meta.commit.digest[:SEAL_SHOWN]))
    return [*buttons, *menus(table, moves, (Act.CLAIM, Act.PASS, Act.HANDOUT, Act.KNIGHT))]


# --- public messages ---------------------------------------------------------------------


def turn(table: Table, lines: Sequence[str], *, ping: bool) -> Reply:
    """The live turn message: what happened since the turn began, whose move it is (a
    ping only when the turn has just passed to them), and the state for that move."""
    game = table.game
    body = []
    for line in lines:
        body.append(line)
        if line == f"**Round {game.round_no}**":
            body.append(scores(game))
    extra = results(game)
    if extra:
        body.append(extra)
    body.append(prompt(game))
    state = status(table)
    if state:
        body.append(state)
    content = clip("\n".join(line for line in body if line), CONTENT_LIMIT)
    mover = game.to_move
    return Reply(content, None, tuple(move_components(table)),
                 ping=(mover,) if ping and mover else ())  # fmt: skip


def lobby(table: Table) -> Reply:
    """The lobby, edited in place as people join; it names the players a rematch invited
    until they sit down, and pings them (their tap on Join is the move asked of them);
    edits ping nobody, so only the first message does."""
    game = table.game
    o = game.options
    seats = ", ".join(who(p) for p in game.seats)
    rules = [amount(o.lives, "life") if o.lives else "no lives", o.units]
    rules.append(f"{o.turn_timer} s a move" if o.turn_timer else "no timer")
    description = (
        f"Host: {who(game.host)}\nIn: {seats} ({len(game.seats)}/{o.max_players})\n"
        f"{' · '.join(rules)}\nTap **Join** to play; the host taps **Start**."
    )
    embed = Embed(title=f"🎲 {game.preset} · new table", description=description)
    waiting = [p for p in table.meta.invited if p not in game.seats]
    content = ""
    if waiting:
        content = "Rematch! " + " ".join(who(p) for p in waiting) + ": tap **Join**."
    buttons = tuple(move_button(table, Move(act)) for act in (Act.JOIN, Act.LEAVE, Act.START))
    return Reply(content, embed, buttons, ping=tuple(waiting))


def standing(game: Game) -> list[str]:
    """Every player who took part, best first, with what decides the game in one
    column: lives left where lives count, otherwise what they drank."""
    lives = game.options.lives is not None

    def key(player: str) -> tuple[int, int, int, int]:
        state = game.players[player]
        won = 0 if player == game.winner else 1
        left = -(state.lives or 0) if lives else 0
        lasted = -(state.out_at if state.out_at is not None else game.move_no)
        drunk = sum(n * POINTS_PER.get(u, 1) for u, n in state.totals.items() if u != "life")
        return (won, left, lasted, drunk) if lives else (won, drunk, 0, 0)

    players = [p for p in game.players if game.players[p].status != "waiting" or p in game.seats]
    lines = []
    for place, player in enumerate(sorted(players, key=key), start=1):
        state = game.players[player]
        bits = []
        if lives:
            bits.append("out" if not state.lives else f"❤️ {state.lives} left")
        taken = drinks(state.totals)
        if taken or not lives:
            bits.append(taken or amount(0, game.options.units.removesuffix("s")))
        if state.status == "gone":
            bits.append("left")
        lines.append(f"{place}. {who(player)} · {' · '.join(bits)}")
    return lines


def final(table: Table, lines: Sequence[str], lifted: Commitment | None) -> Reply:
    """The end of a game: how it ended, the final standing, and a Rematch button."""
    game = table.game
    embed = Embed(title="Final standing", description="\n".join(standing(game)))
    buttons = [tool_button(table, ids.REMATCH, row=0)]
    if lifted is not None:
        buttons.append(tool_button(table, ids.CHECK_CUP, lifted.digest[:SEAL_SHOWN], row=0))
    return Reply(clip("\n".join(lines), CONTENT_LIMIT), embed, tuple(buttons))


def combine(earlier: Sequence[str], new: Sequence[str]) -> list[str]:
    """The turn message's lines: a fact that happens twice in a turn (the same roll after
    an Elbow) is marked, so no line reads as said twice."""
    lines = list(earlier)
    for line in new:
        lines.append(line if line not in lines else f"{line} (again)")
    return lines


def after_move(
    outcome: Outcome, earlier: Sequence[str], *, ping: bool, shown_lift: Commitment | None = None
) -> Reply:
    """The public message a move leaves: the lobby, the live turn message, or the end.

    ``shown_lift`` is a cup lifted by an earlier move whose reveal this message still
    shows (it is updated in place): it stays checkable from here.
    """
    table = outcome.table
    game = table.game
    lines = combine(earlier[-KEEP_LINES:], story(game, outcome.events))
    if game.phase == "lobby":
        return lobby(table)
    if game.phase == "over":
        return final(table, lines, outcome.lifted)
    reply = turn(table, lines, ping=ping)
    lifted = outcome.lifted or shown_lift
    if lifted is None:
        return reply
    check = tool_button(table, ids.CHECK_CUP, lifted.digest[:SEAL_SHOWN])
    if table.meta.commit is not None:  # a new cup is sealed here too: tell them apart
        check = Button(LAST_CUP, check.custom_id, check.style, check.row)
    return Reply(reply.content, reply.embed, (*reply.components, check), reply.ping)


def retired(
    reply_components: Sequence[Component], lifted: Commitment | None
) -> tuple[Component, ...]:
    """What an old turn message keeps once the game moved on: the Check-the-cup button
    of a cup that has been lifted (it can still be checked), nothing that could act."""
    if lifted is None:
        return ()
    mark = f":{ids.CHECK_CUP}.{lifted.digest[:SEAL_SHOWN]}"
    return tuple(c for c in reply_components
                 if isinstance(c, Button) and c.custom_id.endswith(mark))  # fmt: skip


REMINDER = "⏰ "


def is_reminder(content: str) -> bool:
    """Whether a message of this bot is a turn-timer reminder (they are deleted once the
    turn moves on, also across a restart)."""
    return content.startswith(REMINDER) and ", your move: time runs out" in content


def reminder(table: Table) -> Reply:
    """Half the turn is gone: a short nudge that pings the player to move."""
    mover = table.game.to_move
    deadline = table.meta.deadline
    when = f" <t:{int(deadline)}:R>" if deadline is not None else ""
    text = f"{REMINDER}{who(mover)}, your move: time runs out{when}."
    return Reply(text, ping=(mover,) if mover else ())


# --- private replies ---------------------------------------------------------------------


def private_after(outcome: Outcome) -> Reply | None:
    """What only the mover reads after their move: their dice with the Claim menu, or the
    choice they owe (a hand-out, the next Knight). ``None`` when nothing is private."""
    table, player = outcome.table, outcome.player
    game = table.game
    dice = next((e for e in outcome.events if e.kind is Kind.DICE and e.to == player), None)
    rolled_blind = any(
        e.kind is Kind.ROLLED and e.player == player and e.data.get("blind") for e in outcome.events
    )
    if dice is not None or (rolled_blind and game.to_move == player):
        return your_cup(table, player)
    choice = game.owes_choice(player)
    if choice is not None:
        moves = game.legal_actions(player)
        return Reply(prompt(game), None, tuple(menus(table, moves, (choice,))), private=True)
    return None


def your_cup(table: Table, player: str) -> Reply:
    """The roller's own view of the cup: the dice (unless rolled blind) and, while it is
    theirs to claim, the Claim menu and Fold."""
    game = table.game
    words = Words.of(game)
    if game.sees_cup(player):
        assert game.cup is not None
        text = f"🎲 Your dice: **{words.roll(game.cup)}** (only you see this)."
    elif game.bluffing and game.cup is not None and player == game.to_move:
        text = "🙈 You rolled blind: nobody, you included, has seen the dice."
    else:
        return refusal("You haven't seen the dice under the cup.")
    components: list[Component] = []
    if player == game.to_move and game.stage == "rolled":
        moves = game.legal_actions(player)
        components += menus(table, moves, (Act.CLAIM,))
        if Move(Act.FOLD) in moves:
            components.append(move_button(table, Move(Act.FOLD)))
        text += "\nClaim below. You may bluff."
    return Reply(text, None, tuple(components), private=True)


def sealed_cup(commit: Commitment) -> Reply:
    return Reply(
        f"🔒 The cup is sealed: `{commit.digest}`\nWhen it is lifted, this button shows "
        "the dice and the salt, so you can check nobody changed them.",
        private=True,
    )


def lifted_cup(commit: Commitment, words: Words) -> Reply:
    text = message(commit.dice, commit.salt)
    return Reply(
        f"🔓 The cup held **{words.roll(commit.dice)}**, sealed as `{commit.digest}`.\n"
        f"Check it yourself:\n```\nprintf '{text}' | sha256sum\n```",
        private=True,
    )


def table_view(table: Table, viewer: str) -> Reply:
    """/table: everything public about the table, for the one who asked."""
    game = table.game
    fields: list[tuple[str, str]] = []
    if game.phase == "playing":
        fields.append(("Move", prompt(game)))
        if game.bluffing and game.standing is not None:
            fields.append(("Standing claim", Words.of(game).roll(game.standing)))
        extra = results(game)
        if extra:
            fields.append(("This round", extra.removeprefix("So far: ")))
        if game.knight:
            fields.append(("Knight", who(game.knight)))
        if not game.bluffing and game.options.loss == "pot":
            fields.append(("Pot", str(game.pot)))
        state = status(table)
        if state:
            fields.append(("Now", state))
    title = f"🎲 {game.preset} · " + ("lobby" if game.phase == "lobby" else
                                     f"round {game.round_no}")  # fmt: skip
    embed = Embed(title=title, description=scores(game) or "—", fields=tuple(fields))
    return Reply("", embed, private=True)


def refusal(text: str) -> Reply:
    """A private answer that changed nothing. Ids become mentions (an ephemeral message
    pings nobody); any user text in it has been cut before it got here."""
    return Reply(clip(mention_ids(text), CONTENT_LIMIT), private=True)
